import ArgumentParser
import HearthCore

/// `hearth serve`'s store-watching settings: each an option or an environment variable.
struct StoresOptions: ParsableArguments {
    @Option(name: .customLong("sync-interval"),
            help: "Minutes between background syncs of each store (env HEARTH_SYNC_INTERVAL; default 60).")
    var syncInterval: Int?

    @Option(name: .customLong("sync-concurrency"),
            help: "Stores this instance syncs at once (env HEARTH_SYNC_CONCURRENCY; default 4).")
    var concurrency: Int?

    @Option(name: .customLong("snapshot-retention-days"),
            help: "Days price snapshots are kept (env HEARTH_SNAPSHOT_RETENTION_DAYS; default 90).")
    var retentionDays: Int?

    @Option(name: .customLong("sync-retention-days"),
            help: "Days a sync cursor stays valid and deletions are remembered for clients (env HEARTH_SYNC_RETENTION_DAYS; default 30).")
    var syncRetentionDays: Int?

    @Option(name: .customLong("store-request-timeout"),
            help: "Seconds one feed page may take (env HEARTH_STORE_REQUEST_TIMEOUT; default 15).")
    var requestTimeout: Int?

    @Option(name: .customLong("store-allow-host"),
            help: ArgumentHelp("A store host let through the private-address guard, optionally fetched at another origin: host or host=http://127.0.0.1:8123/shops/a (repeatable; env HEARTH_STORE_ALLOW_HOSTS, comma-separated).",
                               valueName: "host[=origin]"))
    var allowHosts: [String] = []

    @Flag(name: .customLong("no-sync-loop"), help: "Do not run the background store sync on this instance (members can still sync by hand).")
    var noSyncLoop = false

    func resolve(_ env: EnvironmentValue) throws -> (stores: StoresConfiguration, client: ShopifyClientConfiguration, loop: Bool, sync: SyncConfiguration) {
        var stores = StoresConfiguration()
        if let minutes = try env.integer(syncInterval, "HEARTH_SYNC_INTERVAL", range: 1...10_080) { stores.syncInterval = .seconds(minutes * 60) }
        if let count = try env.integer(concurrency, "HEARTH_SYNC_CONCURRENCY", range: 1...64) { stores.concurrency = count }
        if let days = try env.integer(retentionDays, "HEARTH_SNAPSHOT_RETENTION_DAYS", range: 1...3650) { stores.snapshotRetention = .seconds(days * 86_400) }
        var client = ShopifyClientConfiguration()
        if let seconds = try env.integer(requestTimeout, "HEARTH_STORE_REQUEST_TIMEOUT", range: 1...300) { client.requestTimeout = .seconds(seconds) }
        let entries = allowHosts.isEmpty
            ? (env.string(nil, "HEARTH_STORE_ALLOW_HOSTS") ?? "").split(separator: ",").map(String.init)
            : allowHosts
        client.allowedHosts = try entries.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.map { entry in
            do {
                return try ShopifyClientConfiguration.AllowedHost(parsing: entry)
            } catch let error as ServiceError {
                throw ValidationError("--store-allow-host \(entry): \(error.message)")
            }
        }
        var sync = SyncConfiguration()
        if let days = try env.integer(syncRetentionDays, "HEARTH_SYNC_RETENTION_DAYS", range: 1...3650) { sync.retentionDays = days }
        return (stores, client, !noSyncLoop, sync)
    }
}
