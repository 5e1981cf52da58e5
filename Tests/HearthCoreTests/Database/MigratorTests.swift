import Foundation
import HearthTestSupport
import PostgresNIO
import Testing
@testable import HearthCore

@Suite struct MigratorTests {
    static func write(_ files: [String: String], to directory: String) throws {
        for (name, sql) in files {
            try sql.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        }
    }

    @Test func appliesInOrderAndRecordsChecksums() async throws {
        try await withTemporaryDirectory { dir throws in
            try Self.write([
                "0002_items.sql": "INSERT INTO things VALUES (1);\nINSERT INTO things VALUES (2);",
                "0001_things.sql": "CREATE TABLE things (id int PRIMARY KEY);",
                "README.md": "ignored",
            ], to: dir)
            let migrations = try Migration.load(from: dir)
            #expect(migrations.map(\.version) == [1, 2])
            try await withTestDatabase(migrated: false) { database, _ throws in
                let migrator = Migrator(migrations: migrations, logger: TestPostgres.logger)
                #expect(try await migrator.status(database.client).pending == [1, 2])
                #expect(try await migrator.migrate(database.client) == [1, 2])
                #expect(try await migrator.migrate(database.client) == [])
                #expect(try await database.strings("SELECT count(*)::text FROM things") == ["2"])
                #expect(try await database.strings("SELECT checksum FROM schema_migrations ORDER BY version")
                        == migrations.map(\.checksum))
                #expect(try await migrator.status(database.client).isCurrent)
            }
        }
    }

    @Test func refusesAChangedMigration() async throws {
        try await withTemporaryDirectory { dir throws in
            try Self.write(["0001_things.sql": "CREATE TABLE things (id int);"], to: dir)
            try await withTestDatabase(migrated: false) { database, _ throws in
                try await Migrator(migrations: Migration.load(from: dir), logger: TestPostgres.logger).migrate(database.client)
                try Self.write([
                    "0001_things.sql": "CREATE TABLE things (id bigint);",
                    "0002_more.sql": "CREATE TABLE more (id int);",
                ], to: dir)
                let migrator = Migrator(migrations: try Migration.load(from: dir), logger: TestPostgres.logger)
                let error = await #expect(throws: MigrationError.self) { try await migrator.migrate(database.client) }
                let failure = try #require(error)
                guard case .changed(1, "0001_things.sql", _, _) = failure else {
                    Issue.record("expected a changed-migration error, got \(String(describing: failure))")
                    return
                }
                #expect(failure.description.contains("was changed after it was applied"))
                // Nothing after the refusal was applied.
                #expect(try await database.strings("SELECT coalesce(to_regclass('more')::text, 'absent')") == ["absent"])
                #expect(try await migrator.status(database.client).problems.count == 1)
            }
        }
    }

    @Test func refusesWhenAnAppliedMigrationFileIsMissing() async throws {
        try await withTemporaryDirectory { dir throws in
            try Self.write(["0001_a.sql": "CREATE TABLE a (id int);", "0002_b.sql": "CREATE TABLE b (id int);"], to: dir)
            try await withTestDatabase(migrated: false) { database, _ throws in
                try await Migrator(migrations: Migration.load(from: dir), logger: TestPostgres.logger).migrate(database.client)
                try FileManager.default.removeItem(atPath: dir + "/0002_b.sql")
                let migrator = Migrator(migrations: try Migration.load(from: dir), logger: TestPostgres.logger)
                let error = await #expect(throws: MigrationError.self) { try await migrator.migrate(database.client) }
                let failure = try #require(error)
                #expect(failure == .missing(version: 2, name: "b"))
            }
        }
    }

    @Test func aFailingMigrationIsRolledBackAndNamesFileAndLine() async throws {
        try await withTemporaryDirectory { dir throws in
            try Self.write([
                "0001_ok.sql": "CREATE TABLE ok (id int);",
                "0002_bad.sql": "CREATE TABLE half (id int);\n\nINSERT INTO nowhere VALUES (1);",
            ], to: dir)
            try await withTestDatabase(migrated: false) { database, _ throws in
                let migrator = Migrator(migrations: try Migration.load(from: dir), logger: TestPostgres.logger)
                let error = await #expect(throws: MigrationError.self) { try await migrator.migrate(database.client) }
                let failure = try #require(error)
                let message = failure.description
                #expect(message.contains("0002_bad.sql failed at line 3"))
                #expect(message.contains("nowhere"))
                #expect(try await database.strings("SELECT version::text FROM schema_migrations") == ["1"])
                #expect(try await database.strings("SELECT coalesce(to_regclass('half')::text, 'absent')") == ["absent"])
            }
        }
    }

    @Test func concurrentMigratorsApplyEachMigrationOnce() async throws {
        try await withTemporaryDirectory { dir throws in
            var files: [String: String] = [:]
            for n in 1...5 {
                files[String(format: "%04d_step.sql", n)] = "CREATE TABLE step\(n) (id int); SELECT pg_sleep(0.05);"
            }
            try Self.write(files, to: dir)
            let migrations = try Migration.load(from: dir)
            try await withTestDatabase(migrated: false) { database, endpoint throws in
                // Two separate pools, as two instances would have.
                let other = Database(configuration: .embedded(endpoint, poolSize: 2), logger: TestPostgres.logger)
                let results = try await withThrowingTaskGroup(of: [Int].self) { group in
                    group.addTask { await other.client.run(); return [-1] }
                    group.addTask { try await Migrator(migrations: migrations, logger: TestPostgres.logger).migrate(database.client) }
                    group.addTask { try await Migrator(migrations: migrations, logger: TestPostgres.logger).migrate(other.client) }
                    var results: [[Int]] = []
                    for _ in 0..<2 { if let next = try await group.next() { results.append(next) } }
                    group.cancelAll()
                    return results
                }
                #expect(results.flatMap { $0 }.sorted() == [1, 2, 3, 4, 5])
                #expect(try await database.strings("SELECT count(*)::text FROM schema_migrations") == ["5"])
            }
        }
    }

    @Test func rejectsBadFileNamesAndDuplicateNumbers() async throws {
        try await withTemporaryDirectory { dir throws in
            try Self.write(["1_short.sql": "SELECT 1"], to: dir)
            #expect(throws: MigrationError.badFileName("1_short.sql")) { try Migration.load(from: dir) }
            try FileManager.default.removeItem(atPath: dir + "/1_short.sql")
            try Self.write(["0001_a.sql": "SELECT 1", "0001_b.sql": "SELECT 2"], to: dir)
            #expect(throws: MigrationError.duplicateVersion(1, "0001_a.sql", "0001_b.sql")) { try Migration.load(from: dir) }
        }
    }

    @Test func theRepositoryMigrationsApplyToAnEmptyDatabase() async throws {
        try await withTestDatabase { database, _ throws in
            let migrations = try Migration.load(from: TestPostgres.migrationsDirectory)
            let status = try await Migrator(migrations: migrations, logger: TestPostgres.logger).status(database.client)
            #expect(status.isCurrent)
            #expect(status.applied == migrations.map(\.version))
            let id = try #require(try await InstallationSettings.installationID(database))
            #expect(UUID(uuidString: id) != nil)
        }
    }
}
