import Foundation
import GraphQLEngine
import HearthCore
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import NIOCore
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
    /// Turns bearer tokens into callers for `/graphql` over HTTP and WebSocket, and `/mcp`.
    public var authenticator: Authenticator
    /// The documents clients registered by hash (automatic persisted queries), for `/graphql`.
    public var persistedQueries: PersistedQueryStore
    /// What `/readyz` asks: the database answers and its migrations are current.
    public var readiness: ReadinessCheck
    /// The assistants' MCP sessions; without them `/mcp` is absent.
    var mcp: MCPSessions?
    /// What reminders' action links do; without it `/actions/…` is absent.
    var notificationActions: NotificationActionService?
    /// Household export and import; without it `/households/…` is absent.
    var transfers: HouseholdTransferService?
    /// Private calendar feeds; without them `/feeds/…` is absent.
    var calendarFeeds: CalendarFeedService?
    /// The households' calendars over CalDAV; without them (or the accounts) `/dav/…` is absent.
    var calendars: CalendarService?
    /// The accounts, for CalDAV's Basic sign-in; without them `/dav/…` is absent.
    var users: UserService?

    public init(
        database: Database, migrator: Migrator, health: HealthRegistry, metrics: PrometheusCollectorRegistry,
        graphQL: Executor? = nil, authenticator: Authenticator = .noAccounts
    ) {
        self.init(database: database, migrator: migrator, health: health, metrics: metrics, graphQL: graphQL, authenticator: authenticator, mcp: nil,
                  notificationActions: nil)
    }

    init(
        database: Database, migrator: Migrator, health: HealthRegistry, metrics: PrometheusCollectorRegistry,
        graphQL: Executor?, authenticator: Authenticator, mcp: MCPSessions?, notificationActions: NotificationActionService?,
        transfers: HouseholdTransferService? = nil, calendarFeeds: CalendarFeedService? = nil, calendars: CalendarService? = nil, users: UserService? = nil
    ) {
        self.authenticator = authenticator
        self.database = database
        self.migrator = migrator
        self.health = health
        self.metrics = metrics
        self.graphQL = graphQL
        self.persistedQueries = PersistedQueryStore(database: database)
        self.readiness = ReadinessCheck(database: database, migrator: migrator)
        self.mcp = mcp
        self.notificationActions = notificationActions
        self.transfers = transfers
        self.calendarFeeds = calendarFeeds
        self.calendars = calendars
        self.users = users
    }
}

/// Builds Hearth's router: request logging, metrics, health, GraphQL, MCP, reminders' action links,
/// household export and import, calendar feeds, and the household app.
public func buildRouter(
    configuration: HearthServerConfiguration, dependencies: HearthDependencies, startedAt: Date = Date()
) -> Router<HearthRequestContext> {
    let router = Router(context: HearthRequestContext.self)
    router.middlewares.add(RequestLogMiddleware())
    router.middlewares.add(MetricsMiddleware())
    if !configuration.corsOrigins.isEmpty { router.middlewares.add(CORSPolicyMiddleware(origins: configuration.corsOrigins)) }
    if configuration.tls != nil { router.middlewares.add(StrictTransportSecurityMiddleware()) }
    HealthController(
        health: dependencies.health,
        readiness: dependencies.readiness,
        adminToken: configuration.adminToken, version: configuration.version, startedAt: startedAt,
        authenticator: dependencies.authenticator
    ).addRoutes(to: router)
    MetricsController(registry: dependencies.metrics).addRoutes(to: router)
    if let executor = dependencies.graphQL {
        GraphQLController(
            executor: executor, configuration: configuration.graphQL,
            persistedQueries: dependencies.persistedQueries, authenticator: dependencies.authenticator,
            databaseStatus: dependencies.database.status, secure: configuration.tls != nil
        ).addRoutes(to: router)
    }
    if let sessions = dependencies.mcp {
        MCPController(sessions: sessions, authenticator: dependencies.authenticator, configuration: configuration.mcp).addRoutes(to: router)
    }
    if let actions = dependencies.notificationActions { ActionLinkController(actions: actions).addRoutes(to: router) }
    if let transfers = dependencies.transfers {
        HouseholdTransferController(transfers: transfers, authenticator: dependencies.authenticator).addRoutes(to: router)
    }
    if let feeds = dependencies.calendarFeeds { CalendarFeedController(feeds: feeds).addRoutes(to: router) }
    if let calendars = dependencies.calendars, let users = dependencies.users {
        CalDAVController(calendars: calendars, users: users, authenticator: dependencies.authenticator,
                         maximumBody: configuration.graphQL.maxBodyBytes).addRoutes(to: router)
    }
    if let app = configuration.webApp { WebAppController(app: app).addRoutes(to: router) }
    return router
}

