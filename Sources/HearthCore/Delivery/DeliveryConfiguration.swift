import Foundation

/// How notifications leave Hearth: the VAPID contact, the public address used in links, retry
/// and lease timing, request limits, the hosts let through the private-address guard, and the
/// key that seals stored secrets.
public struct DeliveryConfiguration: Sendable {
    /// A `mailto:` or `https:` contact for push services; Web Push needs one (nil: subscriptions are refused).
    public var vapidSubject: String?
    /// Where people reach this Hearth (`--public-url`), for the links in notifications.
    public var publicURL: URL?
    /// The first retry's delay, doubled per attempt up to an hour (default 30 s).
    public var retryBase: Duration
    /// How long one instance holds a claimed delivery (default 60 s).
    public var lease: Duration
    /// How long one request may take (default 10 s).
    public var requestTimeout: Duration
    /// The most of a receiver's answer that is read (64 KiB).
    public var maximumResponseBytes: Int
    /// Hosts (names or IP literals) let through the private-address guard: a LAN ntfy, Home Assistant.
    public var allowedHosts: [String]
    /// How channel hosts are resolved (the system's resolver unless a test gives its own).
    public var resolver: any HostResolver
    /// Seals webhook secrets, ntfy tokens and the VAPID key; channels that need a secret are refused without it.
    public var secrets: SecretBox?
    /// Names this instance in delivery leases.
    public var instanceID: String

    public init(vapidSubject: String? = nil, publicURL: URL? = nil, retryBase: Duration = .seconds(30), lease: Duration = .seconds(60),
                requestTimeout: Duration = .seconds(10), maximumResponseBytes: Int = 64 << 10, allowedHosts: [String] = [],
                resolver: any HostResolver = SystemHostResolver(), secrets: SecretBox? = nil,
                instanceID: String = "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))") {
        self.vapidSubject = vapidSubject
        self.publicURL = publicURL
        self.retryBase = retryBase
        self.lease = lease
        self.requestTimeout = requestTimeout
        self.maximumResponseBytes = maximumResponseBytes
        self.allowedHosts = allowedHosts.map { $0.lowercased() }
        self.resolver = resolver
        self.secrets = secrets
        self.instanceID = instanceID
    }

    /// Whether `host` skips the private-address guard.
    func allows(_ host: String) -> Bool {
        allowedHosts.contains(Self.bare(host).lowercased())
    }

    /// A URL's host without the brackets of an IPv6 literal (`[::1]` → `::1`).
    static func bare(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}
