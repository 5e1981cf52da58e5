import Foundation
import GraphQLEngine
import HearthCore
import Hummingbird
import Logging
import Prometheus

/// Everything the HTTP layer needs from the rest of Hearth, built once at start-up.
public struct HearthDependencies: Sendable {
    public var database: Database
    public var migrator: Migrator
    public var health: HealthRegistry
    /// The registry swift-metrics was bootstrapped with; `/metrics` prints it.
    public var metrics: PrometheusCollectorRegistry
    /// The executor `/graphql` serves (schema.graphql bound to Hearth's resolvers); without one
    /// the route is absent.
    public var graphQL: Executor?

    public init(
        database: Database, migrator: Migrator, health: HealthRegistry, metrics: PrometheusCollectorRegistry,
        graphQL: Executor? = nil
    ) {
        self.database = database
        self.migrator = migrator
        self.health = health
        self.metrics = metrics
        self.graphQL = graphQL
    }
}

/// Builds Hearth's router: request logging, metrics, health and GraphQL.
public func buildRouter(
    configuration: HearthServerConfiguration, dependencies: HearthDependencies, startedAt: Date = Date()
) -> Router<BasicRequestContext> {
    let router = Router()
    router.middlewares.add(RequestLogMiddleware())
    router.middlewares.add(MetricsMiddleware())
    if !configuration.corsOrigins.isEmpty { router.middlewares.add(CORSPolicyMiddleware(origins: configuration.corsOrigins)) }
    HealthController(
        health: dependencies.health,
        readiness: ReadinessCheck(database: dependencies.database, migrator: dependencies.migrator),
        adminToken: configuration.adminToken, version: configuration.version, startedAt: startedAt
    ).addRoutes(to: router)
    MetricsController(registry: dependencies.metrics).addRoutes(to: router)
    if let executor = dependencies.graphQL {
        GraphQLController(
            executor: executor, configuration: configuration.graphQL,
            persistedQueries: PersistedQueryStore(database: dependencies.database)
        ).addRoutes(to: router)
    }
    return router
}

/// Builds the Hummingbird application. `onServerRunning` receives the bound port (useful with port 0).
public func buildApplication(
    configuration: HearthServerConfiguration,
    dependencies: HearthDependencies,
    logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> Application<RouterResponder<BasicRequestContext>> {
    Application(
        router: buildRouter(configuration: configuration, dependencies: dependencies),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port),
                             serverName: "Hearth/\(configuration.version)"),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: logger)
}
