import Foundation
import GraphQLEngine
import HearthServer
import Testing

/// `schema.graphql` at the repository root: it builds with Hearth's scalars, every field is
/// bound, and a schema with an unbound field fails at start-up naming it.
@Suite struct HearthGraphQLSchemaTests {
    /// The repository's schema.graphql (Tests/HearthServerTests/ → two folders up).
    static let schemaURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("schema.graphql")

    static let facts = HearthGraphQLSchema.ServerFacts(
        version: "9.8.7", startedAt: Date(timeIntervalSince1970: 1_795_000_000.125))

    @Test func serverInfoAnswersWithTheVersionAndStartTime() async throws {
        let schema = try HearthGraphQLSchema.load(from: Self.schemaURL, facts: Self.facts)
        let response = await Executor(schema.executable).execute(GraphQLRequest(query: "{ serverInfo { version startedAt } }"))
        let json = String(decoding: response.json, as: UTF8.self)
        let startedAt = DateTimeScalar.string(from: Self.facts.startedAt)
        #expect(json == #"{"data":{"serverInfo":{"version":"9.8.7","startedAt":""# + startedAt + #""}}}"#)
        #expect(DateTimeScalar.date(from: startedAt) == Self.facts.startedAt)
    }

    @Test func theSchemaDeclaresHearthsScalars() throws {
        let schema = try HearthGraphQLSchema.load(from: Self.schemaURL, facts: Self.facts).executable.schema
        for name in ["DateTime", "UUID", "Decimal", "URL", "JSON"] {
            #expect(schema.type(named: name)?.kind == .scalar, "\(name)")
        }
        #expect(schema.type(named: "DateTime")?.specifiedByURL?.contains("rfc3339") == true)
    }

    @Test func anUnboundFieldFailsStartUpNamingIt() {
        let sdl = "type Query { serverInfo: ServerInfo! weather: String } type ServerInfo { version: String! startedAt: String! }"
        #expect {
            try HearthGraphQLSchema(sdl: sdl, facts: Self.facts)
        } throws: { error in
            "\(error)".contains("Query.weather")
        }
    }

    @Test func aSchemaErrorFailsStartUpWithItsLocation() {
        #expect {
            try HearthGraphQLSchema(sdl: "type Query { serverInfo: Missing }", name: "broken.graphql", facts: Self.facts)
        } throws: { error in
            let text = "\(error)"
            return text.contains("broken.graphql") && text.contains("Unknown type \"Missing\"") && text.contains("1:26")
        }
    }
}
