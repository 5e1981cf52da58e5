import Foundation
import Testing

/// Schema-driven fuzzing with Schemathesis (PyPI) against a running server with schema.graphql,
/// anonymous and signed in, with a fixed seed and a small example count (`make fuzz` runs more):
/// no 5xx but TIMEOUT, no INTERNAL_SERVER_ERROR, a code on every error (scripts/fuzz/hearth_hooks.py).
@Suite struct GraphQLFuzzTests {
    static let root = HearthGraphQLSchemaTests.schemaURL.deletingLastPathComponent()
    static let script = root.appendingPathComponent("scripts/fuzz/graphql-fuzz.sh").path
    static let schemathesis = root.appendingPathComponent(".build/python-schemathesis/bin/schemathesis").path
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"
    static let installed = FileManager.default.isExecutableFile(atPath: schemathesis)
    /// Examples per operation and run (62 operations).
    static let examples = ProcessInfo.processInfo.environment["HEARTH_FUZZ_EXAMPLES"] ?? "20"

    @Test(
        "Schemathesis finds no server error, anonymous or signed in",
        .enabled(if: installed || isCI, "SKIPPED: needs Schemathesis in .build/python-schemathesis (make test installs it)"))
    func fuzzFindsNoServerError() async throws {
        try #require(Self.installed, "Schemathesis is missing from .build/python-schemathesis (make test installs it)")
        try await UsersOverHTTPTests.withServer { server in
            let port = try #require(server.client.port)
            let token = try await server.signUp("fuzz@example.org")
            let url = "http://127.0.0.1:\(port)/graphql"
            for (who, arguments) in [("anonymous", [url, Self.examples]), ("signed in", [url, Self.examples, token])] {
                let result = try await ChildProcess.run("/bin/bash", [Self.script] + arguments)
                let text = result.text
                #expect(result.status == 0, "\(who): \(text.suffix(4000))")
                #expect(text.contains(" passed"), "\(who): \(text.suffix(600))")
            }
        }
    }
}
