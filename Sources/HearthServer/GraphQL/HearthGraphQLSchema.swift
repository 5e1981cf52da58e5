import Crypto
import Foundation
import GraphQLEngine
import HearthCore
import Logging

/// `schema.graphql` built by the engine with Hearth's scalars and bound to Hearth's resolvers.
/// Loading fails at start-up, naming every problem (a syntax or schema error with its location,
/// or each schema field without a resolver).
public struct HearthGraphQLSchema: Sendable {
    public let executable: ExecutableSchema

    /// What the resolvers answer with that is fixed for the process.
    public struct ServerFacts: Sendable {
        public var version: String
        public var startedAt: Date

        public init(version: String, startedAt: Date) {
            self.version = version
            self.startedAt = startedAt
        }
    }

    /// Why the schema could not be loaded; the description is what start-up prints.
    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    /// A schema text built (syntax and schema rules checked) but not yet bound: start-up reads it
    /// before starting the database, and binds it once the services exist.
    public struct Source: Sendable {
        public let name: String
        let schema: GraphQLSchema

        /// Builds the schema text `sdl`, read from `name` (used in messages).
        public init(sdl: String, name: String = "schema.graphql") throws(LoadError) {
            self.name = name
            do {
                schema = try SchemaBuilder.build(sdl: sdl, name: name, options: SchemaBuildOptions(scalars: HearthScalars.all))
            } catch {
                throw LoadError(description: "\(name) is not a valid schema:\n\(error.description)")
            }
        }

        /// Reads and builds the schema file at `url`.
        public static func read(_ url: URL) throws(LoadError) -> Source {
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw LoadError(description: "cannot read the GraphQL schema at \(url.path)")
            }
            return try Source(sdl: String(decoding: data, as: UTF8.self), name: url.lastPathComponent)
        }
    }

    /// Binds a built schema to `services`.
    public init(source: Source, facts: ServerFacts, services: HearthServices) throws(LoadError) {
        do {
            executable = try ExecutableSchema(source.schema, resolvers: Self.resolvers(facts, services: services))
        } catch {
            throw LoadError(description: "\(source.name): \(error.description)")
        }
    }

    /// Builds and binds the schema text `sdl` (read from `name`, used in messages) to `services`.
    public init(sdl: String, name: String = "schema.graphql", facts: ServerFacts, services: HearthServices) throws(LoadError) {
        try self.init(source: Source(sdl: sdl, name: name), facts: facts, services: services)
    }

    /// Reads and builds the schema file at `url`.
    public static func load(from url: URL, facts: ServerFacts, services: HearthServices) throws(LoadError) -> HearthGraphQLSchema {
        try HearthGraphQLSchema(source: Source.read(url), facts: facts, services: services)
    }

    /// An executor for this schema whose resolvers' internal errors (hidden from clients) are
    /// logged with the request's logger, so the log line carries the request id.
    public func makeExecutor(logger: Logger, configuration: ExecutorConfiguration = ExecutorConfiguration()) -> Executor {
        Self.executor(executable, logger: logger, configuration: configuration)
    }

    /// The same for any executable schema (tests bind their own resolvers).
    public static func executor(
        _ executable: ExecutableSchema, logger: Logger, configuration: ExecutorConfiguration = ExecutorConfiguration()
    ) -> Executor {
        var configuration = configuration
        // Documents are cached by the SHA-256 of their text: small keys, whatever the document's size.
        if configuration.documentKey == nil { configuration.documentKey = { SHA256.hash(data: Data($0.utf8)).lowercaseHex } }
        configuration.onInternalError = { report in
            let requestLogger = (report.context as? GraphQLRequestContext)?.logger ?? logger
            requestLogger.error(
                "resolver failed", metadata: ["field": "\(report.coordinate)", "error": "\(String(reflecting: report.error))"])
        }
        // The database being away is not the server's bug: the client hears so, and to try again.
        configuration.reportableError = { error in
            Database.isUnavailable(error) ? ServiceError.databaseUnavailable : nil
        }
        return Executor(executable, configuration: configuration)
    }

    /// The resolvers of every field `schema.graphql` declares: the root fields by area
    /// (`Resolvers/`), and a field table per object type (`Types/<Type>+GraphQL.swift`).
    static func resolvers(_ facts: ServerFacts, services: HearthServices) -> Resolvers {
        var resolvers = Resolvers(defaultResolution: .none)
        UserResolvers.register(&resolvers, users: services.users)
        HouseholdResolvers.register(&resolvers, households: services.households, users: services.users)
        HealthResolvers.register(&resolvers, health: services.health)
        StoreResolvers.register(&resolvers, stores: services.stores, tasks: services.tasks)
        TaskResolvers.register(&resolvers, tasks: services.tasks)
        NotificationResolvers.register(&resolvers, notifications: services.notifications)
        SyncResolvers.register(&resolvers, sync: services.sync)
        DeliveryResolvers.register(&resolvers, delivery: services.delivery)
        AccessTokenResolvers.register(&resolvers, users: services.users)
        CalendarFeedResolvers.register(&resolvers, feeds: services.calendarFeeds)
        resolvers.field("Query.serverInfo") { _ in .object(facts) }
        resolvers.subscription("Subscription.heartbeat") { input in
            try heartbeat(every: try input.arguments(HeartbeatArguments.self).intervalSeconds)
        }

        ConnectionFields.registerPageInfo(&resolvers)
        ServerFacts.registerGraphQL(&resolvers)
        ServiceHealthStatus.registerGraphQL(&resolvers)
        User.registerGraphQL(&resolvers, services: services)
        Preferences.registerGraphQL(&resolvers)
        Household.registerGraphQL(&resolvers, services: services)
        Store.registerGraphQL(&resolvers, stores: services.stores)
        Product.registerGraphQL(&resolvers, stores: services.stores)
        StoreEvent.registerGraphQL(&resolvers)
        HouseholdNotification.registerGraphQL(&resolvers)
        TaskItem.registerGraphQL(&resolvers, tasks: services.tasks)
        SyncChange.registerGraphQL(&resolvers)
        DeliveryChannel.registerGraphQL(&resolvers)
        AccessToken.registerGraphQL(&resolvers)
        CalendarFeed.registerGraphQL(&resolvers)
        return resolvers
    }

    /// One beat of `Subscription.heartbeat`.
    struct Heartbeat: Sendable {
        let sequence: Int
        let at: Date
    }

    /// The longest and shortest `heartbeat` intervals, in seconds.
    static let heartbeatIntervals = 1...3600

    /// `heartbeat(intervalSeconds: Int! = 30)`.
    struct HeartbeatArguments: Decodable { var intervalSeconds: Int }

    /// Beats at once, then every `seconds`, until the subscriber leaves.
    static func heartbeat(every seconds: Int) throws -> AsyncThrowingStream<Resolved, any Error> {
        guard heartbeatIntervals.contains(seconds) else {
            throw FieldError("intervalSeconds must be from \(heartbeatIntervals.lowerBound) to \(heartbeatIntervals.upperBound); got \(seconds).")
        }
        return AsyncThrowingStream { continuation in
            let beats = Task {
                var sequence = 0
                repeat {
                    sequence += 1
                    continuation.yield(.object(Heartbeat(sequence: sequence, at: Date())))
                } while (try? await Task.sleep(for: .seconds(seconds))) != nil
                continuation.finish()
            }
            continuation.onTermination = { _ in beats.cancel() }
        }
    }
}
