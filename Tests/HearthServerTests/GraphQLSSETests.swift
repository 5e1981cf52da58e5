import Foundation
import GraphQLEngine
import HearthServer
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// Subscriptions (and single results) over server-sent events: graphql-sse's distinct
/// connections mode, over real HTTP on 127.0.0.1.
@Suite struct GraphQLSSETests {
    static func withServer(
        executionTimeout: Duration? = nil, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let executor = try TestSubscriptionSchema.executor(timeout: executionTimeout)
        let router = Router()
        GraphQLController(executor: executor).addRoutes(to: router)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: Logger(label: "test"))
        try await app.test(.live) { client in try await body(client) }
    }

    static func post(_ client: any TestClientProtocol, _ body: String) async throws -> TestResponse {
        try await client.execute(
            uri: "/graphql", method: .post, headers: [.contentType: "application/json", .accept: "text/event-stream"],
            body: ByteBuffer(string: body))
    }

    @Test func aSubscriptionStreamsEachEventThenCompletes() async throws {
        try await Self.withServer { client in
            let response = try await Self.post(client, #"{"query":"subscription { count(to: 3) }"}"#)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/event-stream; charset=utf-8")
            #expect(String(buffer: response.body) == """
                event: next
                data: {"data":{"count":1}}

                event: next
                data: {"data":{"count":2}}

                event: next
                data: {"data":{"count":3}}

                event: complete
                data:


                """)
        }
    }

    @Test func aQueryIsOneEvent() async throws {
        try await Self.withServer { client in
            let response = try await Self.post(client, #"{"query":"{ hello }"}"#)
            #expect(String(buffer: response.body) == "event: next\ndata: {\"data\":{\"hello\":\"world\"}}\n\nevent: complete\ndata:\n\n")
        }
    }

    /// graphql-sse: errors found before execution (syntax, validation, variables, operation name)
    /// come through the accepted stream as one `next` event with the GraphQL response, then
    /// `complete`, with status 200; requests that never reach GraphQL keep their HTTP status.
    @Test func aRefusedRequestIsANextEventThenComplete() async throws {
        try await Self.withServer { client in
            let cases: [(body: String, code: String)] = [
                (#"{"query":"subscription { nope }"}"#, "GRAPHQL_VALIDATION_FAILED"),
                (#"{"query":"subscription { count(to: 3) "}"#, "GRAPHQL_PARSE_FAILED"),
                (#"{"query":"subscription ($n: Int!) { count(to: $n) }"}"#, "BAD_USER_INPUT"),
                (#"{"query":"subscription A { count(to: 1) }","operationName":"B"}"#, "OPERATION_RESOLUTION_FAILURE"),
            ]
            for item in cases {
                let response = try await Self.post(client, item.body)
                #expect(response.status == .ok, "\(item.body)")
                #expect(response.headers[.contentType] == "text/event-stream; charset=utf-8")
                let text = String(buffer: response.body)
                let events = text.components(separatedBy: "\n\n").filter { !$0.isEmpty }
                #expect(events.count == 2, "\(text)")
                #expect(events.first?.hasPrefix("event: next\ndata: {\"errors\":[") == true, "\(text)")
                #expect(events.first?.contains(#""code":"\#(item.code)""#) == true, "\(item.code) in \(text)")
                #expect(events.last == "event: complete\ndata:", "\(text)")
            }
            // Requests that never reach GraphQL keep their status.
            let badJSON = try await Self.post(client, "{nope")
            #expect(badJSON.status == .badRequest)
            #expect(badJSON.headers[.contentType] == "application/graphql-response+json; charset=utf-8")
            let wrongType = try await client.execute(
                uri: "/graphql", method: .post, headers: [.contentType: "text/plain", .accept: "text/event-stream"],
                body: ByteBuffer(string: #"{"query":"{ hello }"}"#))
            #expect(wrongType.status == .unsupportedMediaType)
        }
    }

    @Test func aFailingSourceEndsWithAnErrorEvent() async throws {
        try await Self.withServer { client in
            let response = try await Self.post(client, #"{"query":"subscription { count(to: -1) }"}"#)
            let text = String(buffer: response.body)
            #expect(text.hasPrefix("event: next\ndata: {\"data\":{\"count\":1}}\n\n"), "\(text)")
            #expect(text.contains(#"event: next\#ndata: {"errors":[{"message":"Internal server error","extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}"#), "\(text)")
            #expect(text.hasSuffix("event: complete\ndata:\n\n"))
            #expect(!text.contains("SourceFailure"))
        }
    }
}
