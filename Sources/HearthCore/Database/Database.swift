import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// Hearth's connection pool to PostgreSQL (a PostgresNIO `PostgresClient`).
///
/// Run it as a service (`run()` drives the pool until shutdown); services borrow it to query.
public final class Database: Service, ServiceHealth {
    public let client: PostgresClient
    /// What the pool was made from.
    public let configuration: DatabaseConfiguration
    public let logger: Logger
    /// Messages to and from the other instances on this database; run it as a service to listen.
    public let bus: EventBus
    /// How long a health check may wait for the database before it counts as down.
    public let healthCheckTimeout: Duration
    /// How transactions that lost a deadlock or a serialization check are run again.
    public let retryPolicy: TransactionRetryPolicy
    /// Set while the database is known to be away (the embedded server restarting).
    public let status = DatabaseStatus()

    public init(configuration: DatabaseConfiguration, logger: Logger, healthCheckTimeout: Duration = .seconds(2),
                retryPolicy: TransactionRetryPolicy = TransactionRetryPolicy()) {
        self.client = PostgresClient(configuration: configuration.client, backgroundLogger: logger)
        self.configuration = configuration
        self.logger = logger
        self.bus = EventBus(client: client, logger: logger)
        self.healthCheckTimeout = healthCheckTimeout
        self.retryPolicy = retryPolicy
    }

    /// Drives the pool until the task is cancelled or graceful shutdown begins.
    public func run() async {
        await cancelWhenGracefulShutdown {
            await self.client.run()
        }
    }

    /// Runs `body` with the pool driven by a child task, for short-lived users (commands,
    /// tests) that do not run the database as a service; the pool stops when `body` returns.
    public func whileRunning<T: Sendable>(_ body: (Database) async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await self.client.run() }
            defer { group.cancelAll() }
            return try await body(self)
        }
    }

    public var healthName: String { "database" }

    /// Runs `SELECT 1` within ``healthCheckTimeout``.
    public func performHealthCheck() async -> ServiceHealthStatus {
        let started = ContinuousClock.now
        let checkedAt = Date()
        do {
            try await ping()
            return ServiceHealthStatus(isHealthy: true, lastChecked: checkedAt, responseTime: ContinuousClock.now - started)
        } catch {
            return ServiceHealthStatus(
                isHealthy: false, lastChecked: checkedAt,
                errors: ["database unreachable: \(ErrorText.oneLine(error))"], responseTime: ContinuousClock.now - started)
        }
    }

    /// Throws when the database does not answer `SELECT 1` within ``healthCheckTimeout``.
    public func ping() async throws {
        let client = self.client
        let logger = self.logger
        try await withTimeout(healthCheckTimeout) {
            let rows = try await client.query("SELECT 1", logger: logger)
            for try await _ in rows {}
        }
    }

    /// Whether `error` says the database cannot be reached or is going away (a connection refused
    /// or closed, the server shutting down or starting up): not the request's fault, and over once
    /// the database is back.
    public static func isUnavailable(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .connectionError, .serverClosedConnection, .uncleanShutdown, .poolClosed: return true
        default: break
        }
        guard let state = error.serverInfo?[.sqlState] else { return false }
        // Class 08: connection exceptions; 57P01–57P03: shutdown, crash shutdown, cannot connect now.
        return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
    }
}
