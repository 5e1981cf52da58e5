import HearthCore
import Logging
import NIOCore

/// What every resolver of one HTTP request or WebSocket operation can reach (the engine's
/// `context`). Per-request DataLoaders live in the engine's request scope, made per execution.
public struct GraphQLRequestContext: Sendable {
    /// The request's logger; its metadata carries the request id.
    public var logger: Logger
    /// The client's socket address, when known.
    public var peer: SocketAddress?
    /// Who sent the request, established from its bearer token.
    public var identity: Identity
    /// The client's User-Agent, the default device name of a new session.
    public var userAgent: String?
    /// Builds the signed-in person's ``Caller`` for the services (``FieldInput/caller()``).
    public var callers: Authenticator.Resolve
    /// The address the client reached Hearth at (`https://home.example:8443`), from the request's
    /// Host, for links it answers with (a calendar feed's); nil when unknown.
    public var origin: String?

    public init(logger: Logger, peer: SocketAddress? = nil, identity: Identity = .anonymous, userAgent: String? = nil,
                callers: @escaping Authenticator.Resolve = Authenticator.noAccounts.caller, origin: String? = nil) {
        self.logger = logger
        self.peer = peer
        self.identity = identity
        self.userAgent = userAgent
        self.callers = callers
        self.origin = origin
    }

    /// The id returned in `X-Request-Id` (for a WebSocket, the upgrade request's), from the logger.
    public var requestID: String { logger[metadataKey: "hb.request.id"]?.description ?? "-" }

    /// The client's address without the port (`127.0.0.1`, `::1`), when known; made only when asked.
    public var clientAddress: String? { peer?.hostDescription }
}
