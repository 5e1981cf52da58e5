import Foundation
import Logging
import PostgresNIO

/// Housekeeping one instance does at a time (pruning tombstones, a scheduled backup, a notice):
/// whoever claims the named lease in `maintenance_leases` until it runs out or is let go.
enum MaintenanceLease {
    /// Claims `name` for `holder` until `until`, unless another holder's claim is still running at `now`.
    static func claim(_ name: String, holder: String, until: Date, now: Date, on client: PostgresClient, logger: Logger) async throws -> Bool {
        let claimed = try await client.query("""
            INSERT INTO maintenance_leases (name, holder, expires_at) VALUES (\(name), \(holder), \(until))
            ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
            WHERE maintenance_leases.expires_at <= \(now)
            RETURNING name
            """, logger: logger)
        for try await _ in claimed.decode(String.self) { return true }
        return false
    }

    /// Lets `name` go (when `holder` has it; with `holder` nil, whoever has it), so the next claim needs no wait.
    static func release(_ name: String, holder: String?, on client: PostgresClient, logger: Logger) async throws {
        try await client.query("DELETE FROM maintenance_leases WHERE name = \(name) AND (\(holder)::text IS NULL OR holder = \(holder))", logger: logger)
    }
}
