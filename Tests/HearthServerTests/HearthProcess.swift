import Foundation
import HearthCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The built `hearth` program, run as a child process the way an operator runs it.
final class HearthProcess: @unchecked Sendable {
    // `Process` is used from the test's task only; the output buffers are behind a Mutex.
    let process: Process
    private let output = Output()

    private final class Output: Sendable {
        let text = Mutex((stdout: "", stderr: ""))
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
        self.process = process
        try process.run()
        if let stdin, let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
    }

    /// Appends what arrives on `pipe` to `output` until end of file.
    private static func collect(
        _ pipe: Pipe, into output: Output,
        _ append: @escaping @Sendable (inout (stdout: String, stderr: String), String) -> Void
    ) {
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil; return }
            output.text.withLock { append(&$0, String(decoding: data, as: UTF8.self)) }
        }
    }

    var stdout: String { output.text.withLock { $0.stdout } }
    var stderr: String { output.text.withLock { $0.stderr } }

    /// Waits for the "listening on http://host:port" line and returns the port.
    func waitUntilListening(timeout: Duration = .seconds(90)) async throws -> Int {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let range = stdout.range(of: "listening on http://127.0.0.1:") {
                let digits = stdout[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits) { return port }
            }
            if !process.isRunning {
                throw HearthProcessError("hearth exited with \(process.terminationStatus) before listening:\n\(stderr)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw HearthProcessError("hearth did not start listening within \(timeout):\n\(stderr)")
    }

    /// Waits for the process to end; returns its status and how long the wait took.
    func waitForExit(timeout: Duration = .seconds(60)) async throws -> (status: Int32, elapsed: Duration) {
        let started = ContinuousClock.now
        while process.isRunning {
            if ContinuousClock.now - started > timeout {
                process.terminate()
                throw HearthProcessError("hearth did not exit within \(timeout):\n\(stderr)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return (process.terminationStatus, ContinuousClock.now - started)
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
