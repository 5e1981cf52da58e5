import Foundation
import Logging
import PostgresNIO

/// A store claimed for one sync by this instance (its lease is held).
struct ClaimedStore: Sendable {
    var id: UUID
    var householdID: UUID
    var domain: String
    var name: String
    /// Consecutive failures before this sync (for the back-off if it fails too).
    var failures: Int
    /// Never synced (an imported household's store): its first sync brings the catalog, as adding a
    /// store does, with no changes to report.
    var isFirstSync = false
}

/// What one sync did.
public struct StoreSyncReport: Sendable {
    public var storeID: UUID
    public var pages: Int
    public var products: Int
    /// Products new or changed (written); unchanged ones are skipped.
    public var productsWritten: Int
    public var snapshots: Int
    public var events: Int
    public var notifications: Int
    /// SQL statements the catalog's pages, removals and listing columns took.
    public var statements: Int
    /// The feed failure that ended the sync, if it failed.
    public var error: StoreSyncError?
}

extension StoreService {
    /// Syncs a store now for a member (MEMBER and up), at most once per minimum spacing
    /// (`RATE_LIMITED` with the seconds to wait). A feed failure is not an API error: it is the
    /// store's `syncStatus.lastError`, as for background syncs.
    public func syncStore(_ caller: Caller, id: UUID) async throws -> (store: Store, report: StoreSyncReport) {
        let store = try await readableStore(caller, id)
        try caller.authorize("sync", store.subject)
        let now = clock.now
        let notTooSoon = SQLCondition.predicate([.sql("id = "), .bind(.uuid(id)), .sql(" AND (last_attempt_at IS NULL OR last_attempt_at <= ")]
            + SQLPiece.timestamp(now.addingTimeInterval(-configuration.minimumSyncSpacing.seconds)) + [.sql(")")])
        guard let claimed = try await claim(notTooSoon, now: now).first else {
            let wait = try await secondsUntilSyncAllowed(id, now: now)
            throw ServiceError.rateLimited(retryAfter: wait, message: "This store was synced moments ago; try again in \(wait) seconds.")
        }
        let report = try await sync(claimed)
        return (try await readableStore(caller, id), report)
    }

    private func secondsUntilSyncAllowed(_ id: UUID, now: Date) async throws -> Int {
        let rows = try await database.client.query(
            "SELECT last_attempt_at, lease_expires_at FROM stores WHERE id = \(id)", logger: logger)
        var wait: TimeInterval = 1
        for (attempt, lease) in try await rows.columns(("last_attempt_at", Date?.self), ("lease_expires_at", Date?.self)) {
            if let attempt { wait = max(wait, attempt.addingTimeInterval(configuration.minimumSyncSpacing.seconds).timeIntervalSince(now)) }
            if let lease, lease > now { wait = max(wait, lease.timeIntervalSince(now)) }
        }
        return max(1, Int(wait.rounded(.up)))
    }

    /// Claims up to `limit` stores that are due and not leased, oldest due first; another
    /// instance's claims are skipped (`FOR UPDATE SKIP LOCKED`), expired leases are taken over.
    func claimDue(limit: Int) async throws -> [ClaimedStore] {
        let now = clock.now
        let due = SQLCondition.predicate([.sql("id IN (SELECT id FROM stores WHERE next_sync_at <= ")] + SQLPiece.timestamp(now)
            + [.sql(" AND (lease_expires_at IS NULL OR lease_expires_at < ")] + SQLPiece.timestamp(now)
            + [.sql(") ORDER BY next_sync_at LIMIT "), .bind(.integer(Int64(limit))), .sql(" FOR UPDATE SKIP LOCKED)")])
        return try await claim(due, now: now)
    }

    /// Leases the stores `selection` picks, among those no instance holds now, to this instance.
    private func claim(_ selection: SQLCondition, now: Date) async throws -> [ClaimedStore] {
        let rows = try await database.client.query("""
            UPDATE stores SET lease_owner = \(configuration.instanceID), lease_expires_at = \(now.addingTimeInterval(configuration.leaseDuration.seconds)),
                              last_attempt_at = \(now)
            WHERE (lease_expires_at IS NULL OR lease_expires_at < \(now)) AND \(selection)
            RETURNING id, household_id, domain, name, failure_count, sync_count = 0 AS first
            """, logger: logger)
        var claimed: [ClaimedStore] = []
        for (id, household, domain, name, failures, first) in try await rows.columns(
            ("id", UUID.self), ("household_id", UUID.self), ("domain", String.self), ("name", String.self), ("failure_count", Int.self), ("first", Bool.self)) {
            claimed.append(ClaimedStore(id: id, householdID: household, domain: domain, name: name, failures: failures, isFirstSync: first))
        }
        return claimed
    }

