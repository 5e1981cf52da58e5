import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// Readiness follows the database: a cluster of this test's own is stopped and started again.
@Suite struct ReadinessTests {
    @Test func readinessIs503WhileTheDatabaseIsDown() async throws {
        try await withTemporaryDirectory { dir throws in
            let cluster = EmbeddedPostgres(
                configuration: .init(dataDirectory: dir + "/pg", settings: ["fsync": "off"]), logger: TestPostgres.logger)
            let endpoint = try await cluster.start()
            let database = Database(configuration: .embedded(endpoint, poolSize: 2), logger: TestPostgres.logger,
                                    healthCheckTimeout: .seconds(2))
            let migrator = Migrator(
                migrations: try Migration.load(from: TestPostgres.migrationsDirectory), logger: TestPostgres.logger)
            let app = buildApplication(
                configuration: .init(port: 0, adminToken: "t"),
                dependencies: HearthDependencies(
                    database: database, migrator: migrator, health: HealthRegistry([database]), metrics: TestMetrics.registry),
                logger: TestPostgres.logger)
            do {
            try await database.whileRunning { database throws in
                try await migrator.migrate(database.client)
                try await app.test(.live) { client throws in
                    #expect(try await client.execute(uri: "/readyz", method: .get).status == .ok)

                    await cluster.stop()
                    let down = try await client.execute(uri: "/readyz", method: .get)
                    #expect(down.status == .serviceUnavailable)
                    #expect(String(buffer: down.body).contains("database unreachable"))
                    let admin = try await client.execute(uri: "/admin/health", method: .get, headers: [.authorization: "Bearer t"])
                    #expect(String(buffer: admin.body).contains(#""isHealthy":false"#))
                    #expect(String(buffer: admin.body).contains(#""status":"degraded""#))
                    // Liveness does not depend on the database.
                    #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)

                    _ = try await cluster.start()
                    var status = HTTPResponse.Status.serviceUnavailable
                    for _ in 0..<50 where status != .ok {
                        status = try await client.execute(uri: "/readyz", method: .get).status
                        if status != .ok { try await Task.sleep(for: .milliseconds(100)) }
                    }
                    #expect(status == .ok)
                }
            }
            } catch {
                await cluster.stop()
                throw error
            }
            await cluster.stop()
        }
    }
}
