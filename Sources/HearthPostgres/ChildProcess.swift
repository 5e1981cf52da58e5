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
        /// The exit status, once the program ended and its output was read to the end.
        var exitStatus: Int32?
        /// The exit status as the program ended (its last output may still be in the pipe).
        var ended: Int32?
        var outputEnded = false
        var waiters: [CheckedContinuation<Int32, Never>] = []
        var partialLine = ""
        var lastLines: [String] = []
    }

    private static let keptLines = 40

    /// How long an ended program's output is waited for (a grandchild may hold the pipe open).
    private static let outputGrace: Double = 2

    /// Reports the exit to those waiting, once: after the program ended and its output was read
    /// (so an error message has its last lines), or when the output is not done in time.
    private static func finish(_ shared: Shared, force: Bool = false) {
        let (status, waiters) = shared.state.withLock { state -> (Int32?, [CheckedContinuation<Int32, Never>]) in
            guard state.exitStatus == nil, let ended = state.ended, state.outputEnded || force else { return (nil, []) }
            state.exitStatus = ended
            defer { state.waiters = [] }
            return (ended, state.waiters)
        }
        if let status { for waiter in waiters { waiter.resume(returning: status) } }
    }

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
                shared.state.withLock { $0.outputEnded = true }
                Self.finish(shared)
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
            shared.state.withLock { $0.ended = status }
            Self.finish(shared)
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.outputGrace) { Self.finish(shared, force: true) }
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

    /// Waits until the program ends (and its output is read) and returns its exit status.
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
