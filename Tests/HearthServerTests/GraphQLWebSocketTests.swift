import Foundation
import GraphQLEngine
import HearthCore
import HearthServer
import HearthTestSupport
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import Logging
import Synchronization
import Testing

/// GraphQL over WebSocket (`graphql-transport-ws`) against a real server on 127.0.0.1, with a
/// client from hummingbird-websocket: the happy path, ping/pong, completing from either side,
/// and each close code.
@Suite struct GraphQLWebSocketTests {
    /// Runs `body` with the server's port.
    static func withServer(
        initTimeout: Duration = .seconds(10), maxSubscriptions: Int = 100, maxMessageBytes: Int = 1 << 20,
        authenticator: Authenticator = .noAccounts, executionTimeout: Duration? = nil, onTicksEnded: (@Sendable () -> Void)? = nil,
        _ body: @escaping @Sendable (Int) async throws -> Void
    ) async throws {
        try await withTestDatabase { database, _ throws in
            let migrator = Migrator(
                migrations: try Migration.load(from: TestPostgres.migrationsDirectory), logger: TestPostgres.logger)
            let app = buildApplication(
                configuration: .init(
                    host: "127.0.0.1", port: 0,
                    webSocket: GraphQLWebSocketConfiguration(
                        initTimeout: initTimeout, maxMessageBytes: maxMessageBytes, maxSubscriptions: maxSubscriptions)),
                dependencies: HearthDependencies(
                    database: database, migrator: migrator, health: HealthRegistry([database]), metrics: TestMetrics.registry,
                    graphQL: try TestSubscriptionSchema.executor(timeout: executionTimeout, onTicksEnded: onTicksEnded), authenticator: authenticator),
                logger: TestPostgres.logger)
            try await app.test(.live) { client in try await body(try #require(client.port)) }
        }
    }

    /// Connects with the subprotocol (unless `subprotocol` is nil), runs `script` with a message
    /// reader and the writer, and returns the close frame the server sent, if any.
    @discardableResult
    static func connect(
        _ port: Int, subprotocol: String? = "graphql-transport-ws", authorization: String? = nil,
        _ script: @escaping @Sendable (Reader, WebSocketOutboundWriter) async throws -> Void
    ) async throws -> WebSocketCloseFrame? {
        var headers: HTTPFields = [:]
        if let subprotocol { headers[.secWebSocketProtocol] = subprotocol }
        if let authorization { headers[.authorization] = authorization }
        return try await WebSocketClient.connect(
            url: "ws://127.0.0.1:\(port)/graphql", configuration: .init(additionalHeaders: headers), logger: Logger(label: "ws-test")
        ) { inbound, outbound, _ in
            try await script(Reader(iterator: inbound.messages(maxSize: 1 << 20).makeAsyncIterator()), outbound)
        }
    }

    /// Reads text messages one at a time.
    final class Reader: @unchecked Sendable {
        var iterator: WebSocketInboundMessageStream.AsyncIterator
        init(iterator: WebSocketInboundMessageStream.AsyncIterator) { self.iterator = iterator }

        /// The next message as text; nil when the server closed.
        func next() async throws -> String? {
            guard let message = try await iterator.next() else { return nil }
            if case .text(let text) = message { return text }
            return "<binary>"
        }

        /// Reads until the server closes; returns what came before.
        func rest() async throws -> [String] {
            var messages: [String] = []
            while let message = try await next() { messages.append(message) }
            return messages
        }
    }

    static func send(_ outbound: WebSocketOutboundWriter, _ text: String) async throws {
        try await outbound.write(.text(text))
    }

    @Test func initSubscribeQueryAndPing() async throws {
        try await Self.withServer { port in
            let frame = try await Self.connect(port) { reader, outbound in
                try await Self.send(outbound, #"{"type":"connection_init","payload":{}}"#)
                #expect(try await reader.next() == #"{"type":"connection_ack"}"#)
                try await Self.send(outbound, #"{"type":"ping"}"#)
                #expect(try await reader.next() == #"{"type":"pong"}"#)
                try await Self.send(outbound, #"{"id":"1","type":"subscribe","payload":{"query":"subscription { count(to: 3) }"}}"#)
                #expect(try await reader.next() == #"{"id":"1","type":"next","payload":{"data":{"count":1}}}"#)
                #expect(try await reader.next() == #"{"id":"1","type":"next","payload":{"data":{"count":2}}}"#)
                #expect(try await reader.next() == #"{"id":"1","type":"next","payload":{"data":{"count":3}}}"#)
                #expect(try await reader.next() == #"{"id":"1","type":"complete"}"#)
                try await Self.send(outbound, #"{"id":"2","type":"subscribe","payload":{"query":"{ hello }"}}"#)
                #expect(try await reader.next() == #"{"id":"2","type":"next","payload":{"data":{"hello":"world"}}}"#)
                #expect(try await reader.next() == #"{"id":"2","type":"complete"}"#)
                try await Self.send(outbound, #"{"id":"3","type":"subscribe","payload":{"query":"{ nope }"}}"#)
                let error = try await reader.next() ?? ""
                #expect(error.hasPrefix(#"{"id":"3","type":"error","payload":[{"message":"Cannot query field \"nope\" on type \"Query\".""#), "\(error)")
                try await outbound.close(.normalClosure, reason: nil)
            }
            #expect(frame?.closeCode == .normalClosure)
        }
    }

    @Test func completingFromTheClientStopsTheSource() async throws {
        let (ticksEnded, tickSourceEnded) = AsyncStream.makeStream(of: Void.self)
        try await Self.withServer(onTicksEnded: { tickSourceEnded.yield() }) { port in
            try await Self.connect(port) { reader, outbound in
                try await Self.send(outbound, #"{"type":"connection_init"}"#)
                _ = try await reader.next()
                try await Self.send(outbound, #"{"id":"t","type":"subscribe","payload":{"query":"subscription { ticks }"}}"#)
                #expect(try await reader.next() == #"{"id":"t","type":"next","payload":{"data":{"ticks":1}}}"#)
                try await Self.send(outbound, #"{"id":"t","type":"complete"}"#)
                // The same id may be used again once completed.
                try await Self.send(outbound, #"{"id":"t","type":"subscribe","payload":{"query":"{ hello }"}}"#)
                var seen: [String] = []
                while let message = try await reader.next() {
                    seen.append(message)
                    if message.contains("world") { break }
                }
                #expect(seen.last == #"{"id":"t","type":"next","payload":{"data":{"hello":"world"}}}"#, "\(seen)")
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        // The source's end is the event; 5 s only bounds the wait.
        let ended = try? await withTimeout(.seconds(5)) { await ticksEnded.first { _ in true } != nil }
        #expect(ended == true, "the source's termination handler ran")
    }

    @Test(arguments: [
        (#"{"id":"1","type":"subscribe","payload":{"query":"{ hello }"}}"#, false, 4401, "Unauthorized"),
        (#"{"type":"connection_init"}"#, true, 4429, "Too many initialisation requests"),
        (#"not json"#, true, 4400, "Invalid message received"),
        (#"{"type":"launch"}"#, true, 4400, "Invalid message received: unknown type launch"),
        (#"{"id":"1","type":"subscribe"}"#, true, 4400, "Invalid message received: subscribe needs an id and a payload with a query"),
    ])
    func protocolViolationsCloseWithTheirCodes(message: String, initialise: Bool, code: Int, reason: String) async throws {
        try await Self.withServer { port in
            let frame = try await Self.connect(port) { reader, outbound in
                if initialise {
                    try await Self.send(outbound, #"{"type":"connection_init"}"#)
                    _ = try await reader.next()
                }
                try await Self.send(outbound, message)
                _ = try await reader.rest()
            }
            #expect(frame?.closeCode == .unknown(UInt16(code)))
            #expect(frame?.reason == reason)
        }
    }

    @Test func aDuplicateIDCloses4409() async throws {
        try await Self.withServer { port in
            let frame = try await Self.connect(port) { reader, outbound in
                try await Self.send(outbound, #"{"type":"connection_init"}"#)
                _ = try await reader.next()
                try await Self.send(outbound, #"{"id":"a","type":"subscribe","payload":{"query":"subscription { ticks }"}}"#)
                _ = try await reader.next()
                try await Self.send(outbound, #"{"id":"a","type":"subscribe","payload":{"query":"subscription { ticks }"}}"#)
                _ = try await reader.rest()
            }
            #expect(frame?.closeCode == .unknown(4409))
            #expect(frame?.reason == "Subscriber for a already exists")
        }
    }

    @Test func noInitInTimeCloses4408() async throws {
        try await Self.withServer(initTimeout: .milliseconds(200)) { port in
            let frame = try await Self.connect(port) { reader, _ in _ = try await reader.rest() }
            #expect(frame?.closeCode == .unknown(4408))
            #expect(frame?.reason == "Connection initialisation timeout")
        }
    }

    @Test func withoutTheSubprotocolTheSocketCloses4406() async throws {
        try await Self.withServer { port in
            let frame = try await Self.connect(port, subprotocol: nil) { reader, outbound in
                try await Self.send(outbound, #"{"type":"connection_init"}"#)
                _ = try await reader.rest()
            }
            #expect(frame?.closeCode == .unknown(4406))
            #expect(frame?.reason == "Subprotocol not acceptable")
        }
    }

    @Test func subscriptionsPerConnectionAreLimited() async throws {
        try await Self.withServer(maxSubscriptions: 1) { port in
            try await Self.connect(port) { reader, outbound in
                try await Self.send(outbound, #"{"type":"connection_init"}"#)
                _ = try await reader.next()
                try await Self.send(outbound, #"{"id":"a","type":"subscribe","payload":{"query":"subscription { ticks }"}}"#)
                try await Self.send(outbound, #"{"id":"b","type":"subscribe","payload":{"query":"subscription { ticks }"}}"#)
                var refused: String?
                while let message = try await reader.next() {
                    if message.contains(#""id":"b""#) {
                        refused = message
                        break
                    }
                }
                #expect(refused == #"{"id":"b","type":"error","payload":[{"message":"Too many subscriptions on this connection (at most 1).","extensions":{"code":"TOO_MANY_SUBSCRIPTIONS"}}]}"#)
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
    }

    /// Accepts the token "letmein" only.
    static let oneToken = Authenticator { token in token.value == "letmein" ? .anonymous : nil }

    @Test(arguments: [
        (#"{"type":"connection_init","payload":{"token":"stolen"}}"#, nil),
        (#"{"type":"connection_init","payload":{"Authorization":"Bearer stolen"}}"#, nil),
        (#"{"type":"connection_init","payload":{"token":"not a token"}}"#, nil),
        (#"{"type":"connection_init","payload":{}}"#, "Bearer stolen"),
        (#"{"type":"connection_init"}"#, "Basic dXNlcjpwYXNz"),
    ] as [(String, String?)])
    func aRefusedTokenCloses4403(initMessage: String, header: String?) async throws {
        try await Self.withServer(authenticator: Self.oneToken) { port in
            let frame = try await Self.connect(port, authorization: header) { reader, outbound in
                try await Self.send(outbound, initMessage)
                #expect(try await reader.rest() == [], "no connection_ack")
            }
            #expect(frame?.closeCode == .unknown(4403))
            #expect(frame?.reason == "Forbidden")
        }
    }

    @Test(arguments: [
        (#"{"type":"connection_init","payload":{"token":"letmein"}}"#, nil),
        (#"{"type":"connection_init","payload":{"authorization":"Bearer letmein"}}"#, "Bearer stolen"),
        (#"{"type":"connection_init"}"#, "Bearer letmein"),
        (#"{"type":"connection_init","payload":{"client":"gql"}}"#, nil),
    ] as [(String, String?)])
    func anAcceptedTokenOrNoneIsAcknowledged(initMessage: String, header: String?) async throws {
        try await Self.withServer(authenticator: Self.oneToken) { port in
            try await Self.connect(port, authorization: header) { reader, outbound in
                try await Self.send(outbound, initMessage)
                #expect(try await reader.next() == #"{"type":"connection_ack"}"#)
                try await Self.send(outbound, #"{"id":"1","type":"subscribe","payload":{"query":"{ requestContext }"}}"#)
                #expect(try await reader.next() == #"{"id":"1","type":"next","payload":{"data":{"requestContext":"anonymous from 127.0.0.1, id set"}}}"#)
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
    }

    @Test func aNonObjectInitPayloadCloses4400() async throws {
        try await Self.withServer { port in
            let frame = try await Self.connect(port) { reader, outbound in
                try await Self.send(outbound, #"{"type":"connection_init","payload":"token"}"#)
                _ = try await reader.rest()
            }
            #expect(frame?.closeCode == .unknown(4400))
            #expect(frame?.reason == "Invalid message received: the init payload must be an object")
        }
    }

    @Test func aMessageOverTheLimitCloses1009() async throws {
        try await Self.withServer(maxMessageBytes: 1024) { port in
            let frame = try await Self.connect(port) { reader, outbound in
                try await Self.send(outbound, #"{"type":"connection_init"}"#)
                #expect(try await reader.next() == #"{"type":"connection_ack"}"#)
                let padded = String(repeating: " ", count: 1000)
                // Just under the limit is served; just over closes the connection.
                try await Self.send(outbound, #"{"id":"1","type":"subscribe","payload":{"query":"{ hello }"# + padded.prefix(900) + #""}}"#)
                #expect(try await reader.next() == #"{"id":"1","type":"next","payload":{"data":{"hello":"world"}}}"#)
                #expect(try await reader.next() == #"{"id":"1","type":"complete"}"#)
                try await Self.send(outbound, #"{"id":"2","type":"subscribe","payload":{"query":"{ hello }"# + padded + #""}}"#)
                _ = try await reader.rest()
            }
            #expect(frame?.closeCode == .messageTooLarge)
        }
    }
}
