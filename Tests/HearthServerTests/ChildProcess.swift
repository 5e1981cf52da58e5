import Foundation

/// Runs a helper program (a Python client) to its end without holding a thread of Swift's
/// cooperative pool: with two cores the pool has two threads, and two tests blocked reading a
/// child's output would leave none for the server the child is talking to.
enum ChildProcess {
    struct Result: Sendable {
        var status: Int32
        var stdout: Data
        var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Whether `executable` runs and exits 0 (a probe for an installed tool, made once per test
    /// process before any server runs, so waiting here blocks nothing).
    static func succeeds(_ executable: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Runs `executable` with `arguments`, returning its exit status and standard output.
    static func run(_ executable: String, _ arguments: [String]) async throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let reader = output.fileHandleForReading
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                let data = reader.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: Result(status: process.terminationStatus, stdout: data))
            }
            thread.start()
        }
    }
}
