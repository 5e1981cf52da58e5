import Logging
import PostgresNIO

extension Database {
    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    /// A service's own error thrown inside comes out as itself (not wrapped in PostgresNIO's
    /// `PostgresTransactionError`) once the rollback succeeded, so callers can match on it.
    public func transaction<Result>(
        logger: Logger,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        do {
            return try await client.withTransaction(logger: logger, isolation: isolation, body)
        } catch let error as PostgresTransactionError {
            if let closureError = error.closureError, error.rollbackError == nil { throw closureError }
            throw error
        }
    }
}
