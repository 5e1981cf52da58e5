/// What the HTTP server listens on and how it guards its admin endpoints.
public struct HearthServerConfiguration: Sendable {
    /// The address to bind; `127.0.0.1` keeps Hearth private to the machine by default.
    public var host: String
    /// The TCP port; 0 picks a free one (tests).
    public var port: Int
    /// The bearer token `/admin/*` requires; `nil` refuses every admin request.
    public var adminToken: String?
    /// The version reported in the `Server` header and health output.
    public var version: String
    /// Limits of `/graphql`.
    public var graphQL: GraphQLHTTPConfiguration
    /// Origins browsers may call Hearth from (CORS); empty turns CORS off, `*` allows any.
    public var corsOrigins: [String]
    /// Limits of GraphQL over WebSocket.
    public var webSocket: GraphQLWebSocketConfiguration
    /// Bounds on HTTP connections: timeouts, header sizes, how many at once.
    public var connections: HTTPConnectionLimits
    /// Limits and trusted origins of `/mcp`.
    public var mcp: MCPConfiguration
    /// The household app served at `/`; without it Hearth serves the API only.
    public var webApp: WebApp?
    /// Serve HTTPS (and WSS) with this pair, reloadable; nil serves plain HTTP.
    public var tls: TLSCertificate?

    public init(
        host: String = "127.0.0.1", port: Int = 8080, adminToken: String? = nil, version: String = HearthVersion.current,
        graphQL: GraphQLHTTPConfiguration = GraphQLHTTPConfiguration(), corsOrigins: [String] = [],
        webSocket: GraphQLWebSocketConfiguration = GraphQLWebSocketConfiguration(),
        connections: HTTPConnectionLimits = HTTPConnectionLimits(), mcp: MCPConfiguration = MCPConfiguration(),
        webApp: WebApp? = nil, tls: TLSCertificate? = nil
    ) {
        self.webApp = webApp
        self.tls = tls
        self.mcp = mcp
        self.connections = connections
        self.host = host
        self.port = port
        self.adminToken = adminToken
        self.version = version
        self.graphQL = graphQL
        self.corsOrigins = corsOrigins
        self.webSocket = webSocket
    }
}

/// Hearth's release version.
public enum HearthVersion {
    public static let current = "0.1.0"
}
