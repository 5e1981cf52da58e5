import Foundation

/// How the stores service syncs and keeps what it finds.
public struct StoresConfiguration: Sendable {
    /// How often every store is synced by the background loop (default 60 min).
    public var syncInterval: Duration
    /// The shortest time between two syncs of one store (default 60 s).
    public var minimumSyncSpacing: Duration
    /// How long a claimed store stays claimed by an instance that stopped answering (default 10 min).
    public var leaseDuration: Duration
    /// Stores one instance syncs at once (default 4).
    public var concurrency: Int
    /// How long the loop sleeps when no store is due (default 15 s).
    public var pollInterval: Duration
    /// The first back-off after a failure, doubled per further failure (default 5 min)…
    public var initialBackoff: Duration
    /// …up to this (default 24 h).
    public var maximumBackoff: Duration
    /// Price snapshots older than this are deleted (default 90 days).
    public var snapshotRetention: Duration
    /// How long store reads stay cached (default 5 min).
    public var cacheTTL: Duration
    /// Names this instance in leases; unique per process by default.
    public var instanceID: String

    public init(syncInterval: Duration = .seconds(3600), minimumSyncSpacing: Duration = .seconds(60), leaseDuration: Duration = .seconds(600),
                concurrency: Int = 4, pollInterval: Duration = .seconds(15), initialBackoff: Duration = .seconds(300),
                maximumBackoff: Duration = .seconds(86_400), snapshotRetention: Duration = .seconds(90 * 86_400),
                cacheTTL: Duration = .seconds(300), instanceID: String = "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))") {
        self.syncInterval = syncInterval
        self.minimumSyncSpacing = minimumSyncSpacing
        self.leaseDuration = leaseDuration
        self.concurrency = concurrency
        self.pollInterval = pollInterval
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.snapshotRetention = snapshotRetention
        self.cacheTTL = cacheTTL
        self.instanceID = instanceID
    }

    /// The wait before retrying after `failures` consecutive failures (1 = the first).
    func backoff(failures: Int, retryAfter: Double?) -> TimeInterval {
        let doubling = min(max(failures - 1, 0), 30)
        let exponential = min(initialBackoff.seconds * pow(2, Double(doubling)), maximumBackoff.seconds)
        return min(max(exponential, retryAfter ?? 0), maximumBackoff.seconds)
    }
}

extension Duration {
    /// The duration in (fractional) seconds.
    var seconds: TimeInterval {
        TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
    }
}
