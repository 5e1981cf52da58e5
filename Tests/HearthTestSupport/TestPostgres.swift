import Foundation
import HearthCore
import HearthPostgres
import Logging
import PostgresNIO
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One throwaway PostgreSQL cluster per test process, started with Hearth's own
/// `EmbeddedPostgres` in `/tmp/hearth-test-<pid>`. A template database is migrated once;
/// every test gets a fresh copy of it (`CREATE DATABASE … TEMPLATE …`), so tests are isolated.
/// The cluster is stopped when the process exits; one left by a crashed run is removed next time.
public actor TestPostgres {
    public static let shared = TestPostgres()
    public static let templateName = "hearth_template"

    private var startTask: Task<EmbeddedPostgresEndpoint, any Error>?
    private var counter = 0
    private static let serverPID = Atomic<Int32>(0)

    /// The repository's `migrations/` directory.
    public static var migrationsDirectory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("migrations").path
    }

    public static var logger: Logger {
        var logger = Logger(label: "hearth-test")
        logger.logLevel = .warning
        return logger
    }

    /// Starts the cluster on first use and returns how to reach its template database.
    public func endpoint() async throws -> EmbeddedPostgresEndpoint {
        if let startTask { return try await startTask.value }
        let task = Task { try await Self.startCluster() }
        startTask = task
        return try await task.value
    }

    /// Creates a fresh, migrated database and returns its name.
    public func createDatabase(migrated: Bool = true) async throws -> EmbeddedPostgresEndpoint {
        var endpoint = try await endpoint()
        counter += 1
        let name = "t\(getpid())_\(counter)"
        do {
            try await Self.withAdminConnection(endpoint) { connection in
                let template = migrated ? Self.templateName : "template0"
                try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \"\(name)\" TEMPLATE \"\(template)\""),
                                           logger: Self.logger)
            }
        } catch {
            // PostgresNIO's own description hides what PostgreSQL said: a failed fixture names it.
            throw SetupFailure(description: "creating the test database \(name) failed: \(String(reflecting: error))")
        }
        endpoint.database = name
        return endpoint
    }

    private static func startCluster() async throws -> EmbeddedPostgresEndpoint {
        removeClustersOfDeadTestRuns()
        let root = "/tmp/hearth-test-\(getpid())"
        try? FileManager.default.removeItem(atPath: root)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        let cluster = EmbeddedPostgres(
            configuration: .init(
                dataDirectory: root + "/data",
                database: templateName,
                // pg_stat_statements counts each database's statements, for tests that bound them. Every
                // database has its own entries, and a pg_dump (the backup tests) adds hundreds: past
                // `max`, entries are evicted and the counts of other tests go wrong, so it is large.
                settings: ["fsync": "off", "synchronous_commit": "off", "full_page_writes": "off", "max_connections": "300",
                           "shared_preload_libraries": "pg_stat_statements", "pg_stat_statements.track_utility": "on",
                           "pg_stat_statements.max": "100000"]),
            logger: logger)
        let endpoint = try await cluster.start()
        if let pid = await cluster.serverPID { serverPID.store(pid, ordering: .relaxed) }
        atexit {
            let pid = TestPostgres.serverPID.load(ordering: .relaxed)
            if pid > 0 {
                kill(pid, SIGQUIT)
                // Wait (at most 3 s) for it to go, so it does not write into the folder being removed.
                for _ in 0..<300 where kill(pid, 0) == 0 { usleep(10_000) }
            }
            try? FileManager.default.removeItem(atPath: "/tmp/hearth-test-\(getpid())")
        }
        let database = Database(configuration: .embedded(endpoint, poolSize: 2), logger: logger)
        try await database.whileRunning { database in
            let migrations = try Migration.load(from: migrationsDirectory)
            try await Migrator(migrations: migrations, logger: logger).migrate(database.client)
            try await database.client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements", logger: logger)
        }
        return endpoint
    }

    /// Stops clusters whose test process is gone (a crash skips `atexit`) and deletes them.
    private static func removeClustersOfDeadTestRuns() {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
        for entry in entries where entry.hasPrefix("hearth-test-") {
            guard let owner = Int32(entry.dropFirst("hearth-test-".count)), kill(owner, 0) != 0, errno == ESRCH else { continue }
            let root = "/tmp/\(entry)"
            // Only a PostgreSQL of that cluster: the pid may belong to another program by now.
            if let pid = PostmasterPIDFile.read(dataDirectory: root + "/data")?.pid,
                EmbeddedPostgres.isPostgres(pid: pid, dataDirectory: root + "/data") {
                kill(pid, SIGQUIT)
            }
            try? FileManager.default.removeItem(atPath: root)
        }
    }

    public static func withAdminConnection<T: Sendable>(
        _ endpoint: EmbeddedPostgresEndpoint, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        var configuration = PostgresConnection.Configuration(
            unixSocketPath: endpoint.socketPath, username: endpoint.username, password: nil, database: "postgres")
        // The whole suite on two cores can keep the cluster from accepting within PostgresNIO's 10 s.
        configuration.options.connectTimeout = .seconds(60)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            let value = try await body(connection)
            try await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

/// A test fixture that could not be made, with everything known about why.
struct SetupFailure: Error, CustomStringConvertible {
    let description: String
}

/// Runs `body` with a pool connected to a fresh database of the shared test cluster.
public func withTestDatabase<T: Sendable>(
    migrated: Bool = true,
    _ body: (Database, EmbeddedPostgresEndpoint) async throws -> T
) async throws -> T {
    let endpoint = try await TestPostgres.shared.createDatabase(migrated: migrated)
    let database = Database(configuration: .embedded(endpoint, poolSize: 4), logger: TestPostgres.logger)
    return try await database.whileRunning { database in try await body(database, endpoint) }
}

/// A scratch directory under /tmp (short, so socket paths fit), removed by `body`'s end.
public func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    let path = "/tmp/hearth-scratch-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                            attributes: [.posixPermissions: 0o755])
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

extension Database {
    /// How many statements PostgreSQL has run in this database so far (pg_stat_statements:
    /// statements finished, utility ones such as BEGIN included). Read before and after what is
    /// measured; the read itself counts once in the next reading.
    public func statementCount() async throws -> Int {
        let rows = try await client.query(
            "SELECT COALESCE(sum(calls), 0)::int8 FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())",
            logger: logger)
        var count: Int64 = 0
        for try await value in rows.decode(Int64.self) { count = value }
        return Int(count)
    }

    /// The rows of a one-column text query, for assertions.
    public func strings(_ sql: String) async throws -> [String] {
        let rows = try await client.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        var values: [String] = []
        for try await value in rows.decode(String.self) { values.append(value) }
        return values
    }
}

/// Runs `body`, then `cleanup` whether `body` threw or not: for clients (a store feed client,
/// say) that must be shut down before they are dropped.
public func withCleanup<T>(_ body: () async throws -> T, cleanup: () async throws -> Void) async throws -> T {
    let result: T
    do {
        result = try await body()
    } catch {
        try? await cleanup()
        throw error
    }
    try await cleanup()
    return result
}

/// Polls `condition` every 20 ms for up to 10 s; true once it holds. For effects that arrive
/// asynchronously (another instance's message): delivery takes milliseconds, and the bound only
/// stops a broken path from hanging the suite.
public func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
    for _ in 0..<500 {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return false
}
