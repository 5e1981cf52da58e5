import Foundation
import Logging
import Synchronization

/// A long-running child program whose exit can be awaited and whose output is logged
/// line by line, with the last lines kept for error messages.
public final class ChildProcess: @unchecked Sendable {
    // `Process` is not Sendable; it is only touched in `init` and to read `processIdentifier`,
    // both safe from any thread once it has started.
    private let process: Process
    private let shared = Shared()
    public let pid: Int32

    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    private struct State {
        var exitStatus: Int32?
        var waiters: [CheckedContinuation<Int32, Never>] = []
        var partialLine = ""
        var lastLines: [String] = []
    }

    private static let keptLines = 40

    /// Starts `executable` with `arguments`; its stdout and stderr go to `logger` (source `postgres`).
    public init(
        executable: String,
        arguments: [String],
        environment: [String: String],
        currentDirectory: String,
        logger: Logger
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory)
        process.standardInput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        self.process = process
        let reader = pipe.fileHandleForReading
        let shared = self.shared
        reader.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                return
            }
            let lines = shared.state.withLock { state -> [String] in
                state.partialLine += String(decoding: data, as: UTF8.self)
                var complete = state.partialLine.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                state.partialLine = complete.removeLast()
                state.lastLines.append(contentsOf: complete)
                if state.lastLines.count > Self.keptLines {
                    state.lastLines.removeFirst(state.lastLines.count - Self.keptLines)
                }
                return complete
            }
            for line in lines where !line.isEmpty {
                let level: Logger.Level =
                    line.contains("FATAL") || line.contains("PANIC") || line.contains("ERROR") ? .error
                    : line.contains("WARNING") ? .warning : .debug
                logger.log(level: level, "\(line)", metadata: ["source": "postgres"])
            }
        }
        process.terminationHandler = { finished in
            let status = finished.terminationStatus
            let waiters = shared.state.withLock { state -> [CheckedContinuation<Int32, Never>] in
                state.exitStatus = status
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: status) }
        }
        try process.run()
        try? pipe.fileHandleForWriting.close()
        self.pid = process.processIdentifier
    }

    /// Whether the program has ended.
    public var hasExited: Bool { shared.state.withLock { $0.exitStatus != nil } }

    /// The last lines the program printed, for error messages.
    public var lastOutput: String {
        shared.state.withLock { state in
            (state.lastLines + (state.partialLine.isEmpty ? [] : [state.partialLine])).joined(separator: "\n")
        }
    }

    /// Waits until the program ends and returns its exit status.
    public func waitForExit() async -> Int32 {
        await withCheckedContinuation { continuation in
            let status = shared.state.withLock { state -> Int32? in
                if let status = state.exitStatus { return status }
                state.waiters.append(continuation)
                return nil
            }
            if let status { continuation.resume(returning: status) }
        }
    }

    /// Sends `signal` to the program if it is still running.
    public func send(_ signal: Int32) {
        guard !hasExited else { return }
        kill(pid, signal)
    }
}
