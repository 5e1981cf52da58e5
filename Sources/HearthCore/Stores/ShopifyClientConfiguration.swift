import Foundation

/// How Hearth fetches stores' product feeds.
public struct ShopifyClientConfiguration: Sendable {
    /// A host the SSRF guard lets through although it is not public, optionally reached at
    /// another origin (`http://127.0.0.1:8123/shops/a`): how tests and a LAN shop are named.
    public struct AllowedHost: Sendable, Equatable {
        public var host: String
        /// Where the feed is fetched instead of `https://<host>`; nil keeps that.
        public var origin: String?

        public init(host: String, origin: String? = nil) {
            self.host = host
            self.origin = origin.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        }

        /// Reads `host` or `host=origin` (the `--store-allow-host` option's form).
        public init(parsing text: String) throws(ServiceError) {
            let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let host = try StoreDomain(parts[0]).host
            var origin: String?
            if parts.count == 2 {
                guard let url = URL(string: parts[1]), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                    throw ServiceError.invalidInput(field: "store-allow-host", message: "\(parts[1]) is not an http(s) origin such as http://127.0.0.1:8123.")
                }
                origin = parts[1]
            }
            self.init(host: host, origin: origin)
        }
    }

    /// Longest wait for one page, headers and body (default 15 s).
    public var requestTimeout: Duration
    /// Largest page accepted, after decompression (default 20 MiB).
    public var maximumPageBytes: Int
    /// Products per page asked for (Shopify caps it at 250).
    public var pageSize: Int
    /// Shopify answers no page beyond page × limit = 25 000.
    public var maximumProducts: Int
    public var userAgent: String
    public var allowedHosts: [AllowedHost]
    /// How store host names are resolved (the system's resolver unless a test gives its own).
    public var resolver: any HostResolver

    public init(requestTimeout: Duration = .seconds(15), maximumPageBytes: Int = 20 << 20, pageSize: Int = 250,
                maximumProducts: Int = 25_000, userAgent: String = "Hearth/1 (self-hosted household price watcher; +https://github.com/hearth)",
                allowedHosts: [AllowedHost] = [], resolver: any HostResolver = SystemHostResolver()) {
        self.requestTimeout = requestTimeout
        self.maximumPageBytes = maximumPageBytes
        self.pageSize = pageSize
        self.maximumProducts = maximumProducts
        self.userAgent = userAgent
        self.allowedHosts = allowedHosts
        self.resolver = resolver
    }

    func allowed(_ host: String) -> AllowedHost? {
        allowedHosts.first { $0.host == host }
    }
}
