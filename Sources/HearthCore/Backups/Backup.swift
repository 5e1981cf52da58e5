import Foundation
import Logging

/// Making a backup: the database dumped (one consistent snapshot, writers going on), what it holds
/// counted for the manifest, and the dump written as a backup file — encrypted with the backup key
/// unless none is given — then checked by reading it back.
public enum Backup {
    /// Makes the backup file at `path` and returns its manifest. Nothing is left at `path` (or
    /// beside it) when it fails.
    public static func make(_ database: Database, dump: DatabaseDump, key: BackupKey?, to path: String,
                            hearthVersion: String, now: Date = Date(), logger: Logger) async throws -> BackupManifest {
        let serverVersion = try await database.count("SELECT current_setting('server_version_num')::int8")
        try dump.check(serverMajorVersion: serverVersion / 10_000)
        let migration = try await database.count("SELECT coalesce(max(version), 0)::int8 FROM schema_migrations")
        let households = try await database.count("SELECT count(*) FROM households")
        let people = try await database.count("SELECT count(*) FROM users")
        let tasks = try await database.count("SELECT count(*) FROM task_items")
        let products = try await database.count("SELECT count(*) FROM products WHERE removed_at IS NULL")
        let temporary = path + ".dump"
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        try await dump.dump(to: temporary, logger: logger)
        let manifest = BackupManifest(
            hearthVersion: hearthVersion, migration: migration, createdAt: now, households: households,
            people: people, tasks: tasks, products: products,
            dumpBytes: 0, dumpSHA256: "", keyIdentifier: nil)
        let written = try BackupArchive.write(dump: temporary, manifest: manifest, key: key, to: path)
        do {
            try BackupArchive.verify(path, key: key)
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
        return written
    }
}
