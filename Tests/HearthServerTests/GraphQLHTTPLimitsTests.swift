import Foundation
import GraphQLEngine
import HearthServer
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

/// `/graphql`'s execution timeout and error masking, over real HTTP with resolvers of the test's
/// own (one sleeps, one fails with an internal error).
@Suite struct GraphQLHTTPLimitsTests {
    /// Log lines with their metadata, as the server wrote them.
    final class CapturedLog: Sendable {
        let lines = Mutex<[String]>([])

        var logger: Logger {
            Logger(label: "test") { _ in Handler(log: self) }
        }

        struct Handler: LogHandler {
            let log: CapturedLog
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) {
                let all = metadata.merging(event.metadata ?? [:]) { $1 }
                let fields = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                log.lines.withLock { $0.append("\(event.level) \(event.message) \(fields)") }
            }
        }
    }

    struct Secret: Error {}

    static func withServer(
        timeout: Duration, log: CapturedLog, configuration: ExecutorConfiguration = ExecutorConfiguration(), _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        var resolvers = Resolvers()
        resolvers.field("Query.slow") { _ in
            try await Task.sleep(for: .seconds(20))
            return .int(1)
        }
        resolvers.field("Query.broken") { _ throws -> Resolved in throw Secret() }
        resolvers.field("Query.fine") { _ in .int(1) }
        let schema = try SchemaBuilder.build(sdl: "type Query { slow: Int, broken: Int, fine: Int }")
        var configuration = configuration
        configuration.executionTimeout = timeout
        let executor = HearthGraphQLSchema.executor(
            try ExecutableSchema(schema, resolvers: resolvers), logger: log.logger, configuration: configuration)
        let router = Router()
        GraphQLController(executor: executor).addRoutes(to: router)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: log.logger)
        try await app.test(.live) { client in try await body(client) }
    }

    static func post(_ client: any TestClientProtocol, _ body: String, accept: String) async throws -> TestResponse {
        try await client.execute(
            uri: "/graphql", method: .post, headers: [.contentType: "application/json", .accept: accept],
            body: ByteBuffer(string: body))
    }

    @Test func aRequestPastTheTimeoutIsStopped() async throws {
        let log = CapturedLog()
        try await Self.withServer(timeout: .milliseconds(200), log: log) { client in
            let started = ContinuousClock.now
            let modern = try await Self.post(client, #"{"query":"{ slow fine }"}"#, accept: "application/graphql-response+json")
            #expect(ContinuousClock.now - started < .seconds(10), "the sleeping resolver was cancelled")
            #expect(modern.status == .serviceUnavailable)
            #expect(String(buffer: modern.body).contains(#""code":"TIMEOUT""#))
            let legacy = try await Self.post(client, #"{"query":"{ slow }"}"#, accept: "application/json")
            #expect(legacy.status == .ok)
            #expect(String(buffer: legacy.body).contains(#""code":"TIMEOUT""#))
        }
        #expect(log.lines.withLock { $0 }.contains { $0.contains("GraphQL request timed out") && $0.contains("hb.request.id=") })
    }

    @Test func internalErrorsAreMaskedAndLoggedWithTheRequestID() async throws {
        let log = CapturedLog()
        try await Self.withServer(timeout: .seconds(30), log: log) { client in
            let response = try await Self.post(client, #"{"query":"{ broken fine }"}"#, accept: "application/graphql-response+json")
            #expect(response.status == .ok)
            let text = String(buffer: response.body)
            #expect(text.contains(#"{"message":"Internal server error","locations":[{"line":1,"column":3}],"path":["broken"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}"#), "\(text)")
            #expect(text.contains(#""data":{"broken":null,"fine":1}"#))
            #expect(!text.contains("Secret"))
        }
        let lines = log.lines.withLock { $0 }
        #expect(lines.contains { $0.contains("resolver failed") && $0.contains("field=Query.broken") && $0.contains("Secret")
            && $0.contains("hb.request.id=") }, "\(lines)")
    }

    @Test func documentsAndOperationsOverTheirLimitsAreRefusedBeforeExecution() async throws {
        var configuration = ExecutorConfiguration()
        configuration.parseOptions = ParseOptions(maxTokens: 100)
        configuration.limits = OperationLimits(maxDepth: 2, maxFields: 5, maxAliases: 2)
        try await Self.withServer(timeout: .seconds(30), log: CapturedLog(), configuration: configuration) { client in
            let many = "{ " + String(repeating: "fine ", count: 120) + "}"
            let cases: [(query: String, status: HTTPResponse.Status, fragment: String)] = [
                (many, .badRequest, #""code":"GRAPHQL_PARSE_FAILED""#),
                // Cost limits are checked like validation rules: 422.
                ("{ a: fine b: fine c: fine }", .unprocessableContent, "uses 3 aliases once fragments are expanded; the maximum is 2."),
                ("{ fine fine fine fine fine fine }", .unprocessableContent, "selects 6 fields once fragments are expanded; the maximum is 5."),
                ("{ __schema { types { fields { name } } } }", .unprocessableContent, "nested 4 levels deep; the maximum is 2."),
            ]
            for (query, status, fragment) in cases {
                let body = #"{"query":"\#(query)"}"#
                let response = try await Self.post(client, body, accept: "application/graphql-response+json")
                let text = String(buffer: response.body)
                #expect(response.status == status, "\(query.prefix(40)): \(text)")
                #expect(text.contains(fragment), "\(query.prefix(40)): \(text)")
                #expect(!text.contains(#""data""#), "nothing executed: \(text)")
                if status == .unprocessableContent { #expect(text.contains(#""code":"QUERY_TOO_COMPLEX""#)) }
            }
        }
    }
}
