import Foundation
import Logging
import PostgresNIO

/// Making a backup: the database dumped (one consistent snapshot, writers going on), what it holds
/// counted for the manifest, and the dump written as a backup file — encrypted with the backup key
/// unless none is given — then checked by reading it back.
public enum Backup {
    /// Makes the backup file at `path` and returns its manifest. The unencrypted dump lies in a
    /// private ``BackupWorkspace`` (never beside `path`) and is gone when this returns. Nothing is
    /// left at `path` (or beside it) when it fails.
    public static func make(_ database: Database, dump: DatabaseDump, key: BackupKey?, to path: String,
                            hearthVersion: String, now: Date = Date(), logger: Logger) async throws -> BackupManifest {
        let serverVersion = try await database.count("SELECT current_setting('server_version_num')::int8")
        try dump.check(serverMajorVersion: serverVersion / 10_000)
        let workspace = try BackupWorkspace.make(in: dump.workRoot)
        defer { workspace.remove() }
        let temporary = workspace.path + "/dump"
        // The counts and the dump read one snapshot: a repeatable-read transaction exports it and
        // stays open while pg_dump reads it (`--snapshot`), so the manifest says what the dump holds
        // however many people write meanwhile.
        let counted = try await database.readingOneSnapshot { connection in
            var snapshot = ""
            for try await text in try await connection.query("SELECT pg_export_snapshot()", logger: logger).decode(String.self) { snapshot = text }
            // pg_dump reads the snapshot while this connection counts in it.
            async let dumped: Void = dump.dump(to: temporary, snapshot: snapshot, logger: logger)
            let counts = Counts(
                migration: try await database.count("SELECT coalesce(max(version), 0)::int8 FROM schema_migrations", on: connection),
                households: try await database.count("SELECT count(*) FROM households", on: connection),
                people: try await database.count("SELECT count(*) FROM users", on: connection),
                tasks: try await database.count("SELECT count(*) FROM task_items", on: connection),
                products: try await database.count("SELECT count(*) FROM products WHERE removed_at IS NULL", on: connection))
            try await dumped
            return counts
        }
        let manifest = BackupManifest(
            hearthVersion: hearthVersion, migration: counted.migration, createdAt: now, households: counted.households,
            people: counted.people, tasks: counted.tasks, products: counted.products,
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

    /// What the manifest counts.
    private struct Counts: Sendable {
        var migration, households, people, tasks, products: Int
    }
}
