import Foundation
import GraphQLEngine
import HearthCore
import HearthTestSupport
import HearthServer
import Testing

/// `schema.graphql` at the repository root: it builds with Hearth's scalars, every field is
/// bound, and a schema with an unbound field fails at start-up naming it.
@Suite struct HearthGraphQLSchemaTests {
    /// The repository's schema.graphql (Tests/HearthServerTests/ → two folders up).
    static let schemaURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("schema.graphql")

    /// Services over a pool that is never started, built as `hearth serve` builds them: the fields
    /// these tests run (serverInfo, heartbeat) never reach the database; tests that do use a real one.
    static let offlineServices: HearthServices = {
        // A syntactically valid URL; nothing connects to it.
        let configuration = try! DatabaseConfiguration.parse(url: "postgres://hearth@127.0.0.1:1/none", poolSize: 1)
        return try! HearthRuntime.testing(database: configuration).services
    }()

    static let facts = HearthGraphQLSchema.ServerFacts(
        version: "9.8.7", startedAt: Date(timeIntervalSince1970: 1_795_000_000.125))

    @Test func serverInfoAnswersWithTheVersionAndStartTime() async throws {
        let schema = try HearthGraphQLSchema.load(from: Self.schemaURL, facts: Self.facts, services: Self.offlineServices)
        let response = await Executor(schema.executable).execute(GraphQLRequest(query: "{ serverInfo { version startedAt } }"))
        let json = String(decoding: response.json, as: UTF8.self)
        let startedAt = DateTimeScalar.string(from: Self.facts.startedAt)
        #expect(json == #"{"data":{"serverInfo":{"version":"9.8.7","startedAt":""# + startedAt + #""}}}"#)
        #expect(DateTimeScalar.date(from: startedAt) == Self.facts.startedAt)
    }

    /// The first beats of `heartbeat(intervalSeconds:)`: sequence and time of each.
    static func beats(_ count: Int, every seconds: Int) async throws -> [(sequence: Int, at: Date)] {
        let schema = try HearthGraphQLSchema.load(from: Self.schemaURL, facts: Self.facts, services: Self.offlineServices)
        guard case .stream(let beats) = await Executor(schema.executable).subscribe(
            GraphQLRequest(query: "subscription { heartbeat(intervalSeconds: \(seconds)) { sequence at } }"))
        else { throw CancellationError() }
        var seen: [(sequence: Int, at: Date)] = []
        for try await beat in beats {
            let json = try JSONParser.parse(String(decoding: beat.json, as: UTF8.self), maxDepth: 8)
            guard case .object(let top) = json, case .object(let data)? = top["data"], case .object(let heartbeat)? = data["heartbeat"],
                case .int(let sequence)? = heartbeat["sequence"], case .string(let at)? = heartbeat["at"], let date = DateTimeScalar.date(from: at)
            else { Issue.record("unexpected beat \(json)"); break }
            seen.append((sequence, date))
            if seen.count == count { break }
        }
        return seen
    }

    @Test func heartbeatBeatsAtOnceThenEveryInterval() async throws {
        // With an hour between beats, only a first beat that comes at once lets this finish.
        #expect(try await Self.beats(1, every: 3600).map(\.sequence) == [1])
        let seen = try await Self.beats(2, every: 1)
        #expect(seen.map(\.sequence) == [1, 2])
        // DateTime keeps milliseconds: allow for the rounding.
        #expect(seen.count == 2 && seen[1].at.timeIntervalSince(seen[0].at) >= 0.99, "one beat per interval")
    }

    @Test(arguments: [0, 3601, -5])
    func heartbeatRefusesAnIntervalOutOfRange(seconds: Int) async throws {
        let schema = try HearthGraphQLSchema.load(from: Self.schemaURL, facts: Self.facts, services: Self.offlineServices)
        guard case .response(let response) = await Executor(schema.executable).subscribe(
            GraphQLRequest(query: "subscription { heartbeat(intervalSeconds: \(seconds)) { sequence } }"))
        else { Issue.record("a stream for an interval of \(seconds) s"); return }
        #expect(String(decoding: response.json, as: UTF8.self) == #"{"errors":[{"message":"intervalSeconds must be from 1 to 3600; got \#(seconds).","locations":[{"line":1,"column":16}],"path":["heartbeat"],"extensions":{"code":"BAD_USER_INPUT"}}]}"#)
    }

    @Test func theSchemaDeclaresHearthsScalars() throws {
        let schema = try HearthGraphQLSchema.load(from: Self.schemaURL, facts: Self.facts, services: Self.offlineServices).executable.schema
        for name in ["DateTime", "UUID", "Decimal", "URL", "JSON"] {
            #expect(schema.type(named: name)?.kind == .scalar, "\(name)")
        }
        #expect(schema.type(named: "DateTime")?.specifiedByURL?.contains("rfc3339") == true)
    }

    @Test func anUnboundFieldFailsStartUpNamingIt() {
        let sdl = "type Query { serverInfo: ServerInfo! weather: String } type ServerInfo { version: String! startedAt: String! }"
        #expect {
            try HearthGraphQLSchema(sdl: sdl, facts: Self.facts, services: Self.offlineServices)
        } throws: { error in
            "\(error)".contains("Query.weather")
        }
    }

    @Test func aSchemaErrorFailsStartUpWithItsLocation() {
        #expect {
            try HearthGraphQLSchema(sdl: "type Query { serverInfo: Missing }", name: "broken.graphql", facts: Self.facts, services: Self.offlineServices)
        } throws: { error in
            let text = "\(error)"
            return text.contains("broken.graphql") && text.contains("Unknown type \"Missing\"") && text.contains("1:26")
        }
    }
}
