/// Bounds on HTTP connections, so malformed, slow or numerous connections cannot hold the server:
/// what arrives must parse (else 400, 431 or 414, then close), a request's head must arrive in time,
/// idle connections close, and past the connection cap new ones get 503.
public struct HTTPConnectionLimits: Sendable, Hashable {
    /// Time a request's head (line and headers) may take from its first byte before the connection
    /// is closed (a client sending headers a byte at a time).
    public var headerTimeout: Duration
    /// A connection with nothing read or written for this long is closed (a new connection that
    /// sends nothing, keep-alive, stalled bodies).
    public var idleTimeout: Duration
    /// Connections served at once; more are answered 503 and closed.
    public var maxConnections: Int
    /// Longest request line (method, URL, version), in bytes (414 past it). Kept below
    /// ``maxHeaderBytes``, which counts the request line too.
    public var maxRequestLineBytes: Int
    /// Largest request line plus headers, in bytes (431 past it).
    public var maxHeaderBytes: Int
    /// Most header fields in one request (431 past it).
    public var maxHeaderCount: Int

    public init(
        headerTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(60), maxConnections: Int = 1_000,
        maxRequestLineBytes: Int = 16 * 1024, maxHeaderBytes: Int = 64 * 1024, maxHeaderCount: Int = 100
    ) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
    }
}
