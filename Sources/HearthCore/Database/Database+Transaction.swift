import Logging
import Metrics
import PostgresNIO

extension Database {
    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    /// A service's own error thrown inside comes out as itself (not wrapped in PostgresNIO's
    /// `PostgresTransactionError`) once the rollback succeeded, so callers can match on it.
    ///
    /// A deadlock (`40P01`) or serialization failure (`40001`) is PostgreSQL saying "run the
    /// transaction again": the whole of `body` runs again on a fresh transaction, a few times with
    /// jittered back-off (see ``TransactionRetryPolicy``), counted in
    /// `hearth_db_transaction_retries_total{reason}`. When the attempts run out the caller gets a
    /// `CONFLICT` saying to try again, never the database's error. `body` must therefore do nothing
    /// outside the transaction that cannot be done twice (publish and forget caches after it returns).
    public func transaction<Result>(
        logger: Logger,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        var attempt = 1
        while true {
            do {
                return try await client.withTransaction(logger: logger, isolation: isolation, body)
            } catch {
                let failure = Self.unwrapped(error)
                guard let reason = TransactionRetryPolicy.Reason(failure) else { throw failure }
                guard attempt < retryPolicy.attempts else {
                    Counter(label: "hearth_db_transaction_retries_exhausted_total", dimensions: [("reason", reason.rawValue)]).increment()
                    logger.warning("transaction gave up after repeated \(reason.rawValue)s", metadata: [
                        "attempts": "\(attempt)", "error": "\(ErrorText.oneLine(failure))",
                    ])
                    throw ServiceError.transactionContended(attempts: attempt)
                }
                Counter(label: "hearth_db_transaction_retries_total", dimensions: [("reason", reason.rawValue)]).increment()
                if attempt == 1 {
                    logger.debug("transaction retried", metadata: ["reason": "\(reason.rawValue)", "error": "\(ErrorText.oneLine(failure))"])
                }
                try await Task.sleep(for: retryPolicy.delay(beforeAttempt: attempt + 1))
                attempt += 1
            }
        }
    }

    /// Runs `body` in a read-only repeatable-read transaction: every statement it runs on the
    /// connection reads one snapshot, however many write meanwhile (a backup's counts, an export).
    func readingOneSnapshot<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        try await client.withConnection { connection in
            try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            do {
                let result = try await body(connection)
                try await connection.query("COMMIT", logger: logger)
                return result
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// Runs `query` on `connection` when given — inside a transaction, which must never wait for a
    /// second connection from the pool (with every pooled connection in such a wait, none comes) —
    /// else on the pool.
    func query(_ query: PostgresQuery, on connection: PostgresConnection?, logger: Logger) async throws -> PostgresRowSequence {
        if let connection { return try await connection.query(query, logger: logger) }
        return try await client.query(query, logger: logger)
    }

    /// The error a failed transaction stands for: the closure's own when the rollback went well,
    /// else the failed step's.
    static func unwrapped(_ error: any Error) -> any Error {
        guard let error = error as? PostgresTransactionError else { return error }
        if let closureError = error.closureError, error.rollbackError == nil { return closureError }
        return error.commitError ?? error.beginError ?? error
    }
}

/// How often and how patiently a transaction that lost a deadlock or a serialization check is run
/// again: `attempts` in all, waiting a random time up to `baseDelay` doubled per attempt (full
/// jitter, so writers that collided do not collide again in step), at most `maximumDelay`.
public struct TransactionRetryPolicy: Sendable {
    public var attempts: Int
    public var baseDelay: Duration
    public var maximumDelay: Duration

    public init(attempts: Int = 6, baseDelay: Duration = .milliseconds(10), maximumDelay: Duration = .milliseconds(400)) {
        self.attempts = max(1, attempts)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
    }

    /// The wait before attempt `attempt` (2 or more).
    func delay(beforeAttempt attempt: Int) -> Duration {
        let ceiling = min(baseDelay * (1 << min(attempt - 2, 16)), maximumDelay)
        let micros = ceiling.components.seconds * 1_000_000 + ceiling.components.attoseconds / 1_000_000_000_000
        return .microseconds(Int64.random(in: (micros / 4)...max(micros / 4, micros)))
    }

    /// Why PostgreSQL asked for the transaction to be run again.
    public enum Reason: String, Sendable {
        case deadlock
        case serialization

        /// The reason `error` stands for, nil when it is not one to retry.
        init?(_ error: any Error) {
            guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] else { return nil }
            switch state {
            case "40P01": self = .deadlock
            case "40001": self = .serialization
            default: return nil
            }
        }
    }
}

extension ServiceError {
    /// A write that kept colliding with others' (deadlocks, serialization failures) until its
    /// retries ran out: nothing of it was written, and trying again is the remedy.
    static func transactionContended(attempts: Int) -> ServiceError {
        ServiceError(.conflict, "Others were changing the same things at the same moment and this change could not be saved "
                     + "after \(attempts) attempts; nothing was written. Please try again.",
                     details: retryable)
    }
}
