import Foundation
import GraphQLEngine
import HearthCore
import Hummingbird
import Logging
import Prometheus
import ServiceLifecycle

/// Everything one Hearth process runs, from one configuration: the database pool and its event
/// bus, the caches and services, the GraphQL schema bound to them, the background loops and the
/// HTTP application. `hearth serve` and the tests both build the server through it; tests change
/// only what they must (the clock, the port, bcrypt's cost, intervals).
public struct HearthRuntime: Sendable {
    /// What to build: each part's configuration, and the clock every service tells time by.
    public struct Configuration: Sendable {
        public var server: HearthServerConfiguration
        public var database: DatabaseConfiguration
        /// The services' own (users, households, stores and their feeds, sync, delivery, the clock).
        public var services: HearthServices.Configuration
        public var executor: ExecutorConfiguration
        /// Whether stores are synced on their schedule (the sync loop runs).
        public var syncsStores: Bool
        /// How often the reminder loop looks for due reminders.
        public var reminderPollInterval: Duration

        public init(
            server: HearthServerConfiguration, database: DatabaseConfiguration, services: HearthServices.Configuration = .init(),
            executor: ExecutorConfiguration = ExecutorConfiguration(), syncsStores: Bool = true, reminderPollInterval: Duration = .seconds(15)
        ) {
            self.server = server
            self.database = database
            self.services = services
            self.executor = executor
            self.syncsStores = syncsStores
            self.reminderPollInterval = reminderPollInterval
        }
    }

    public let configuration: Configuration
    public let database: Database
    public let migrator: Migrator
    public let services: HearthServices
    public let schema: HearthGraphQLSchema
    public let dependencies: HearthDependencies
    let logger: Logger

    /// Builds every part (nothing runs yet). The database's statements are bounded by the GraphQL
    /// timeout: no statement outlives the request it serves.
    public init(
        _ configuration: Configuration, schema source: HearthGraphQLSchema.Source, facts: HearthGraphQLSchema.ServerFacts,
        migrations: [Migration], metrics: PrometheusCollectorRegistry, logger: Logger
    ) throws(HearthGraphQLSchema.LoadError) {
        var databaseConfiguration = configuration.database
        databaseConfiguration.boundStatements(by: configuration.executor.executionTimeout)
        try self.init(configuration, database: Database(configuration: databaseConfiguration, logger: logger), schema: source, facts: facts,
                      migrations: migrations, metrics: metrics, logger: logger)
    }

    /// The same on a pool made elsewhere (`configuration.database` describes it, it is not used):
    /// for tests whose pool needs settings no deployment uses.
    public init(
        _ configuration: Configuration, database: Database, schema source: HearthGraphQLSchema.Source, facts: HearthGraphQLSchema.ServerFacts,
        migrations: [Migration], metrics: PrometheusCollectorRegistry, logger: Logger
    ) throws(HearthGraphQLSchema.LoadError) {
        self.configuration = configuration
        self.logger = logger
        let services = HearthServices(database: database, configuration: configuration.services, logger: logger)
        let schema = try HearthGraphQLSchema(source: source, facts: facts, services: services)
        self.database = database
        self.migrator = Migrator(migrations: migrations, logger: logger)
        self.services = services
        self.schema = schema
        let mcp = MCPSessions(configuration: configuration.server.mcp,
                              tools: HearthTools(services: services, logger: logger, callTimeout: configuration.server.mcp.callTimeout),
                              version: configuration.server.version, logger: logger)
        dependencies = HearthDependencies(
            database: database, migrator: migrator, health: services.health, metrics: metrics,
            graphQL: schema.makeExecutor(logger: logger, configuration: configuration.executor), authenticator: .sessions(services.users, services.households), mcp: mcp,
            notificationActions: services.notificationActions, transfers: services.transfers,
            calendarFeeds: services.calendarFeeds, calendars: services.calendars, users: services.users)
    }

    /// The HTTP application; `onServerRunning` receives the bound port (useful with port 0).
    public func application(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> Application<RouterResponder<HearthRequestContext>>
    {
        buildApplication(configuration: configuration.server, dependencies: dependencies, logger: logger, onServerRunning: onServerRunning)
    }

    /// Brings the database up to date and loads the role permissions: what must hold before requests are served.
    public func prepare() async throws {
        let applied = try await migrator.migrate(database.client)
        logger.info("database is current", metadata: ["applied_now": "\(applied.count)", "migrations": "\(migrator.migrations.count)"])
        do {
            let permissions = try await services.households.loadPermissions()
            logger.info("role permissions loaded", metadata: ["roles": "\(permissions.templates.keys.sorted().joined(separator: ","))"])
        } catch let error as PermissionRuleError {
            logger.critical("role_permissions holds a rule Hearth cannot use", metadata: ["problem": "\(error)"])
            throw error
        }
    }

    /// The background loops, each starting once `ready` returns: reminders (with the hourly, leased
    /// pruning of sync tombstones), notification deliveries, and store syncs and scheduled backups when configured.
    /// Run them after the pool and before the HTTP server stops, so no loop is cut off by the pool closing under it.
    public func loops(startWhen ready: @escaping @Sendable () async -> Void) -> [any Service] {
        let sync = services.sync
        let instance = configuration.services.stores.instanceID
        let logger = self.logger
        let housekeeping: @Sendable () async throws -> Void = {
            if let pruned = try await sync.pruneTombstonesIfLeased(instance: instance), pruned > 0 {
                logger.info("old sync tombstones deleted", metadata: ["count": "\(pruned)"])
            }
        }
        var loops: [any Service] = [TaskReminderLoop(tasks: services.tasks, pollInterval: configuration.reminderPollInterval,
                                                     housekeeping: housekeeping, startWhen: ready)]
        loops.append(DeliveryLoop(delivery: services.delivery, startWhen: ready))
        if configuration.syncsStores { loops.append(StoreSyncLoop(stores: services.stores, startWhen: ready)) }
        if let backups = services.backups { loops.append(BackupLoop(backups: backups, startWhen: ready)) }
        return loops
    }

    /// What a process runs, in the order the service group starts them (it stops them in reverse):
    /// `first` (an embedded cluster), the pool, what the services release when all above them
    /// stopped (``shutdown()``), the event bus, the HTTP application, and the background loops, which
    /// start once `ready` returns — so no request, reminder or sync is cut off by the pool closing.
    public func orderedServices(first: [any Service], application: some Service, loopsStartWhen ready: @escaping @Sendable () async -> Void)
        -> [any Service]
    {
        first + [database, Release(runtime: self), database.bus, application] + loops(startWhen: ready)
    }

    /// Waits for the group's shutdown to reach it (everything after it has stopped), then releases
    /// the runtime's clients and sessions; also when the group is cancelled.
    struct Release: Service {
        let runtime: HearthRuntime

        func run() async throws {
            do {
                try await gracefulShutdown()
            } catch {
                // Cancelled: the group is ending on an error; release all the same.
            }
            try await runtime.shutdown()
        }
    }

    /// Releases what outlives the services: the MCP sessions and the HTTP clients of the shops and of delivery.
    public func shutdown() async throws {
        await dependencies.mcp?.closeAll()
        try await services.shutdown()
    }
}
