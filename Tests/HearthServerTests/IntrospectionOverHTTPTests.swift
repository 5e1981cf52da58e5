import Foundation
import HearthServer
import Testing

/// graphql-core (the Python port of graphql-js) introspects a running Hearth over HTTP with
/// every option on, rebuilds the schema from the answer and prints it as it prints schema.graphql.
@Suite struct IntrospectionOverHTTPTests {
    static let script = HearthGraphQLSchemaTests.schemaURL.deletingLastPathComponent()
        .appendingPathComponent("scripts/reference/introspection-roundtrip.py")
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"
    static let hasGraphQLCore = ChildProcess.succeeds("/usr/bin/env", ["python3", "-c", "import graphql"])

    @Test(
        "graphql-core's introspection over HTTP rebuilds schema.graphql",
        .enabled(if: hasGraphQLCore || isCI, "SKIPPED: needs python3 with graphql-core (pip install graphql-core)"))
    func roundTrip() async throws {
        try #require(Self.hasGraphQLCore, "python3 with graphql-core is missing (pip install graphql-core)")
        try await GraphQLHTTPTests.withServer { client in
            let port = try #require(client.port)
            let result = try await ChildProcess.run(
                "/usr/bin/env",
                ["python3", Self.script.path, "--url", "http://127.0.0.1:\(port)/graphql", HearthGraphQLSchemaTests.schemaURL.path])
            let verdict = result.text
            #expect(verdict.hasPrefix("equal"), "\(verdict.prefix(3000))")
        }
    }
}
