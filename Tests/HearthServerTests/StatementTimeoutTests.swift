import Foundation
import GraphQLEngine
import HearthCore
import HearthServer
import HearthTestSupport
import Hummingbird
import HummingbirdTesting
import PostgresNIO
import Synchronization
import Testing

/// The GraphQL timeout bounds SQL too: a resolver whose statement runs past it gets `TIMEOUT`
/// at the deadline, and PostgreSQL itself cancels the statement (SQLSTATE 57014) instead of
/// letting it hold a connection for its whole run. Migrations lift the bound on their own connection.
@Suite struct StatementTimeoutTests {
    @Test func aStatementPastTheDeadlineIsCancelledByPostgreSQL() async throws {
        let endpoint = try await TestPostgres.shared.createDatabase()
        var configuration = DatabaseConfiguration.embedded(endpoint, poolSize: 2)
        configuration.boundStatements(by: .seconds(1))
        try await Database(configuration: configuration, logger: TestPostgres.logger).whileRunning { database in
            // What the sleeping statement ended with, reported by its resolver.
            let (outcomes, report) = AsyncStream.makeStream(of: String.self)
            var resolvers = Resolvers()
            resolvers.field("Query.sleep") { _ in
                // A resolver that ignores cancellation: its statement runs in a task of its own, which
                // the deadline's cancellation does not reach; only PostgreSQL's bound stops it.
                await Task {
                    do {
                        _ = try await database.strings("SELECT pg_sleep(30)::text")
                        report.yield("finished")
                    } catch let error as PSQLError {
                        report.yield(error.serverInfo?[.sqlState] ?? "\(error)")
                    } catch {
                        report.yield("\(error)")
                    }
                }.value
                return .int(1)
            }
            let schema = try SchemaBuilder.build(sdl: "type Query { sleep: Int }")
            let executor = Executor(try ExecutableSchema(schema, resolvers: resolvers), configuration: ExecutorConfiguration(executionTimeout: .seconds(1)))
            let migrator = Migrator(migrations: try Migration.load(from: TestPostgres.migrationsDirectory), logger: TestPostgres.logger)
            let app = buildApplication(
                configuration: .init(host: "127.0.0.1", port: 0),
                dependencies: HearthDependencies(
                    database: database, migrator: migrator, health: HealthRegistry([database]), metrics: TestMetrics.registry,
                    graphQL: executor, authenticator: .noAccounts),
                logger: TestPostgres.logger)
            // A connection is open before the request: under a loaded machine, opening one could
            // take the whole second and the statement would never start.
            #expect(try await database.strings("SELECT 'ready'") == ["ready"])
            try await app.test(.live) { client in
                let response = try await client.execute(
                    uri: "/graphql", method: .post,
                    headers: [.contentType: "application/json", .accept: "application/graphql-response+json"],
                    body: ByteBuffer(string: #"{"query":"{ sleep }"}"#))
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body).contains(#""code":"TIMEOUT""#))
            }
            // The statement's end is the event; 10 s only bounds the wait (without the bound it runs 30 s).
            let outcome = try await withTimeout(.seconds(10)) { await outcomes.first { _ in true } }
            #expect(outcome == "57014", "query_canceled by statement_timeout, not \(outcome ?? "nothing")")
        }
    }

    /// A migration may run longer than the pool's statement timeout; afterwards the connection has it again.
    @Test func migrationsAreNotBoundButTheConnectionIsAfterwards() async throws {
        let endpoint = try await TestPostgres.shared.createDatabase(migrated: false)
        var configuration = DatabaseConfiguration.embedded(endpoint, poolSize: 1)
        configuration.boundStatements(by: .milliseconds(300))
        try await Database(configuration: configuration, logger: TestPostgres.logger).whileRunning { database in
            let slow = Migration(version: 1, name: "slow", fileName: "0001_slow.sql", sql: "SELECT pg_sleep(0.6);\nCREATE TABLE done (id int);")
            let applied = try await Migrator(migrations: [slow], logger: TestPostgres.logger).migrate(database.client)
            #expect(applied == [1])
            #expect(try await database.strings("SHOW statement_timeout") == ["300ms"])
            await #expect(throws: PSQLError.self) { try await database.strings("SELECT pg_sleep(0.6)::text") }
        }
    }
}
