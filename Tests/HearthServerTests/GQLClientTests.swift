import Foundation
import HearthServer
import Testing

/// Python's `gql` client (PyPI), unconfigured for Hearth, against a running server with
/// schema.graphql: a query and an introspection-based schema fetch over HTTP, a form-encoded
/// (`+` for spaces) GET through `requests`, a query and a
/// `heartbeat` subscription over WebSocket (graphql-transport-ws). `make test` installs gql into
/// `.build/python-gql` (its graphql-core 3.3 would replace the 3.2 the reference tests use).
@Suite struct GQLClientTests {
    static let root = HearthGraphQLSchemaTests.schemaURL.deletingLastPathComponent()
    static let script = root.appendingPathComponent("scripts/clients/gql-client.py")
    /// The interpreter with gql installed; `HEARTH_GQL_PYTHON` overrides it.
    static let python = ProcessInfo.processInfo.environment["HEARTH_GQL_PYTHON"]
        ?? root.appendingPathComponent(".build/python-gql/bin/python").path
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"
    static let hasGQL = ChildProcess.succeeds(python, ["-c", "import gql, requests, websockets"])

    @Test(
        "gql queries, fetches the schema and subscribes over HTTP and WebSocket",
        .enabled(if: hasGQL || isCI, "SKIPPED: needs gql in .build/python-gql (make test installs it)"))
    func gqlWorksUnconfigured() async throws {
        try #require(Self.hasGQL, "gql is missing from \(Self.python) (make test installs it)")
        try await GraphQLHTTPTests.withServer { client in
            let port = try #require(client.port)
            let result = try await ChildProcess.run(Self.python, [Self.script.path, "http://127.0.0.1:\(port)/graphql"])
            let (data, text) = (result.stdout, result.text)
            #expect(result.status == 0, "\(text.prefix(3000))")
            let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(text.prefix(3000))")
            let http = try #require(report["http"] as? [String: Any])
            let websocket = try #require(report["websocket"] as? [String: Any])
            // GET with form encoding (`+` for spaces) as `requests` sends it.
            let get = try #require(report["get"] as? [String: Any], "\(text.prefix(3000))")
            #expect(get["version"] as? String == HearthGraphQLSchemaTests.facts.version)
            #expect((get["url"] as? String)?.contains("query=query+Info%28%24v%3A+Boolean%21%29+") == true, "\(get)")
            #expect(http["version"] as? String == HearthGraphQLSchemaTests.facts.version)
            #expect(http["startedAt"] as? String == DateTimeScalar.string(from: HearthGraphQLSchemaTests.facts.startedAt))
            #expect(http["refusedLocally"] as? String == "Cannot query field 'uptime' on type 'ServerInfo'.")
            #expect(websocket["subprotocol"] as? String == "graphql-transport-ws")
            let beats = try #require(websocket["beats"] as? [[String: Any]])
            #expect(beats.compactMap { $0["sequence"] as? Int } == [1, 2])
            #expect(beats.allSatisfy { ($0["at"] as? String).flatMap(DateTimeScalar.date(from:)) != nil })
        }
    }
}
