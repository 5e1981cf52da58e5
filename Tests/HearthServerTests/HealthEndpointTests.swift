import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// The health, readiness, admin and metrics endpoints, over real HTTP on 127.0.0.1.
@Suite struct HealthEndpointTests {
    static func app(_ database: Database, adminToken: String? = "s3cret") throws -> some ApplicationProtocol {
        let migrator = Migrator(
            migrations: try Migration.load(from: TestPostgres.migrationsDirectory), logger: TestPostgres.logger)
        return buildApplication(
            configuration: .init(host: "127.0.0.1", port: 0, adminToken: adminToken),
            dependencies: HearthDependencies(
                database: database, migrator: migrator, health: HealthRegistry([database]), metrics: TestMetrics.registry),
            logger: TestPostgres.logger)
    }

    static func body(_ response: TestResponse) -> String { String(buffer: response.body) }

    @Test func livenessAndReadinessOnAMigratedDatabase() async throws {
        try await withTestDatabase { _, endpoint throws in
            // What is checked is the answer, not the database's speed: a whole suite in parallel can
            // hold a migration-state read past the production bound of 2 s.
            let database = Database(configuration: .embedded(endpoint, poolSize: 2), logger: TestPostgres.logger, healthCheckTimeout: .seconds(30))
            try await database.whileRunning { database in try await Self.app(database).test(.live) { client throws in
                let live = try await client.execute(uri: "/healthz", method: .get)
                #expect(live.status == .ok)
                #expect(Self.body(live) == #"{"status":"ok"}"#)
                #expect(live.headers[.init("X-Request-Id")!]?.isEmpty == false)
                let ready = try await client.execute(uri: "/readyz", method: .get)
                #expect(ready.status == .ok)
                #expect(Self.body(ready) == #"{"status":"ready"}"#)
            } }
        }
    }

    @Test func notReadyWhileMigrationsArePending() async throws {
        let endpoint = try await TestPostgres.shared.createDatabase(migrated: false)
        // As above: the reason is checked, not the database's speed under a whole parallel suite.
        let database = Database(configuration: .embedded(endpoint, poolSize: 2), logger: TestPostgres.logger, healthCheckTimeout: .seconds(30))
        try await database.whileRunning { database in try await Self.app(database).test(.live) { client throws in
            let response = try await client.execute(uri: "/readyz", method: .get)
            #expect(response.status == .serviceUnavailable)
            let all = try Migration.load(from: TestPostgres.migrationsDirectory).map { "\($0.version)" }
            #expect(Self.body(response).contains("migrations not applied yet: \(all.joined(separator: ", "))"))
        } }
    }

    @Test func adminHealthNeedsTheToken() async throws {
        try await withTestDatabase { database, _ throws in
            try await Self.app(database).test(.live) { client throws in
                let anonymous = try await client.execute(uri: "/admin/health", method: .get)
                #expect(anonymous.status == .unauthorized)
                let wrong = try await client.execute(uri: "/admin/health", method: .get, headers: [.authorization: "Bearer nope"])
                #expect(wrong.status == .unauthorized)
                let admin = try await client.execute(uri: "/admin/health", method: .get, headers: [.authorization: "Bearer s3cret"])
                #expect(admin.status == .ok)
                let json = try #require(try JSONSerialization.jsonObject(with: Data(Self.body(admin).utf8)) as? [String: Any])
                #expect(json["status"] as? String == "ok")
                #expect((json["installationId"] as? String).flatMap(UUID.init(uuidString:)) != nil)
                let services = try #require(json["services"] as? [[String: Any]])
                #expect(services.count == 1)
                #expect(services.first?["name"] as? String == "database")
                #expect(services.first?["isHealthy"] as? Bool == true)
                #expect((services.first?["errors"] as? [Any])?.isEmpty == true)
                #expect(services.first?["responseTimeMs"] is Double)
                #expect((services.first?["lastChecked"] as? String)?.hasSuffix("Z") == true)
            }
        }
    }

    @Test func adminEndpointsAreClosedWithoutAConfiguredToken() async throws {
        try await withTestDatabase { database, _ throws in
            try await Self.app(database, adminToken: nil).test(.live) { client throws in
                let response = try await client.execute(uri: "/admin/health", method: .get, headers: [.authorization: "Bearer "])
                #expect(response.status == .unauthorized)
                #expect(Self.body(response).contains("HEARTH_ADMIN_TOKEN"))
            }
        }
    }

    @Test func metricsCountRequestsInPrometheusFormat() async throws {
        try await withTestDatabase { database, _ throws in
            try await Self.app(database).test(.live) { client throws in
                _ = try await client.execute(uri: "/healthz", method: .get)
                let metrics = try await client.execute(uri: "/metrics", method: .get)
                #expect(metrics.status == .ok)
                #expect(metrics.headers[.contentType]?.hasPrefix("text/plain") == true)
                let text = Self.body(metrics)
                #expect(text.contains("# TYPE hb_requests counter"))
                #expect(text.contains(#"hb_requests{http_route="/healthz",http_request_method="GET",http_response_status_code="200"}"#))
                #expect(text.contains("http_server_request_duration_bucket"))
            }
        }
    }
}
