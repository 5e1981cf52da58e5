import Logging

/// What every resolver of one HTTP request or WebSocket operation can reach (the engine's
/// `context`). Per-request DataLoaders live in the engine's request scope, made per execution.
public struct GraphQLRequestContext: Sendable {
    /// The request's logger; its metadata carries the request id.
    public var logger: Logger
    /// The id returned in `X-Request-Id` (for a WebSocket, the upgrade request's).
    public var requestID: String
    /// The client's address without the port, when known.
    public var clientAddress: String?
    /// Who sent the request, established from its bearer token.
    public var caller: Caller
    /// The client's User-Agent, the default device name of a new session.
    public var userAgent: String?

    public init(
        logger: Logger, requestID: String? = nil, clientAddress: String? = nil, caller: Caller = .anonymous, userAgent: String? = nil
    ) {
        self.logger = logger
        self.requestID = requestID ?? logger[metadataKey: "hb.request.id"]?.description ?? "-"
        self.clientAddress = clientAddress
        self.caller = caller
        self.userAgent = userAgent
    }
}
