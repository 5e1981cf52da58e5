import Foundation
import Logging
import PostgresNIO

/// Applies migrations in order, each in its own transaction, recording each in
/// `schema_migrations` with its checksum. Holds a PostgreSQL advisory lock while it works, so
/// instances starting together apply each migration exactly once.
public struct Migrator: Sendable {
    /// The advisory lock key ("hearth" + 1); any 64-bit constant shared by all instances.
    public static let advisoryLockKey: Int64 = 0x6865_6172_7468_0001

    public let migrations: [Migration]
    public let logger: Logger

    public init(migrations: [Migration], logger: Logger) {
        self.migrations = migrations
        self.logger = logger
    }

    /// What the database holds compared with the migration files.
    public struct Status: Sendable, Equatable {
        /// Versions recorded as applied.
        public var applied: [Int]
        /// Files not applied yet.
        public var pending: [Int]
        /// Changed or missing migrations; start-up refuses while there are any.
        public var problems: [MigrationError]

        public var isCurrent: Bool { pending.isEmpty && problems.isEmpty }
    }

    /// Applies every pending migration and returns the versions applied now.
    @discardableResult
    public func migrate(_ client: PostgresClient) async throws -> [Int] {
        try await client.withConnection { connection in
            // Waiting for another instance's migration and building indexes may take longer than
            // the pool's statement timeout: lifted on this connection until it goes back.
            try await connection.query("SET statement_timeout = 0", logger: logger)
            do {
                try await connection.query("SELECT pg_advisory_lock(\(Self.advisoryLockKey))", logger: logger)
                let applied = try await apply(on: connection)
                try await connection.query("SELECT pg_advisory_unlock(\(Self.advisoryLockKey))", logger: logger)
                try await connection.query("RESET statement_timeout", logger: logger)
                return applied
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(Self.advisoryLockKey))", logger: logger)
                _ = try? await connection.query("RESET statement_timeout", logger: logger)
                throw error
            }
        }
    }

    /// Reads the applied migrations without changing anything.
    public func status(_ client: PostgresClient) async throws -> Status {
        try await client.withConnection { connection in
            let exists = try await connection.query(
                "SELECT to_regclass('public.schema_migrations') IS NOT NULL", logger: logger)
            var hasTable = false
            for try await value in exists.decode(Bool.self) { hasTable = value }
            let applied = hasTable ? try await appliedMigrations(on: connection) : []
            return compare(applied)
        }
    }

    private func apply(on connection: PostgresConnection) async throws -> [Int] {
        try await connection.query("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version     integer     PRIMARY KEY,
                name        text        NOT NULL,
                checksum    text        NOT NULL,
                applied_at  timestamptz NOT NULL DEFAULT now()
            )
            """, logger: logger)
        let status = compare(try await appliedMigrations(on: connection))
        if let problem = status.problems.first { throw problem }
        var appliedNow: [Int] = []
        for version in status.pending {
            guard let migration = migrations.first(where: { $0.version == version }) else { continue }
            let started = ContinuousClock.now
            try await connection.query("BEGIN", logger: logger)
            do {
                for statement in SQLScript(migration.sql).statements {
                    do {
                        try await connection.query(PostgresQuery(unsafeSQL: statement.sql), logger: logger)
                    } catch {
                        throw MigrationError.failed(
                            fileName: migration.fileName, line: statement.line, message: ErrorText.oneLine(error))
                    }
                }
                try await connection.query("""
                    INSERT INTO schema_migrations (version, name, checksum)
                    VALUES (\(migration.version), \(migration.name), \(migration.checksum))
                    """, logger: logger)
                try await connection.query("COMMIT", logger: logger)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
            appliedNow.append(version)
            logger.info("applied migration", metadata: [
                "migration": "\(migration.fileName)", "duration": "\(ContinuousClock.now - started)",
            ])
        }
        return appliedNow
    }

    private func appliedMigrations(on connection: PostgresConnection) async throws -> [(Int, String, String)] {
        let rows = try await connection.query(
            "SELECT version, name, checksum FROM schema_migrations ORDER BY version", logger: logger)
        var applied: [(Int, String, String)] = []
        for (version, name, checksum) in try await rows.columns(("version", Int.self), ("name", String.self), ("checksum", String.self)) {
            applied.append((version, name, checksum))
        }
        return applied
    }

    private func compare(_ applied: [(Int, String, String)]) -> Status {
        var problems: [MigrationError] = []
        let files = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0) })
        for (version, name, checksum) in applied {
            guard let file = files[version] else {
                problems.append(.missing(version: version, name: name))
                continue
            }
            if file.checksum != checksum {
                problems.append(.changed(version: version, fileName: file.fileName, applied: checksum, now: file.checksum))
            }
        }
        let appliedVersions = Set(applied.map(\.0))
        return Status(
            applied: applied.map(\.0),
            pending: migrations.map(\.version).filter { !appliedVersions.contains($0) },
            problems: problems)
    }
}