    /// Syncs a claimed store in one transaction: every page's changes, removals, the store's
    /// listing columns and the members' notifications commit together, or — when the feed fails
    /// — nothing but the error (and the back-off) is written. Releases the lease either way.
    func sync(_ claimed: ClaimedStore) async throws -> StoreSyncReport {
        let now = clock.now
        let next = now.addingTimeInterval(configuration.syncInterval.seconds)
        let logger = self.logger
        let client = self.client
        do {
            let domain = try StoreDomain(claimed.domain)
            let currency = try await client.fetchCurrency(domain, logger: logger)
            let (report, changes, notifications) = try await database.transaction(logger: logger) { connection async throws in
                var sync = CatalogSync(storeID: claimed.id, householdID: claimed.householdID, now: now, recordsChanges: !claimed.isFirstSync,
                                       connection: connection, logger: logger)
                let fetched = try await client.fetchCatalog(domain, logger: logger) { page in try await sync.apply(page) }
                try await sync.finish(complete: fetched.complete)
                try await Self.markSynced(claimed.id, now: now, next: next, currency: currency, on: connection, logger: logger)
                let notifications = try await StoreNotifier(store: claimed, now: now, connection: connection, logger: logger)
                    .notifyMembers(of: sync.changes)
                let report = StoreSyncReport(storeID: claimed.id, pages: fetched.pages, products: fetched.products,
                                             productsWritten: sync.productsWritten, snapshots: sync.snapshotsWritten, events: sync.changes.count,
                                             notifications: notifications.count, statements: sync.statements, error: nil)
                return (report, sync.eventIDs, notifications)
            }
            logger.info("store synced", metadata: [
                "store": "\(claimed.id)", "domain": "\(claimed.domain)", "pages": "\(report.pages)", "products": "\(report.products)",
                "written": "\(report.productsWritten)", "events": "\(report.events)", "statements": "\(report.statements)",
            ])
            await vacuumAndAnalyze(afterWriting: report.productsWritten)
            if !changes.isEmpty || !notifications.isEmpty {
                await announce(StoreChangeBatch(householdID: claimed.householdID, storeID: claimed.id, eventIDs: changes, notifications: notifications))
            }
            return report
        } catch let error as StoreSyncError {
            try await recordFailure(claimed, error, now: now)
            return StoreSyncReport(storeID: claimed.id, pages: 0, products: 0, productsWritten: 0, snapshots: 0, events: 0, notifications: 0,
                                   statements: 0, error: error)
        } catch let error as ServiceError {
            // A stored domain that no longer normalises (cannot happen for domains Hearth wrote).
            try await recordFailure(claimed, StoreSyncError(.storeNotFound, error.message), now: now)
            throw error
        } catch {
            _ = try? await database.client.query(
                "UPDATE stores SET lease_owner = NULL, lease_expires_at = NULL WHERE id = \(claimed.id)", logger: logger)
            throw error
        }
    }

    /// Vacuums and analyzes products and variants after a sync that wrote many products.
    /// Autovacuum gets to new rows only minutes later; until then PostgreSQL plans a big new
    /// store's product queries as if it were empty (a 25 000-product search went from 24 ms to
    /// 6 ms), and reads every variant from the table rather than from the index that covers a
    /// list's prices (the new rows are not yet marked all-visible). A failure is logged: the data
    /// is committed, only plans suffer.
    func vacuumAndAnalyze(afterWriting products: Int) async {
        guard products >= Self.maintenanceAfterProducts else { return }
        do {
            try await database.client.query("VACUUM (ANALYZE) products, variants", logger: logger)
        } catch {
            logger.warning("could not refresh product statistics", metadata: ["error": "\(ErrorText.oneLine(error))"])
        }
    }

    /// How many products one sync writes before ``vacuumAndAnalyze(afterWriting:)`` runs VACUUM (ANALYZE).
    static let maintenanceAfterProducts = 1_000

    /// Records a successful sync: the next one's time, no error, the lease released, and the
    /// shop's currency when it could be read (an unreadable `/meta.json` keeps the one known).
    static func markSynced(_ id: UUID, now: Date, next: Date, currency: ShopifyClient.Currency, on connection: PostgresConnection,
                           logger: Logger) async throws {
        let (known, code): (Bool, String?) = switch currency {
        case .code(let code): (true, code)
        case .none: (true, nil)
        case .unknown: (false, nil)
        }
        try await connection.query("""
            UPDATE stores SET sync_count = sync_count + 1, last_synced_at = \(now), next_sync_at = \(next), failure_count = 0,
                              currency = CASE WHEN \(known) THEN \(code) ELSE currency END,
                              last_error = NULL, last_error_message = NULL, last_error_status = NULL, last_error_retry_after = NULL,
                              last_error_at = NULL, lease_owner = NULL, lease_expires_at = NULL
            WHERE id = \(id)
            """, logger: logger)
    }

    /// Keeps a failure: the error (unless it is rate limiting, which members do not see), one
    /// more consecutive failure, and the next attempt after the back-off.
    private func recordFailure(_ claimed: ClaimedStore, _ error: StoreSyncError, now: Date) async throws {
        let failures = claimed.failures + 1
        let wait = configuration.backoff(failures: failures, retryAfter: error.retryAfter)
        let shown = error.isShownToMembers
        try await database.client.query("""
            UPDATE stores SET failure_count = \(failures), next_sync_at = \(now.addingTimeInterval(wait)), lease_owner = NULL, lease_expires_at = NULL,
                last_error = CASE WHEN \(shown) THEN \(error.code.rawValue) ELSE last_error END,
                last_error_message = CASE WHEN \(shown) THEN \(error.message) ELSE last_error_message END,
                last_error_status = CASE WHEN \(shown) THEN \(error.status) ELSE last_error_status END,
                last_error_retry_after = CASE WHEN \(shown) THEN \(error.retryAfter) ELSE last_error_retry_after END,
                last_error_at = CASE WHEN \(shown) THEN \(now) ELSE last_error_at END
            WHERE id = \(claimed.id)
            """, logger: logger)
        logger.notice("store sync failed", metadata: [
            "store": "\(claimed.id)", "domain": "\(claimed.domain)", "error": "\(error)", "failures": "\(failures)", "retryIn": "\(Int(wait))s",
        ])
    }

    /// Deletes price snapshots older than the retention period; returns how many.
    @discardableResult
    public func pruneSnapshots() async throws -> Int {
        let cutoff = clock.now.addingTimeInterval(-configuration.snapshotRetention.seconds)
        let rows = try await database.client.query(
            "WITH gone AS (DELETE FROM variant_snapshots WHERE recorded_at < \(cutoff) RETURNING 1) SELECT count(*) FROM gone", logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }
}
