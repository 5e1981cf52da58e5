import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Messages between Hearth instances that share one PostgreSQL: published with `NOTIFY`,
/// received by one `LISTEN` connection per process and handed to the handlers of their topic.
///
/// A service applies its own change locally first, then publishes it; the listener skips the
/// messages this process sent. Notifications are not replayed, so whenever the listener
/// (re)connects the reconnect handlers run (caches flush: anything may have changed unheard).
public final class EventBus: Service, ServiceHealth {
    /// The PostgreSQL channel every instance listens on.
    public static let channel = "hearth_bus"
    /// PostgreSQL refuses payloads of 8000 bytes or more.
    static let maximumPayload = 7_999

    /// How many ids one message carries at most: 150 × 39 bytes stays well under the limit.
    static let idsPerMessage = 150

    /// `ids` in groups of at most ``idsPerMessage``, one message each; one empty group when
    /// there are none (the message goes out all the same).
    static func groups(of ids: [UUID]) -> [[UUID]] {
        guard !ids.isEmpty else { return [[]] }
        return stride(from: 0, to: ids.count, by: idsPerMessage).map { Array(ids[$0..<min($0 + idsPerMessage, ids.count)]) }
    }

    /// Tells this process's messages from the others'.
    public let instanceID = UUID()
    private let client: PostgresClient
    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var handlers: [String: [@Sendable (EventBusMessage) async -> Void]] = [:]
        var reconnectHandlers: [@Sendable () async -> Void] = []
        var listening = false
        var connections = 0
        var received = 0
        var published = 0
        var lastError: String?
    }

    init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// Calls `handler` with every message on `topic` from another instance, in order.
    public func on(_ topic: String, _ handler: @escaping @Sendable (EventBusMessage) async -> Void) {
        state.withLock { $0.handlers[topic, default: []].append(handler) }
    }

    /// Calls `handler` each time the listener connects, before any message is delivered.
    public func onConnect(_ handler: @escaping @Sendable () async -> Void) {
        state.withLock { $0.reconnectHandlers.append(handler) }
    }

    /// Sends `body` on `topic` to every other instance. The change it describes is committed
    /// already, so a failure is logged rather than thrown: the others' caches expire by TTL.
    public func publish(_ topic: String, _ body: some Encodable & Sendable) async {
        let payload: String
        do {
            payload = try EventBusMessage.encode(topic: topic, origin: instanceID, body: body)
        } catch {
            logger.error("event bus message not encodable", metadata: ["topic": "\(topic)", "error": "\(error)"])
            return
        }
        guard payload.utf8.count <= Self.maximumPayload else {
            logger.error("event bus message too large, not sent", metadata: ["topic": "\(topic)", "bytes": "\(payload.utf8.count)"])
            return
        }
        do {
            try await client.query("SELECT pg_notify(\(Self.channel), \(payload))", logger: logger)
            state.withLock { $0.published += 1 }
        } catch {
            logger.warning("event bus message not sent", metadata: ["topic": "\(topic)", "error": "\(ErrorText.oneLine(error))"])
        }
    }

    /// Listens until shutdown, reconnecting with a growing pause (to 30 s) when the connection drops.
    public func run() async {
        await cancelWhenGracefulShutdown { await self.listen() }
    }

    private func listen() async {
        var pause = Duration.milliseconds(250)
        while !Task.isCancelled {
            var connected = false
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        connected = true
                        await self.connected()
                        for try await notification in notifications {
                            await self.deliver(notification.payload)
                        }
                    }
                }
            } catch {
                if Task.isCancelled { break }
                state.withLock { $0.lastError = ErrorText.oneLine(error) }
                logger.warning("event bus listener lost its connection", metadata: ["error": "\(ErrorText.oneLine(error))"])
            }
            state.withLock { $0.listening = false }
            if connected { pause = .milliseconds(250) }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(30))
        }
        state.withLock { $0.listening = false }
    }

    private func connected() async {
        let handlers = state.withLock { state in
            state.listening = true
            state.connections += 1
            state.lastError = nil
            return state.reconnectHandlers
        }
        logger.debug("event bus listening", metadata: ["channel": "\(Self.channel)"])
        for handler in handlers { await handler() }
    }

    private func deliver(_ payload: String) async {
        guard let message = EventBusMessage(payload: payload) else {
            logger.warning("event bus message not understood", metadata: ["payload": "\(payload.prefix(200))"])
            return
        }
        guard message.origin != instanceID else { return }
        let handlers = state.withLock { state in
            state.received += 1
            return state.handlers[message.topic] ?? []
        }
        for handler in handlers { await handler(message) }
    }

    /// Whether the listener is connected now.
    public var isListening: Bool { state.withLock { $0.listening } }

    public var healthName: String { "events" }

    /// Healthy while listening; the counts say how much crossed the bus.
    public func performHealthCheck() async -> ServiceHealthStatus {
        let snapshot = state.withLock { $0 }
        return ServiceHealthStatus(
            isHealthy: snapshot.listening, lastChecked: Date(),
            errors: snapshot.listening ? [] : ["not listening on \(Self.channel)" + (snapshot.lastError.map { ": \($0)" } ?? "")],
            responseTime: .zero,
            details: ["channel": .text(Self.channel), "listening": .bool(snapshot.listening), "connections": .int(snapshot.connections),
                      "received": .int(snapshot.received), "published": .int(snapshot.published)])
    }
}

/// One message on the ``EventBus``: its topic, the instance that sent it, and a JSON body.
public struct EventBusMessage: Sendable {
    public var topic: String
    public var origin: UUID
    /// The whole payload; ``decode(_:)`` reads the body out of it.
    let payload: Data

    private struct Header: Decodable {
        var topic: String
        var origin: UUID
    }

    init?(payload: String) {
        let data = Data(payload.utf8)
        guard let header = try? JSONDecoder().decode(Header.self, from: data) else { return nil }
        self.topic = header.topic
        self.origin = header.origin
        self.payload = data
    }

    static func encode<Body: Encodable>(topic: String, origin: UUID, body: Body) throws -> String {
        String(decoding: try JSONEncoder().encode(EventBusEnvelope(topic: topic, origin: origin, body: body)), as: UTF8.self)
    }

    /// The whole message as `type` (a trigger's message may carry more than the body), or nil
    /// when it is not one.
    public func decodeWhole<Message: Decodable>(_ type: Message.Type) -> Message? {
        try? JSONDecoder().decode(Message.self, from: payload)
    }

    /// The body as `type`, or nil when it is not one (a newer instance's message, say).
    public func decode<Body: Decodable>(_ type: Body.Type) -> Body? {
        try? JSONDecoder().decode(EventBusEnvelope<Body>.self, from: payload).body
    }
}

/// The wire form of a message: `{"topic":…,"origin":…,"body":…}`.
private struct EventBusEnvelope<Body> {
    var topic: String
    var origin: UUID
    var body: Body
}

extension EventBusEnvelope: Encodable where Body: Encodable {}
extension EventBusEnvelope: Decodable where Body: Decodable {}
