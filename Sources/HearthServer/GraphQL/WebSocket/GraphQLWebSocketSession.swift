import GraphQLEngine
import HearthCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import Synchronization

/// One WebSocket connection speaking `graphql-transport-ws` (the graphql-ws library's protocol):
/// `connection_init` → `connection_ack`; `subscribe` → `next`… `complete` (or `error` for a
/// request refused before execution); `complete` from the client stops a subscription;
/// `ping` → `pong`. Protocol violations close the socket with the protocol's codes: 4400 invalid
/// message, 4401 subscribe before the ack, 4403 a bearer token that is refused, 4408 no init in
/// time, 4409 duplicate id, 4429 a second init. Queries and mutations sent with `subscribe`
/// answer one `next` and `complete`.
///
/// The token is read from the `connection_init` payload (`token`, or `Authorization` as in the
/// header) or else from the upgrade request's `Authorization` header, and checked once per
/// connection: every operation on it runs as that caller.
final class GraphQLWebSocketSession: Sendable {
    static let subprotocol = "graphql-transport-ws"

    let executor: Executor
    let configuration: GraphQLWebSocketConfiguration
    let outbound: WebSocketOutboundWriter
    let logger: Logger
    let authentication: Authentication
    private let state = Mutex(State())

    /// How the connection's caller is established.
    struct Authentication: Sendable {
        var authenticator: Authenticator
        /// The upgrade request's `Authorization` header, used when the init payload has no token.
        var authorizationHeader: String?
        var peer: SocketAddress?
        var userAgent: String?
    }

    struct State {
        var initialised = false
        var identity = Identity.anonymous
        var closed = false
        var subscriptions: [String: Task<Void, Never>] = [:]
    }

    /// Why the connection is being closed: a code of the protocol and its reason.
    struct Closing: Error {
        var code: Int
        var reason: String
    }

    init(
        executor: Executor, configuration: GraphQLWebSocketConfiguration, outbound: WebSocketOutboundWriter, logger: Logger,
        authentication: Authentication = Authentication(authenticator: .noAccounts)
    ) {
        self.executor = executor
        self.configuration = configuration
        self.outbound = outbound
        self.logger = logger
        self.authentication = authentication
    }

    /// Serves the connection until the client leaves or breaks the protocol.
    func run(_ inbound: WebSocketInboundStream) async throws {
        let timeout = Task {
            try? await Task.sleep(for: configuration.initTimeout)
            guard !Task.isCancelled, !state.withLock({ $0.initialised }) else { return }
            await close(Closing(code: 4408, reason: "Connection initialisation timeout"))
        }
        defer {
            timeout.cancel()
            let running = state.withLock { state -> [Task<Void, Never>] in
                state.closed = true
                defer { state.subscriptions.removeAll() }
                return Array(state.subscriptions.values)
            }
            for task in running { task.cancel() }
        }
        do {
            for try await message in inbound.messages(maxSize: configuration.maxMessageBytes) {
                guard case .text(let text) = message else {
                    throw Closing(code: 4400, reason: "Invalid message received: binary messages are not part of the protocol")
                }
                try await handle(text)
            }
        } catch let closing as Closing {
            await close(closing)
        }
    }

