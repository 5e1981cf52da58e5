import ArgumentParser
import HearthServer

/// `hearth serve`'s bounds on HTTP connections: each an option or an environment variable.
struct HTTPOptions: ParsableArguments {
    @Option(name: .customLong("http-header-timeout"), help: "Seconds a request's headers may take from their first byte, and its body between two bytes (env HEARTH_HTTP_HEADER_TIMEOUT; default 10).")
    var headerTimeout: Int?

    @Option(name: .customLong("http-idle-timeout"), help: "Seconds a connection may stay idle before it is closed (env HEARTH_HTTP_IDLE_TIMEOUT; default 60).")
    var idleTimeout: Int?

    @Option(name: .customLong("http-max-connections"), help: "Connections served at once; at the cap the oldest one still waiting for a request head is closed for a new one, else 503 (env HEARTH_HTTP_MAX_CONNECTIONS; default 1000).")
    var maxConnections: Int?

    @Option(name: .customLong("http-max-header-bytes"), help: "Largest request line plus headers in bytes; more get 431 (env HEARTH_HTTP_MAX_HEADER_BYTES; default 65536).")
    var maxHeaderBytes: Int?

    @Option(name: .customLong("http-max-headers"), help: "Most header fields in a request; more get 431 (env HEARTH_HTTP_MAX_HEADERS; default 100).")
    var maxHeaders: Int?

    @Option(name: .customLong("http-max-url-bytes"), help: "Longest request line (the URL) in bytes; longer gets 414 (env HEARTH_HTTP_MAX_URL_BYTES; default 16384).")
    var maxURLBytes: Int?

    func resolve(_ env: EnvironmentValue) throws -> HTTPConnectionLimits {
        let defaults = HTTPConnectionLimits()
        return HTTPConnectionLimits(
            headerTimeout: .seconds(try env.integer(headerTimeout, "HEARTH_HTTP_HEADER_TIMEOUT", range: 1...3_600) ?? 10),
            idleTimeout: .seconds(try env.integer(idleTimeout, "HEARTH_HTTP_IDLE_TIMEOUT", range: 1...86_400) ?? 60),
            maxConnections: try env.integer(maxConnections, "HEARTH_HTTP_MAX_CONNECTIONS", range: 1...1_000_000) ?? defaults.maxConnections,
            maxRequestLineBytes: try env.integer(maxURLBytes, "HEARTH_HTTP_MAX_URL_BYTES", range: 256...(1 << 20)) ?? defaults.maxRequestLineBytes,
            maxHeaderBytes: try env.integer(maxHeaderBytes, "HEARTH_HTTP_MAX_HEADER_BYTES", range: 1_024...(1 << 24)) ?? defaults.maxHeaderBytes,
            maxHeaderCount: try env.integer(maxHeaders, "HEARTH_HTTP_MAX_HEADERS", range: 8...10_000) ?? defaults.maxHeaderCount)
    }
}
