import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The execution timeout holds on every transport, over real sockets: POST, SSE and WebSocket,
/// for queries and for each subscription event, even when a resolver ignores cancellation.
@Suite struct ExecutionTimeoutTests {
    static let timeout = Duration.seconds(1)

    @Test func overHTTPAndSSE() async throws {
        try await GraphQLSSETests.withServer(executionTimeout: Self.timeout) { client in
            // A resolver that ignores cancellation cannot hold the answer past the deadline.
            let post = try await client.execute(
                uri: "/graphql", method: .post,
                headers: [.contentType: "application/json", .accept: "application/graphql-response+json"],
                body: ByteBuffer(string: #"{"query":"{ stuck }"}"#))
            #expect(post.status == .serviceUnavailable)
            #expect(String(buffer: post.body) == #"{"errors":[{"message":"The request took longer than 1.0 seconds and was stopped.","extensions":{"code":"TIMEOUT"}}]}"#)
            let legacy = try await client.execute(
                uri: "/graphql", method: .post, headers: [.contentType: "application/json", .accept: "application/json"],
                body: ByteBuffer(string: #"{"query":"{ slow }"}"#))
            #expect(legacy.status == .ok && String(buffer: legacy.body).contains(#""code":"TIMEOUT""#))

            // SSE: the query's one event is the timeout, then complete.
            let stream = try await GraphQLSSETests.post(client, #"{"query":"{ stuck }"}"#)
            let text = String(buffer: stream.body)
            #expect(stream.status == .ok)
            #expect(text.hasPrefix("event: next\ndata: {\"errors\":[") && text.contains(#""code":"TIMEOUT""#), "\(text)")
            #expect(text.hasSuffix("event: complete\ndata:\n\n"))

            // Each subscription event's execution has the same deadline.
            let events = try await GraphQLSSETests.post(client, #"{"query":"subscription { slowTicks { value } }"}"#)
            let eventText = String(buffer: events.body)
            #expect(eventText.components(separatedBy: #""code":"TIMEOUT""#).count == 3, "two timed-out events: \(eventText)")
        }
    }

    @Test func overWebSocket() async throws {
        try await GraphQLWebSocketTests.withServer(executionTimeout: Self.timeout) { port in
            try await GraphQLWebSocketTests.connect(port) { reader, outbound in
                try await GraphQLWebSocketTests.send(outbound, #"{"type":"connection_init"}"#)
                #expect(try await reader.next() == #"{"type":"connection_ack"}"#)
                try await GraphQLWebSocketTests.send(outbound, #"{"id":"q","type":"subscribe","payload":{"query":"{ stuck }"}}"#)
                let query = try await reader.next() ?? ""
                #expect(query.hasPrefix(#"{"id":"q","type":"error","payload":[{"message":"The request took longer than"#), "\(query)")
                #expect(query.contains(#""code":"TIMEOUT""#))
                try await GraphQLWebSocketTests.send(
                    outbound, #"{"id":"s","type":"subscribe","payload":{"query":"subscription { slowTicks { value } }"}}"#)
                let first = try await reader.next() ?? ""
                #expect(first.hasPrefix(#"{"id":"s","type":"next","payload":{"errors":[{"message":"The request took longer than"#), "\(first)")
                #expect(first.contains(#""code":"TIMEOUT""#))
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
    }
}
