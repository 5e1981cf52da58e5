/// Limits of GraphQL over WebSocket (`graphql-transport-ws`).
public struct GraphQLWebSocketConfiguration: Sendable {
    /// How long a client may take to send `connection_init` (then 4408); default 10 s.
    public var initTimeout: Duration
    /// The largest message accepted (larger ones close the socket: 1009); default 1 MiB.
    public var maxMessageBytes: Int
    /// Subscriptions one connection may run at once; default 100.
    public var maxSubscriptions: Int

    public init(initTimeout: Duration = .seconds(10), maxMessageBytes: Int = 1 << 20, maxSubscriptions: Int = 100) {
        self.initTimeout = initTimeout
        self.maxMessageBytes = maxMessageBytes
        self.maxSubscriptions = maxSubscriptions
    }
}
