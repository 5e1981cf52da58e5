import Foundation
import NIOCore
import HearthCore
import HearthTestSupport
import HummingbirdTesting
import Hummingbird
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `hearth serve` and `hearth migrate` as processes: signals, restarts, bad input.
@Suite struct ServeCommandTests {
    static func get(_ port: Int, _ path: String, token: String? = nil) async throws -> (HTTPResponse.Status, String) {
        try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            var headers = HTTPFields()
            if let token { headers[.authorization] = "Bearer \(token)" }
            let response = try await client.execute(TestClient.Request(path, method: .get, headers: headers))
            return (response.status, response.body.map { String(buffer: $0) } ?? "")
        }
    }

    static func installationID(_ port: Int) async throws -> String {
        let (status, body) = try await get(port, "/admin/health", token: "tok")
        #expect(status == .ok)
        let json = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        return try #require(json?["installationId"] as? String)
    }

    @Test func sigtermStopsEverythingAndTheDataSurvivesARestart() async throws {
        try await withTemporaryDirectory { dir throws in
            let env = ["HEARTH_ADMIN_TOKEN": "tok", "HEARTH_DATA_DIR": dir + "/pg", "HEARTH_PORT": "0"]
            let first = try HearthProcess(["serve"], environment: env)
            let port = try await first.waitUntilListening()
            #expect(try await Self.get(port, "/readyz").0 == .ok)
            #expect(try await Self.get(port, "/healthz").0 == .ok)
            #expect(try await Self.get(port, "/admin/health").0 == .unauthorized)
            let id = try await Self.installationID(port)
            let postgres = try #require(postmasterPID(dir + "/pg"))
            #expect(isAlive(postgres))

            first.send(SIGTERM)
            let (status, elapsed) = try await first.waitForExit()
            #expect(status == 0, "stderr:\n\(first.stderr)")
            #expect(elapsed < .seconds(10))
            #expect(!isAlive(postgres), "postgres \(postgres) outlived hearth")

            let second = try HearthProcess(["serve"], environment: env)
            let secondPort = try await second.waitUntilListening()
            #expect(try await Self.installationID(secondPort) == id)
            second.send(SIGINT)
            #expect(try await second.waitForExit().status == 0)
        }
    }

    @Test func aServerLeftByAKilledHearthIsStoppedByTheNextStart() async throws {
        try await withTemporaryDirectory { dir throws in
            let env = ["HEARTH_DATA_DIR": dir + "/pg", "HEARTH_PORT": "0"]
            let killed = try HearthProcess(["serve"], environment: env)
            _ = try await killed.waitUntilListening()
            let orphan = try #require(postmasterPID(dir + "/pg"))
            killed.send(SIGKILL)
            _ = try await killed.waitForExit()

            let next = try HearthProcess(["serve"], environment: env)
            let port = try await next.waitUntilListening()
            #expect(!isAlive(orphan), "the orphaned postgres \(orphan) is still running")
            #expect(next.stderr.contains("left running by an earlier hearth"))
            #expect(try await Self.get(port, "/readyz").0 == .ok)
            next.send(SIGTERM)
            #expect(try await next.waitForExit().status == 0)
        }
    }

    /// `hearth user …` while `hearth serve` runs on the same data directory: the command uses the
    /// server's cluster (no downtime to make an administrator) and leaves it running; a second
    /// server is still refused.
    @Test func anOperatorCommandUsesTheClusterARunningServerHolds() async throws {
        try await withTemporaryDirectory { dir throws in
            let env = ["HEARTH_DATA_DIR": dir + "/pg", "HEARTH_PORT": "0"]
            let server = try HearthProcess(["serve"], environment: env)
            let port = try await server.waitUntilListening()
            let postgres = try #require(postmasterPID(dir + "/pg"))

            let create = try HearthProcess(["user", "create", "--email", "op@example.org", "--admin"], environment: env, input: "correct horse\n")
            #expect(try await create.waitForExit().status == 0, "stderr:\n\(create.stderr)")
            #expect(create.stdout.contains("created op@example.org"))
            #expect(isAlive(postgres) && postmasterPID(dir + "/pg") == postgres, "the command left the server's cluster running")

            // The running server knows the account at once: its administrator signs in over the API.
            let signIn = #"{"query": "mutation { signIn(email: \"op@example.org\", password: \"correct horse\") { user { isAdmin } } }"}"#
            let answer = try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                try await client.execute(TestClient.Request("/graphql", method: .post, headers: [.contentType: "application/json"],
                                                            body: ByteBuffer(string: signIn)))
            }
            #expect(answer.body.map { String(buffer: $0) }?.contains(#""isAdmin":true"#) == true, "\(answer.body.map { String(buffer: $0) } ?? "")")

            let second = try HearthProcess(["serve"], environment: env)
            #expect(try await second.waitForExit().status != 0)
            #expect(second.stderr.contains("in use by another running hearth"), "\(second.stderr)")
            #expect(try await Self.get(port, "/readyz").0 == .ok)
            server.send(SIGTERM)
            #expect(try await server.waitForExit().status == 0, "stderr:\n\(server.stderr)")
        }
    }

    /// Instances sharing an external database must share the key that seals channel secrets: none given is a clear refusal.
    @Test func anExternalDatabaseWithoutASecretKeyIsRefused() async throws {
        let endpoint = try await TestPostgres.shared.createDatabase()
        let hearth = try HearthProcess(["serve", "--port", "0", "--database-url", endpoint.url], environment: ["HEARTH_SECRET_KEY": ""])
        let (status, _) = try await hearth.waitForExit()
        #expect(status != 0)
        #expect(hearth.stderr.contains("An external database needs a secret key to seal channel secrets: give --secret-key-file"), "\(hearth.stderr)")
    }

    @Test func aPortInUseIsOneClearLine() async throws {
        let endpoint = try await TestPostgres.shared.createDatabase()
        let first = try HearthProcess(["serve", "--port", "0", "--database-url", endpoint.url])
        let port = try await first.waitUntilListening()
        let second = try HearthProcess(["serve", "--port", "\(port)", "--database-url", endpoint.url])
        let (status, _) = try await second.waitForExit()
        #expect(status != 0)
        let lastLine = second.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(lastLine == "hearth: cannot listen on 127.0.0.1:\(port): the address is already in use; choose another with --port or HEARTH_PORT")
        first.send(SIGTERM)
        #expect(try await first.waitForExit().status == 0)
    }

    @Test(arguments: [
        (["serve", "--bogus"], [String: String](), "--bogus"),
        (["serve", "--port", "70000"], [:], "--port"),
        (["serve"], ["HEARTH_PORT": "eighty"], "HEARTH_PORT"),
        (["serve"], ["HEARTH_LOG_LEVEL": "loud"], "loud"),
        (["migrate"], ["HEARTH_DB_POOL_SIZE": "0"], "HEARTH_DB_POOL_SIZE"),
        (["serve"], ["HEARTH_GRAPHQL_MAX_DEPTH": "0"], "HEARTH_GRAPHQL_MAX_DEPTH: 0 is out of range"),
        (["serve", "--graphql-timeout", "0"], [:], "--graphql-timeout: 0 is out of range"),
        (["serve"], ["HEARTH_WS_MAX_SUBSCRIPTIONS": "many"], "HEARTH_WS_MAX_SUBSCRIPTIONS: 'many' is not a whole number"),
        (["serve", "--vapid-subject", "admin@example.org"], [:], "--vapid-subject admin@example.org: the subject must be a mailto: address or an https: URL"),
        (["serve"], ["HEARTH_PUBLIC_URL": "hearth.lan"], "--public-url hearth.lan"),
    ])
    func badOptionsAreUsageErrors(arguments: [String], environment: [String: String], named: String) async throws {
        let hearth = try HearthProcess(arguments, environment: environment)
        let (status, _) = try await hearth.waitForExit()
        #expect(status == 64)
        #expect(hearth.stderr.contains(named))
    }

    @Test func anInvalidDatabaseURLSaysWhatIsWrong() async throws {
        let hearth = try HearthProcess(["migrate"], environment: ["DATABASE_URL": "mysql://x@y/z"])
        let (status, _) = try await hearth.waitForExit()
        #expect(status == 1)
        #expect(hearth.stderr.contains("DATABASE_URL is invalid: the scheme must be postgres://"))
    }

    @Test func twoMigrateCommandsAtOnceApplyEachMigrationOnce() async throws {
        let endpoint = try await TestPostgres.shared.createDatabase(migrated: false)
        let processes = try (0..<2).map { _ in try HearthProcess(["migrate"], environment: ["DATABASE_URL": endpoint.url]) }
        for process in processes {
            let (status, _) = try await process.waitForExit()
            #expect(status == 0, "stderr:\n\(process.stderr)")
        }
        let outputs = processes.map(\.stdout)
        let all = try Migration.load(from: TestPostgres.migrationsDirectory).map { "\($0.version)" }
        #expect(outputs.filter { $0.contains("applied \(all.count) migration(s): \(all.joined(separator: ", "))") }.count == 1, "\(outputs)")
        #expect(outputs.filter { $0.contains("database is current") }.count == 1, "\(outputs)")
        let database = Database(configuration: .embedded(endpoint, poolSize: 1), logger: TestPostgres.logger)
        let versions = try await database.whileRunning { database in
            try await database.strings("SELECT version::text FROM schema_migrations ORDER BY schema_migrations.version")
        }
        #expect(versions == all)
    }
}
