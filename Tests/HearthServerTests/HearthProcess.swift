import Foundation
import HearthCore
import HearthPostgres
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The built `hearth` program, run as a child process the way an operator runs it.
///
/// Everything here waits on events, not on time: each chunk of output, each pipe's end and the
/// exit wake the waiters, which check their condition; a timeout only bounds the wait. The exit
/// is reported once both pipes are drained, so what the program printed last is always there.
final class HearthProcess: @unchecked Sendable {
    // `Process` is used from the test's task only; the output and waiters are behind a Mutex.
    let process: Process
    private let output = Output()

    private final class Output: Sendable {
        struct State {
            var stdout = ""
            var stderr = ""
            /// Pipes that reached end of file (two when both are drained).
            var closedPipes = 0
            var exitStatus: Int32?
            /// Waiters woken on every change.
            var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
        }
        let state = Mutex(State())

        func change(_ update: (inout State) -> Void) {
            let waiters = state.withLock { state in
                update(&state)
                defer { state.waiters.removeAll() }
                return Array(state.waiters.values)
            }
            for waiter in waiters { waiter.resume() }
        }

        /// Waits until `condition` holds (checked now and after each change), at most `timeout`.
        func wait<T: Sendable>(_ timeout: Duration, until condition: @escaping @Sendable (State) -> T?) async -> T? {
            try? await withTimeout(timeout) { () async -> T? in
                while !Task.isCancelled {
                    let id = UUID()
                    var found: T?
                    await withTaskCancellationHandler {
                        await withCheckedContinuation { continuation in
                            let ready = self.state.withLock { state -> Bool in
                                if let value = condition(state) {
                                    found = value
                                    return true
                                }
                                state.waiters[id] = continuation
                                return false
                            }
                            if ready { continuation.resume() }
                        }
                    } onCancel: {
                        self.state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
                    }
                    if let found { return found }
                }
                return nil
            } ?? nil
        }
    }

    /// `hearth` beside the test bundle (`swift test` builds every product into the same folder).
    static var binary: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("hearth").path
    }

    /// Starts `hearth arguments`; `input`, when given, is its standard input (then closed).
    init(_ arguments: [String], environment: [String: String] = [:], input: String? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HEARTH_") && $0.key != "DATABASE_URL" }
        env["HEARTH_LOG_LEVEL"] = "info"
        // Channel secrets need a key; with an external database nothing makes one.
        env["HEARTH_SECRET_KEY"] = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
        env["HEARTH_MIGRATIONS_DIR"] = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("migrations").path
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let stdin = input.map { _ in Pipe() }
        process.standardInput = stdin ?? FileHandle.nullDevice
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let output = self.output
        Self.collect(out, into: output) { $0.stdout += $1 }
        Self.collect(err, into: output) { $0.stderr += $1 }
        process.terminationHandler = { ended in
            let status = ended.terminationStatus
            output.change { $0.exitStatus = status }
        }
        self.process = process
        try process.run()
        if let stdin, let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
    }

    /// Appends what arrives on `pipe` to `output` until end of file, then counts the pipe closed.
    /// A thread of its own reads with blocking reads: `readabilityHandler` does not always report
    /// the end of file.
    private static func collect(_ pipe: Pipe, into output: Output, _ append: @escaping @Sendable (inout Output.State, String) -> Void) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                output.change { append(&$0, String(decoding: data, as: UTF8.self)) }
            }
            output.change { $0.closedPipes += 1 }
        }
    }

    var stdout: String { output.state.withLock { $0.stdout } }
    var stderr: String { output.state.withLock { $0.stderr } }

    /// Waits for the "listening on http://host:port" (or https) line and returns the port.
    func waitUntilListening(timeout: Duration = .seconds(90)) async throws -> Int {
        enum Outcome: Sendable { case listening(Int), exited(Int32) }
        let outcome = await output.wait(timeout) { state -> Outcome? in
            if let range = state.stdout.range(of: "listening on http://127.0.0.1:") ?? state.stdout.range(of: "listening on https://127.0.0.1:"),
                let port = Int(state.stdout[range.upperBound...].prefix { $0.isNumber }) {
                return .listening(port)
            }
            return state.exitStatus.map { .exited($0) }
        }
        switch outcome {
        case .listening(let port): return port
        case .exited(let status): throw HearthProcessError("hearth exited with \(status) before listening:\n\(stderr)")
        case nil: throw HearthProcessError("hearth did not start listening within \(timeout):\n\(stderr)")
        }
    }

    /// Waits until what the program printed on standard error satisfies `condition` (checked on
    /// each new chunk), at most `timeout`; whether it did.
    func waitForOutput(_ timeout: Duration, until condition: @escaping @Sendable (String) -> Bool) async -> Bool {
        await output.wait(timeout) { state in condition(state.stderr) ? true : nil } ?? false
    }

    /// Waits for the process to end and its output to be drained; returns its status and how
    /// long the wait took.
    func waitForExit(timeout: Duration = .seconds(60)) async throws -> (status: Int32, elapsed: Duration) {
        let started = ContinuousClock.now
        let status = await output.wait(timeout) { state in state.closedPipes == 2 ? state.exitStatus : nil }
        guard let status else {
            process.terminate()
            let seen = output.state.withLock { "exit status \($0.exitStatus.map(String.init) ?? "none"), \($0.closedPipes) pipes closed" }
            throw HearthProcessError("hearth did not exit within \(timeout) (\(seen)):\n\(stderr)")
        }
        return (status, ContinuousClock.now - started)
    }

    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }
}

struct HearthProcessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The pid recorded in a cluster's `postmaster.pid`, if any.
func postmasterPID(_ dataDirectory: String) -> Int32? {
    PostmasterPIDFile.read(dataDirectory: dataDirectory)?.pid
}

func isAlive(_ pid: Int32) -> Bool { kill(pid, 0) == 0 }
