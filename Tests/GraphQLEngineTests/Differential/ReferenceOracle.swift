import Foundation

/// Runs graphql-js (Debian's node-graphql, through `scripts/reference/graphql-js-oracle.js`)
/// over a batch of documents: for each, its printed form or its first error.
struct ReferenceOracle {
    struct Outcome: Decodable {
        var ok: Bool
        var printed: String?
        var message: String?
        var line: Int?
        var column: Int?
    }

    struct Batch: Decodable {
        var version: String
        var results: [Outcome]
    }

    let node: URL
    let script: URL

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The oracle, or nil when node or graphql-js is missing (with the reason).
    static func find() -> (oracle: ReferenceOracle?, reason: String) {
        let script = repositoryRoot.appendingPathComponent("scripts/reference/graphql-js-oracle.js")
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let node = (path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("node") }
            + [URL(fileURLWithPath: "/usr/bin/node")])
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        guard let node else { return (nil, "node is not installed (apt-get install -y nodejs node-graphql)") }
        let oracle = ReferenceOracle(node: node, script: script)
        do {
            _ = try oracle.run(["{ a }"])
            return (oracle, "")
        } catch {
            return (nil, "graphql-js is not usable: \(error) (apt-get install -y node-graphql)")
        }
    }

    func run(_ documents: [String]) throws -> Batch {
        try JSONDecoder().decode(Batch.self, from: runScript(script, input: JSONEncoder().encode(documents)))
    }

    /// Runs one of the reference scripts with `input` on stdin and returns its stdout.
    func runScript(_ script: URL, input payload: Data) throws -> Data {
        let process = Process()
        process.executableURL = node
        process.arguments = [script.path]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read on GCD threads so neither side blocks on a full pipe.
        let outputBox = ResultBox()
        let errorBox = ResultBox()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { outputBox.set(output.fileHandleForReading.readDataToEndOfFile()) }
        DispatchQueue.global().async(group: group) { errorBox.set(errors.fileHandleForReading.readDataToEndOfFile()) }
        try input.fileHandleForWriting.write(contentsOf: payload)
        try input.fileHandleForWriting.close()
        group.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let errorText = String(decoding: errorBox.data, as: UTF8.self)
            throw OracleError(description: "graphql-js oracle exited \(process.terminationStatus): \(errorText)")
        }
        return outputBox.data
    }

    struct OracleError: Error, CustomStringConvertible {
        var description: String
    }
}

private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = Data()
    func set(_ data: Data) { lock.withLock { stored = data } }
    var data: Data { lock.withLock { stored } }
}
