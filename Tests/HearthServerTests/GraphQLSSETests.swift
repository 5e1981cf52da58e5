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
    static func withServer(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let executor = try TestSubscriptionSchema.executor()
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

    @Test func aRefusedRequestIsAnsweredAsAGraphQLResponse() async throws {
        try await Self.withServer { client in
            let invalid = try await Self.post(client, #"{"query":"subscription { nope }"}"#)
            #expect(invalid.status == .unprocessableContent)
            #expect(invalid.headers[.contentType] == "application/graphql-response+json; charset=utf-8")
            #expect(String(buffer: invalid.body).contains("GRAPHQL_VALIDATION_FAILED"))
            let badVariables = try await Self.post(client, #"{"query":"subscription ($n: Int!) { count(to: $n) }"}"#)
            #expect(badVariables.status == .badRequest)
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