    private func handle(_ text: String) async throws {
        guard case .object(let message)? = try? JSONParser.parse(text, maxDepth: 64), case .string(let type)? = message["type"]
        else { throw Closing(code: 4400, reason: "Invalid message received") }
        switch type {
        case "connection_init":
            let first = state.withLock { state in
                defer { state.initialised = true }
                return !state.initialised
            }
            guard first else { throw Closing(code: 4429, reason: "Too many initialisation requests") }
            let identity = try await authenticate(message["payload"])
            state.withLock { $0.identity = identity }
            try await send(#"{"type":"connection_ack"}"#)
        case "ping":
            try await send(#"{"type":"pong"}"#)
        case "pong":
            break
        case "subscribe":
            guard case .string(let id)? = message["id"], !id.isEmpty, case .object(let payload)? = message["payload"],
                case .string(let query)? = payload["query"]
            else { throw Closing(code: 4400, reason: "Invalid message received: subscribe needs an id and a payload with a query") }
            let operationName: String?
            switch payload["operationName"] {
            case .string(let name)?: operationName = name
            case nil, .null?: operationName = nil
            default: throw Closing(code: 4400, reason: "Invalid message received: operationName must be a string")
            }
            let variables: GraphQLObject
            switch payload["variables"] {
            case .object(let object)?: variables = object
            case nil, .null?: variables = GraphQLObject()
            default: throw Closing(code: 4400, reason: "Invalid message received: variables must be an object")
            }
            try await subscribe(id: id, GraphQLRequest(query: query, operationName: operationName, variables: variables))
        case "complete":
            guard case .string(let id)? = message["id"] else { throw Closing(code: 4400, reason: "Invalid message received") }
            state.withLock { $0.subscriptions.removeValue(forKey: id) }?.cancel()
        default:
            throw Closing(code: 4400, reason: "Invalid message received: unknown type \(type.prefix(64))")
        }
    }

    /// The caller named by the init payload's token, or else by the upgrade's header.
    private func authenticate(_ payload: GraphQLValue?) async throws(Closing) -> Identity {
        enum Source { case header(String?), token(String) }
        let source: Source
        switch payload {
        case nil, .null?:
            source = .header(authentication.authorizationHeader)
        case .object(let fields)?:
            switch (fields["token"], fields["Authorization"] ?? fields["authorization"]) {
            case (.string(let value)?, _): source = .token(value)
            case (nil, .string(let header)?): source = .header(header)
            case (nil, nil): source = .header(authentication.authorizationHeader)
            default: throw Closing(code: 4400, reason: "Invalid message received: the init payload's token must be a string")
            }
        default:
            throw Closing(code: 4400, reason: "Invalid message received: the init payload must be an object")
        }
        let token: BearerToken?
        do {
            switch source {
            case .header(let header): token = try BearerToken.parse(authorization: header)
            case .token(let value): token = try BearerToken.parse(token: value)
            }
        } catch {
            logger.info("GraphQL WebSocket refused", metadata: ["reason": "\(error.reason)"])
            throw Closing(code: 4403, reason: "Forbidden")
        }
        do {
            // Bounded like everything else a client waits on (a database outage must not hold it).
            let authenticator = authentication.authenticator
            return try await withTimeout(configuration.initTimeout) { try await authenticator.identity(for: token) }
        } catch let error as AuthenticationError {
            logger.info("GraphQL WebSocket refused", metadata: ["reason": "\(error.reason)"])
            throw Closing(code: 4403, reason: "Forbidden")
        } catch {
            logger.error("cannot authenticate a WebSocket", metadata: ["error": "\(String(reflecting: error))"])
            throw Closing(code: 4500, reason: "Internal server error")
        }
    }

    private func subscribe(id: String, _ request: GraphQLRequest) async throws {
        enum Admission { case unauthorised, duplicate, full, admitted }
        // The task waits for this gate so that it is registered before it can finish.
        let gate = AsyncStream<Void>.makeStream()
        let task = Task { [self] in
            for await _ in gate.stream { break }
            await run(id: id, request)
            state.withLock { _ = $0.subscriptions.removeValue(forKey: id) }
        }
        let admission = state.withLock { state -> Admission in
            guard state.initialised else { return .unauthorised }
            guard state.subscriptions[id] == nil else { return .duplicate }
            guard state.subscriptions.count < configuration.maxSubscriptions else { return .full }
            state.subscriptions[id] = task
            return .admitted
        }
        switch admission {
        case .admitted:
            gate.continuation.yield()
        case .unauthorised, .duplicate, .full:
            task.cancel()
            gate.continuation.finish()
            if admission == .unauthorised { throw Closing(code: 4401, reason: "Unauthorized") }
            if admission == .duplicate { throw Closing(code: 4409, reason: "Subscriber for \(id.prefix(64)) already exists") }
            try await send(message(id: id, type: "error", payload: GraphQLHTTPError(
                .ok, "Too many subscriptions on this connection (at most \(configuration.maxSubscriptions)).",
                code: .tooManySubscriptions).errorsArray))
        }
    }

    /// Executes one operation and sends its results; nothing more once the client completed it.
    private func run(id: String, _ request: GraphQLRequest) async {
        let context = GraphQLRequestContext(
            logger: logger, peer: authentication.peer, identity: state.withLock { $0.identity },
            userAgent: authentication.userAgent, callers: authentication.authenticator.caller)
        do {
            switch await executor.subscribe(request, context: context) {
            case .response(let response):
                if response.refusal != nil {
                    try await send(message(id: id, type: "error", payload: response.errorsJSON))
                    return
                }
                try await send(message(id: id, type: "next", payload: response.json))
            case .stream(let responses):
                guard try await responses.forward(logger: logger, { try await send(message(id: id, type: "next", payload: $0)) })
                else { return }
            }
            guard !Task.isCancelled else { return }
            try await send(#"{"id":"# + Self.jsonString(id) + #","type":"complete"}"#)
        } catch {
            // The socket is gone; the connection's loop ends on its own.
        }
    }

    private func message(id: String, type: String, payload: [UInt8]) -> String {
        #"{"id":"# + Self.jsonString(id) + #","type":""# + type + #"","payload":"# + String(decoding: payload, as: UTF8.self) + "}"
    }

    static func jsonString(_ text: String) -> String {
        var writer = JSONWriter(capacity: text.utf8.count + 2)
        writer.appendString(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private func send(_ text: String) async throws {
        try await outbound.write(.text(text))
    }

    private func close(_ closing: Closing) async {
        let first = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        logger.debug("closing GraphQL WebSocket", metadata: ["code": "\(closing.code)", "reason": "\(closing.reason)"])
        try? await outbound.close(.unknown(UInt16(closing.code)), reason: closing.reason)
    }
}
