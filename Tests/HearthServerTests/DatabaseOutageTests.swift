import Foundation
import GraphQLEngine
import HearthCore
import HearthServer
import HearthTestSupport
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// PostgreSQL stopped (fast and immediate shutdown) and started again while several clients write
/// tasks with client ids over real HTTP: every request is answered (by its deadline at worst),
/// `/readyz` says 503 while the database is down and 200 after, and every acknowledged write is
/// in the database afterwards. The cluster is the test's own (the shared test cluster stays up).
@Suite struct DatabaseOutageTests {
    struct Tally: Sendable {
        var acknowledged: Set<UUID> = []
        var refused = 0
        var unanswered = 0
    }

    /// What the writers saw, shared between them, and the moment ten writes were acknowledged.
    final class Shared: Sendable {
        let tally = Mutex(Tally())
        let (tenAcknowledged, signal) = AsyncStream<Void>.makeStream()

        func acknowledged(_ id: UUID) {
            let count = tally.withLock { tally in
                tally.acknowledged.insert(id)
                return tally.acknowledged.count
            }
            if count == 10 { signal.yield() }
        }
    }

    /// A GraphQL request to a server on `port` over a connection of its own: the response's JSON.
    static func post(_ port: Int, _ query: String, _ variables: [String: Any] = [:], token: String? = nil) async throws -> [String: Any] {
        let body = try JSONSerialization.data(withJSONObject: ["query": query, "variables": variables])
        return try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            var headers: HTTPFields = [.contentType: "application/json"]
            if let token { headers[.authorization] = "Bearer \(token)" }
            let response = try await client.execute(TestClient.Request("/graphql", method: .post, headers: headers, body: ByteBuffer(bytes: body)))
            return (try? JSONSerialization.jsonObject(with: Data(buffer: response.body ?? ByteBuffer()))) as? [String: Any] ?? [:]
        }
    }

    static func readiness(_ port: Int) async -> HTTPResponse.Status? {
        try? await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            try await client.execute(TestClient.Request("/readyz", method: .get)).status
        }
    }

    @Test(arguments: [false, true])
    func writesSurviveAStoppedDatabase(immediate: Bool) async throws {
        try await withTemporaryDirectory { dir throws in
            let cluster = EmbeddedPostgres(
                configuration: .init(dataDirectory: dir + "/pg", stopTimeout: .seconds(10)), logger: TestPostgres.logger)
            let endpoint = try await cluster.start()
            let database = Database(configuration: .embedded(endpoint, poolSize: 4), logger: TestPostgres.logger, healthCheckTimeout: .seconds(1))
            try await database.whileRunning { database in
                let migrator = Migrator(migrations: try Migration.load(from: TestPostgres.migrationsDirectory), logger: TestPostgres.logger)
                _ = try await migrator.migrate(database.client)
                let runtime = try HearthRuntime.testing(on: database, executor: ExecutorConfiguration(executionTimeout: .seconds(3)))
                let services = runtime.services
                let app = runtime.application()
                try await app.test(.live) { client in
                    let port = try #require(client.port)
                    // The account and household are set up through the services: only the writes below are under test
                    // (their 3 s deadline is too short for a first request while the whole suite loads the machine).
                    let ada = try await services.users.signUp(email: "ada@example.org", password: "correct horse", displayName: "Ada", deviceName: nil)
                    let token = ada.token
                    let household = try await services.households.createHousehold(
                        try await services.households.caller(for: ada.user.id), name: "Home", description: nil, timeZone: "Europe/Berlin").id.uuidString.lowercased()
                    let shared = Shared()

                    // Three writers, 40 creates each, with client ids; every request must come back.
                    let writers = Task {
                        await withTaskGroup(of: Void.self) { group in
                            for writer in 0..<3 {
                                group.addTask {
                                    for index in 0..<40 {
                                        let id = UUID()
                                        do {
                                            let written = try await withTimeout(.seconds(20)) { () async throws -> String? in
                                                let answer = try await Self.post(
                                                    port, "mutation($h: UUID!, $i: TaskInput!) { createTask(householdId: $h, input: $i) { id } }",
                                                    ["h": household, "i": ["id": id.uuidString.lowercased(), "title": "Chore \(writer)-\(index)"]],
                                                    token: token)
                                                return ((answer["data"] as? [String: Any])?["createTask"] as? [String: Any])?["id"] as? String
                                            }
                                            if written == id.uuidString.lowercased() {
                                                shared.acknowledged(id)
                                            } else {
                                                shared.tally.withLock { $0.refused += 1 }
                                            }
                                        } catch is TimeoutError {
                                            shared.tally.withLock { $0.unanswered += 1 }
                                        } catch {
                                            shared.tally.withLock { $0.refused += 1 }  // the connection itself failed: not acknowledged
                                        }
                                    }
                                }
                            }
                        }
                        shared.signal.finish()  // (also ends the wait below if fewer than ten got through)
                    }
                    // The outage begins once ten writes were acknowledged.
                    for await _ in shared.tenAcknowledged { break }
                    let answeredBeforeTheOutage = shared.tally.withLock { $0.acknowledged.count + $0.refused + $0.unanswered }
                    if immediate, let pid = await cluster.serverPID { kill(pid, SIGQUIT) }
                    await cluster.stop()
                    #expect(await Self.readiness(port) == .serviceUnavailable, "readiness says 503 while the database is down")
                    _ = try await cluster.start()
                    // The pool serving a query again is the event readiness waits for.
                    try await database.client.query("SELECT 1", logger: TestPostgres.logger)
                    // Other pooled connections may still be the dead ones: each is dropped at its first use,
                    // as an orchestrator's next probes would find. A few probes at once, no waiting between.
                    var ready = await Self.readiness(port)
                    for _ in 0..<8 where ready != .ok { ready = await Self.readiness(port) }
                    #expect(ready == .ok, "readiness says 200 again")
                    await writers.value

                    let final = shared.tally.withLock { $0 }
                    #expect(final.unanswered == 0, "requests never answered: \(final.unanswered)")
                    #expect(final.acknowledged.count + final.refused == 120)
                    #expect(final.acknowledged.count >= 10)
                    #expect(answeredBeforeTheOutage < 120, "writes were still in flight when the database stopped")
                    let rows = try await database.client.query(
                        "SELECT count(*) FROM task_items WHERE id = ANY(\(Array(final.acknowledged)))", logger: TestPostgres.logger)
                    var present = 0
                    for try await count in rows.decode(Int.self) { present = count }
                    #expect(present == final.acknowledged.count, "acknowledged writes lost: \(final.acknowledged.count - present)")
                }
            }
            await cluster.stop()
        }
    }
}
