import Foundation
@testable import HearthPostgres
import HearthTestSupport
import PostgresNIO
import Testing
@testable import HearthCore
#if canImport(Glibc)
import Glibc
#endif

/// Each test runs its own small cluster in a scratch directory (initdb takes about a second).
@Suite struct EmbeddedPostgresTests {
    static func cluster(_ dataDirectory: String, superuser: String = "hearth") -> EmbeddedPostgres {
        EmbeddedPostgres(
            configuration: .init(dataDirectory: dataDirectory, superuser: superuser,
                                 settings: ["fsync": "off"], stopTimeout: .seconds(10)),
            logger: TestPostgres.logger)
    }

    static func query(_ endpoint: EmbeddedPostgresEndpoint, _ sql: String) async throws -> [String] {
        let database = Database(configuration: .embedded(endpoint, poolSize: 1), logger: TestPostgres.logger)
        return try await database.whileRunning { database in
            var last: [String] = []
            for statement in SQLScript(sql).statements { last = try await database.strings(statement.sql) }
            return last
        }
    }

    @Test func keepsDataAcrossRestartsAndStopsCleanly() async throws {
        try await withTemporaryDirectory { dir throws in
            let first = Self.cluster(dir + "/pg")
            let endpoint = try await first.start()
            #expect(endpoint.socketDirectory == dir + "/pg")
            let pid = try #require(await first.serverPID)
            _ = try await Self.query(endpoint, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here') RETURNING v")
            await first.stop()
            #expect(kill(pid, 0) != 0)
            #expect(!FileManager.default.fileExists(atPath: dir + "/pg/postmaster.pid"))

            let second = Self.cluster(dir + "/pg")
            let again = try await second.start()
            #expect(try await Self.query(again, "SELECT v FROM kept") == ["still here"])
            await second.stop()
        }
    }

    @Test func recoversFromAStalePidFile() async throws {
        try await withTemporaryDirectory { dir throws in
            let cluster = Self.cluster(dir + "/pg")
            _ = try await cluster.start()
            await cluster.stop()
            // A pid file naming a live process that is not postgres (this test process),
            // as after a crash and pid reuse; and then one naming a dead process.
            for stalePID in [getpid(), 999_999] {
                let text = "\(stalePID)\n\(dir)/pg\n1700000000\n5432\n\(dir)/pg\n\n  5432001 0\nready   \n"
                try text.write(toFile: dir + "/pg/postmaster.pid", atomically: true, encoding: .utf8)
                _ = try await Self.startAnswerAndStop(dir + "/pg")
            }
        }
    }

    @Test func stopsAServerOrphanedByAKilledOwner() async throws {
        try await withTemporaryDirectory { dir throws in
            // The "killed hearth": a cluster whose owner let go of the lock without stopping it.
            let abandoned = Self.cluster(dir + "/pg")
            _ = try await abandoned.start()
            let orphanPID = try #require(await abandoned.serverPID)
            try Self.releaseLockOnly(abandoned)

            _ = try await Self.startAnswerAndStop(dir + "/pg")
            #expect(kill(orphanPID, 0) != 0, "the orphaned postgres \(orphanPID) is still running")
        }
    }

    @Test func refusesAClusterInUseByAnotherHearth() async throws {
        try await withTemporaryDirectory { dir throws in
            let owner = Self.cluster(dir + "/pg")
            _ = try await owner.start()
            let error = await #expect(throws: EmbeddedPostgresError.self) { try await Self.cluster(dir + "/pg").start() }
            let failure = try #require(error)
            #expect(failure.description.contains("in use by another running hearth"))
            #expect(await owner.serverPID != nil)
            await owner.stop()
        }
    }

    @Test func aFailedInitdbLeavesNothingBehind() async throws {
        try await withTemporaryDirectory { dir throws in
            // initdb refuses superuser names starting with pg_.
            let cluster = Self.cluster(dir + "/pg", superuser: "pg_forbidden")
            let error = await #expect(throws: EmbeddedPostgresError.self) { try await cluster.start() }
            let failure = try #require(error)
            guard case .initdbFailed = failure else {
                Issue.record("expected initdbFailed, got \(String(describing: failure))")
                return
            }
            #expect(failure.description.contains("pg_"))
            #expect(!FileManager.default.fileExists(atPath: dir + "/pg"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { !$0.hasSuffix(".lock") }.isEmpty)
        }
    }

    @Test func explainsAClusterFromAnotherMajorVersion() async throws {
        try await withTemporaryDirectory { dir throws in
            try FileManager.default.createDirectory(atPath: dir + "/pg", withIntermediateDirectories: true)
            try "9\n".write(toFile: dir + "/pg/PG_VERSION", atomically: true, encoding: .utf8)
            let error = await #expect(throws: EmbeddedPostgresError.self) { try await Self.cluster(dir + "/pg").start() }
            let failure = try #require(error)
            let message = failure.description
            #expect(message.contains("created by PostgreSQL 9"))
            #expect(message.contains("pg_upgrade"))
        }
    }

    @Test func refusesANonEmptyDirectoryThatIsNoCluster() async throws {
        try await withTemporaryDirectory { dir throws in
            try FileManager.default.createDirectory(atPath: dir + "/pg", withIntermediateDirectories: true)
            try "mine".write(toFile: dir + "/pg/notes.txt", atomically: true, encoding: .utf8)
            await #expect(throws: EmbeddedPostgresError.notAClusterDirectory(path: dir + "/pg")) {
                try await Self.cluster(dir + "/pg").start()
            }
            #expect(FileManager.default.fileExists(atPath: dir + "/pg/notes.txt"))
        }
    }

    @Test func reportsAnUnwritableDataDirectory() async throws {
        try await withTemporaryDirectory { dir throws in
            try "a file, not a folder".write(toFile: dir + "/file", atomically: true, encoding: .utf8)
            let error = await #expect(throws: EmbeddedPostgresError.self) { try await Self.cluster(dir + "/file/pg").start() }
            let failure = try #require(error)
            guard case .dataDirectoryNotWritable(let path, _) = failure else {
                Issue.record("expected dataDirectoryNotWritable, got \(String(describing: failure))")
                return
            }
            #expect(path == dir + "/file/pg")
            #expect(failure.description.contains("--data-dir"))
        }
    }

    @Test func usesAShortSocketDirectoryForLongDataPaths() async throws {
        try await withTemporaryDirectory { dir throws in
            let long = dir + "/" + String(repeating: "deep/", count: 18) + "pg"
            let endpoint = try await Self.startAnswerAndStop(long)
            #expect(endpoint.socketDirectory.hasPrefix("/tmp/hearth-"))
            #expect(endpoint.socketPath.utf8.count <= 107)
            try? FileManager.default.removeItem(atPath: endpoint.socketDirectory)
        }
    }

    /// Starts a cluster in `dataDirectory`, expects it to answer a query, stops it, and returns
    /// where it listened.
    static func startAnswerAndStop(_ dataDirectory: String) async throws -> EmbeddedPostgresEndpoint {
        let cluster = Self.cluster(dataDirectory)
        let endpoint = try await cluster.start()
        let answer = try await Self.query(endpoint, "SELECT 'up'")
        await cluster.stop()
        #expect(answer == ["up"])
        return endpoint
    }

    /// Simulates the owner's death: the lock goes, the server stays.
    static func releaseLockOnly(_ cluster: EmbeddedPostgres) throws {
        // Unlinking the lock file frees its path, as the kernel frees the lock when its holder dies.
        let lockPath = cluster.lockFilePath
        try FileManager.default.removeItem(atPath: lockPath)
    }
}