/// Builds the Hummingbird application. `onServerRunning` receives the bound port (useful with port 0).
public func buildApplication(
    configuration: HearthServerConfiguration,
    dependencies: HearthDependencies,
    logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> Application<RouterResponder<HearthRequestContext>> {
    let limits = configuration.connections
    let counter = ConnectionCounter()
    let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
        http1: .init(
            idleTimeout: TimeAmount(limits.idleTimeout),
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: limits.maxHeaderBytes, maxHeaderListSize: limits.maxHeaderBytes,
                maxHeaderFieldCount: limits.maxHeaderCount)),
        ws: .init(maxFrameSize: configuration.webSocket.maxMessageBytes))
    let shouldUpgrade = webSocketUpgrade(configuration: configuration, dependencies: dependencies)
    return Application(
        router: buildRouter(configuration: configuration, dependencies: dependencies),
        server: HTTPServerBuilder { responder -> any ServerChildChannel in
            let guarded = GuardedHTTPChannel(
                base: HTTP1WebSocketUpgradeChannel(responder: responder, configuration: channelConfiguration, shouldUpgrade: shouldUpgrade),
                limits: limits, counter: counter)
            guard let certificate = configuration.tls else { return guarded }
            return ReloadableTLSChannel(base: guarded, certificate: certificate)
        },
        configuration: .init(address: .hostname(configuration.host, port: configuration.port),
                             serverName: "Hearth/\(configuration.version)"),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: logger)
}

/// Which requests become WebSockets: `/graphql` with the `graphql-transport-ws` subprotocol.
func webSocketUpgrade(
    configuration: HearthServerConfiguration, dependencies: HearthDependencies
) -> @Sendable (HTTPRequest, any Channel, Logger) async throws -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
    { request, channel, _ in
        // WebSockets on /graphql only (`graphql-transport-ws`); a client that does not offer the
        // subprotocol is closed with 4406, as graphql-ws servers do.
        guard let executor = dependencies.graphQL, let path = request.path, path == "/graphql" || path.hasPrefix("/graphql?")
        else { return .dontUpgrade }
        let offered = (request.headerFields[.secWebSocketProtocol] ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard offered.contains(GraphQLWebSocketSession.subprotocol) else {
            return .upgrade([:]) { inbound, outbound, _ in
                // Answer the client's first message (or its silence until the init timeout).
                let timeout = configuration.webSocket.initTimeout
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        do { for try await _ in inbound.messages(maxSize: 1 << 16) { break } } catch {}
                    }
                    group.addTask { try? await Task.sleep(for: timeout) }
                    await group.next()
                    group.cancelAll()
                }
                try await outbound.close(.unknown(4406), reason: "Subprotocol not acceptable")
            }
        }
        // The token may come with the upgrade; it is checked when the client sends connection_init.
        let authorization = request.headerFields[.authorization]
        let userAgent = request.headerFields[.userAgent]
        let peer = channel.remoteAddress
        return .upgrade([.secWebSocketProtocol: GraphQLWebSocketSession.subprotocol]) { inbound, outbound, context in
            let opened = ContinuousClock.now
            context.logger.info("GraphQL WebSocket opened", metadata: ["client": "\(peer?.hostDescription ?? "-")"])
            defer {
                context.logger.info("GraphQL WebSocket closed", metadata: ["duration": "\(ContinuousClock.now - opened)"])
            }
            let session = GraphQLWebSocketSession(
                executor: executor, configuration: configuration.webSocket, outbound: outbound, logger: context.logger,
                authentication: .init(
                    authenticator: dependencies.authenticator, authorizationHeader: authorization, peer: peer,
                    userAgent: userAgent))
            try await session.run(inbound)
        }
    }
}
