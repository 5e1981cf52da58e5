import Foundation
import Logging
import PostgresNIO

/// Restoring a backup's dump: what the target holds (to refuse a full one), loading the dump
/// (``DatabaseDump/restore(from:replacing:logger:)``), and leaving the sync log right for the
/// new cluster — whose transaction counter starts again, so the log's transaction ids not already
/// in every snapshot's past are moved there (every old change counts as long done) and sync cursors issued before the restore
/// expire (`SYNC_CURSOR_EXPIRED`: devices take a fresh snapshot and keep their queued changes).
public enum Restore {
    /// The name of the safety backup `hearth restore --replace` writes of what it replaces: never
    /// a scheduled backup's (``BackupSchedule/isScheduledName(_:)``), so retention never prunes it.
    public static func safetyBackupName(at date: Date) -> String {
        safetyBackupPrefix + ScheduledBackups.stamp(date) + BackupSchedule.fileSuffix
    }

    public static let safetyBackupPrefix = "safety-before-restore-"

    /// Tables in the target's `public` schema, and how many households and people they hold.
    public static func holdings(_ database: Database) async throws -> (tables: Int, households: Int, people: Int) {
        let tables = try await database.count("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
        guard tables > 0 else { return (0, 0, 0) }
        let hasHearth = try await database.count("SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename IN ('households', 'users')") == 2
        guard hasHearth else { return (tables, 0, 0) }
        return (tables, try await database.count("SELECT count(*) FROM households"), try await database.count("SELECT count(*) FROM users"))
    }

    /// After the dump is loaded: the log's transactions moved into the past, and the restore's time kept.
    public static func settle(_ database: Database, at now: Date) async throws {
        try await database.transaction(logger: database.logger) { connection in
            // 3 is PostgreSQL's frozen transaction id: visible in every snapshot, so no pull returns these rows
            // as new, and a snapshot pull still finds them. Only rows at or past the oldest transaction any
            // snapshot may still see as running need it: those below it are visible to every snapshot from
            // now on already (restoring on the cluster that made the backup, or an older one, rewrites none).
            try await connection.query("UPDATE sync_changes SET xid = '3'::xid8 WHERE xid >= pg_snapshot_xmin(pg_current_snapshot())",
                                       logger: database.logger)
            try await connection.query("""
                INSERT INTO hearth_settings (key, value) VALUES (\(InstallationSettings.restoredAtKey), \(String(now.timeIntervalSince1970)))
                ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
                """, logger: database.logger)
        }
    }
}
