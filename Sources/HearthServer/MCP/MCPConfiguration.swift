import Foundation

/// Limits and trust of `/mcp`, the assistants' endpoint (MCP over Streamable HTTP).
public struct MCPConfiguration: Sendable {
    /// Origins a browser may call `/mcp` from (DNS-rebinding protection): Hearth's own
    /// (`--public-url`) and `--cors-origins`; a request with any other `Origin` is refused (403),
    /// one without `Origin` (a non-browser host) is served.
    public var allowedOrigins: Set<String>
    /// The largest request body accepted (413 above it).
    public var maxBodyBytes: Int
    /// How long one tool call may run before it answers with a tool error.
    public var callTimeout: Duration
    /// A session unused this long is closed.
    public var sessionIdleTimeout: Duration
    /// Sessions one person may hold at once (the least recently used closes for a new one).
    public var sessionsPerPerson: Int
    /// Sessions this instance holds at once.
    public var maximumSessions: Int
    /// Requests one person may send in a minute (429 with `Retry-After` beyond).
    public var requestsPerMinute: Int

    public init(allowedOrigins: Set<String> = [], maxBodyBytes: Int = 1 << 20, callTimeout: Duration = .seconds(30),
                sessionIdleTimeout: Duration = .seconds(1800), sessionsPerPerson: Int = 10, maximumSessions: Int = 1000,
                requestsPerMinute: Int = 300) {
        self.allowedOrigins = allowedOrigins
        self.maxBodyBytes = maxBodyBytes
        self.callTimeout = callTimeout
        self.sessionIdleTimeout = sessionIdleTimeout
        self.sessionsPerPerson = sessionsPerPerson
        self.maximumSessions = maximumSessions
        self.requestsPerMinute = requestsPerMinute
    }

    /// Whether a browser at `origin` may call `/mcp` (`*` among the origins allows any).
    public func allows(origin: String) -> Bool {
        allowedOrigins.contains("*") || allowedOrigins.contains(origin.lowercased())
    }

    /// `url`'s origin as browsers send it (`scheme://host[:port]`, the port only when not the default).
    public static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        return url.port.map { $0 == defaultPort ? "\(scheme)://\(host)" : "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }
}
