import ArgumentParser
import Foundation
import GraphQLEngine
import HearthCore
import HearthServer
import Logging
import Metrics
import Prometheus
import ServiceLifecycle

/// `hearth serve`: migrate the database and serve HTTP until SIGINT or SIGTERM.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Start the Hearth server.")

    @Option(help: "Address to listen on (env HEARTH_HOST; default 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on, 0 for any free port (env HEARTH_PORT; default 8080).")
    var port: Int?

    @Option(name: .customLong("admin-token"), help: "Bearer token for /admin/* (env HEARTH_ADMIN_TOKEN; prefer the variable: options show in ps).")
    var adminToken: String?

    @Option(name: .customLong("cors-origins"), help: "Comma-separated origins browsers may call Hearth from, * for any (env HEARTH_CORS_ORIGINS; default: none, CORS off).")
    var corsOrigins: String?

    @Option(help: "The GraphQL schema served at /graphql (env HEARTH_SCHEMA; default: schema.graphql found beside the program).")
    var schema: String?

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var graphQLLimits: GraphQLOptions

    @OptionGroup var http: HTTPOptions

    @OptionGroup var users: UsersOptions

    @OptionGroup var households: HouseholdsOptions

    @OptionGroup var stores: StoresOptions

    func run() async throws {
        let env = EnvironmentValue()
        let options = try database.resolve(env)
        let limits = try graphQLLimits.resolve(env)
        let usersConfiguration = try users.resolve(env)
        let householdsConfiguration = try households.resolve(env)
        let storesConfiguration = try stores.resolve(env)
        let server = HearthServerConfiguration(
            host: env.string(host, "HEARTH_HOST") ?? "127.0.0.1",
            port: try env.port(port, "HEARTH_PORT", allowZero: true) ?? 8080,
            adminToken: env.string(adminToken, "HEARTH_ADMIN_TOKEN"),
            graphQL: limits.http,
            corsOrigins: (env.string(corsOrigins, "HEARTH_CORS_ORIGINS") ?? "").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty },
            webSocket: limits.webSocket,
            connections: try http.resolve(env))
        guard let schemaPath = env.string(schema, "HEARTH_SCHEMA") ?? ProjectFiles.locate("schema.graphql", directory: false) else {
            throw ValidationError("cannot find schema.graphql beside hearth; set --schema or HEARTH_SCHEMA")
        }
        let logger = Bootstrap.logging(level: options.logLevel)
        let registry = Bootstrap.metrics()

        try await reportingFailures {
            // Checked before the database starts; bound to the services once they exist.
            let schemaSource = try HearthGraphQLSchema.Source.read(URL(fileURLWithPath: schemaPath))
            let facts = HearthGraphQLSchema.ServerFacts(version: server.version, startedAt: Date())
            let migrations = try Migration.load(from: options.migrationsDirectory)
            let setup = try await DatabaseSetup.start(options, logger: logger)
            do {
                try await setup.run { configuration in
                    try await serve(server, database: configuration, embedded: setup.embedded, migrations: migrations,
                                    graphQL: (schemaSource, facts, limits.executor), users: usersConfiguration,
                                    households: householdsConfiguration, stores: storesConfiguration,
                                    registry: registry, logger: logger)
                }
            } catch {
                throw Self.explain(error, server: server)
            }
        }
    }

    private func serve(
        _ server: HearthServerConfiguration, database configuration: DatabaseConfiguration, embedded: EmbeddedPostgres?,
        migrations: [Migration], graphQL: (source: HearthGraphQLSchema.Source, facts: HearthGraphQLSchema.ServerFacts, executor: ExecutorConfiguration),
        users usersConfiguration: UsersConfiguration, households householdsConfiguration: HouseholdsConfiguration,
        stores storesConfiguration: (stores: StoresConfiguration, client: ShopifyClientConfiguration, loop: Bool), registry: PrometheusCollectorRegistry, logger: Logger
    ) async throws {
        // No statement outlives the request it serves: PostgreSQL cancels it at the GraphQL timeout.
        var configuration = configuration
        configuration.boundStatements(by: graphQL.executor.executionTimeout)
        let database = Database(configuration: configuration, logger: logger)
        let migrator = Migrator(migrations: migrations, logger: logger)
        let households = HouseholdService(database: database, configuration: householdsConfiguration, logger: logger)
        let users = UserService(database: database, configuration: usersConfiguration, logger: logger, accountHooks: households)
        let client = ShopifyClient(configuration: storesConfiguration.client)
        let stores = StoreService(database: database, households: households, client: client, configuration: storesConfiguration.stores, logger: logger)
        let tasks = TaskService(database: database, households: households, cacheTTL: householdsConfiguration.cacheTTL, logger: logger)
        let health = HealthRegistry([database, database.bus, users, households, stores, tasks])
        let schema = try HearthGraphQLSchema(
            source: graphQL.source, facts: graphQL.facts,
            services: HearthServices(users: users, households: households, stores: stores, tasks: tasks, health: health))
        let dependencies = HearthDependencies(
            database: database, migrator: migrator, health: health, metrics: registry,
            graphQL: schema.makeExecutor(logger: logger, configuration: graphQL.executor), authenticator: .sessions(users))
        var app = buildApplication(configuration: server, dependencies: dependencies, logger: logger) { port in
            let line = "hearth \(server.version) listening on http://\(server.host):\(port)\n"
            FileHandle.standardOutput.write(Data(line.utf8))
            logger.info("listening", metadata: ["address": "\(server.host):\(port)"])
        }
        let (migrated, migratedContinuation) = AsyncStream.makeStream(of: Void.self)
        app.beforeServerStarts {
            defer { migratedContinuation.finish() }
            let applied = try await migrator.migrate(database.client)
            logger.info("database is current", metadata: [
                "applied_now": "\(applied.count)", "migrations": "\(migrations.count)",
            ])
            do {
                let permissions = try await households.loadPermissions()
                logger.info("role permissions loaded", metadata: ["roles": "\(permissions.templates.keys.sorted().joined(separator: ","))"])
            } catch let error as PermissionRuleError {
                logger.critical("role_permissions holds a rule Hearth cannot use", metadata: ["problem": "\(error)"])
                throw error
            }
        }
        var services: [any Service] = []
        if let embedded { services.append(EmbeddedPostgresService(cluster: embedded)) }
        services.append(database)
        // One LISTEN connection: other instances' cache drops and store changes come in here.
        services.append(database.bus)
        services.append(app)
        // Reminders are sent once migrations ran; like the sync loop, it stops before the pool closes.
        services.append(TaskReminderLoop(tasks: tasks, startWhen: { for await _ in migrated {} }))
        // Last to start, first to stop: no sync is cut off by the pool closing under it.
        if storesConfiguration.loop {
            // It starts syncing once the migrations ran (the stream ends then, or when start-up failed).
            services.append(StoreSyncLoop(stores: stores) { for await _ in migrated {} })
        }
        // Shutdown runs in reverse: the server drains its requests, then the pool closes,
        // then the embedded cluster stops.
        var groupConfiguration = ServiceGroupConfiguration(
            services: services.map { .init(service: $0) },
            gracefulShutdownSignals: [.sigterm, .sigint],
            cancellationSignals: [],
            logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(8)
        let group = ServiceGroup(configuration: groupConfiguration)
        do {
            try await group.run()
        } catch {
            try? await client.shutdown()
            throw error
        }
        try? await client.shutdown()
        logger.info("stopped")
    }

    /// Gives the errors people hit most a one-line explanation.
    static func explain(_ error: any Error, server: HearthServerConfiguration) -> any Error {
        let text = String(reflecting: error)
        if text.contains("Address already in use") || text.contains("errno: 98") {
            return PlainError("cannot listen on \(server.host):\(server.port): the address is already in use; choose another with --port or HEARTH_PORT")
        }
        if text.contains("Cannot assign requested address") || text.contains("errno: 99") {
            return PlainError("cannot listen on \(server.host):\(server.port): no such address on this machine (--host / HEARTH_HOST)")
        }
        return error
    }
}

struct PlainError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Process-wide set-up done once by each command.
enum Bootstrap {
    static func logging(level: Logger.Level) -> Logger {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var logger = Logger(label: "hearth")
        logger.logLevel = level
        return logger
    }

    static func metrics() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }
}
