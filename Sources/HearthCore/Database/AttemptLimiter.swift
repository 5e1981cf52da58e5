import Foundation
import Logging
import PostgresNIO

/// Counts attempts per key (`sign_in_failures`: a scope and a key, such as an email, a client
/// address or a person) and refuses one past a limit within a window: password checks, sign-ups
/// and household imports share it, each under its own scope.
struct AttemptLimiter: Sendable {
    let database: Database
    let clock: any HearthClock
    let logger: Logger

    /// Counts and records one attempt under each key in one transaction, or refuses it (`refusal`
    /// with the seconds to wait) when a key already has `limit` attempts within `window`. Each
    /// key's advisory lock is taken in a fixed order, so concurrent attempts cannot slip past the
    /// limit. Returns when the attempt was recorded.
    func record(
        keys: [(scope: String, key: String)], limit attempts: Int, window: TimeInterval, action: String,
        refusal: (_ retryAfter: Int) -> ServiceError
    ) async throws -> Date {
        let keys = keys.sorted { ($0.scope, $0.key) < ($1.scope, $1.key) }
        let now = clock.now
        let windowStart = now.addingTimeInterval(-window)
        let logger = self.logger
        let retryAfter = try await database.transaction(logger: logger) { connection -> Int? in
            var retryAfter: Int?
            for (scope, key) in keys {
                try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\(scope + ":" + key)))", logger: logger)
                let rows = try await connection.query(
                    """
                    SELECT failed_at FROM sign_in_failures
                    WHERE scope = \(scope) AND key = \(key) AND failed_at > \(windowStart)
                    ORDER BY failed_at DESC LIMIT \(attempts)
                    """, logger: logger)
                var times: [Date] = []
                for try await time in rows.decode(Date.self) { times.append(time) }
                // Limited while the attempts-th most recent one is still in the window.
                guard times.count >= attempts, let oldest = times.last else { continue }
                // (PostgreSQL keeps microseconds: a stored time can read back a fraction of one later.)
                let seconds = Int((oldest.addingTimeInterval(window).timeIntervalSince(now) - 0.000_001).rounded(.up))
                retryAfter = max(retryAfter ?? 0, max(1, seconds))
            }
            if retryAfter != nil { return retryAfter }
            for (scope, key) in keys {
                try await connection.query(
                    "INSERT INTO sign_in_failures (scope, key, failed_at) VALUES (\(scope), \(key), \(now))", logger: logger)
                try await connection.query(
                    "DELETE FROM sign_in_failures WHERE scope = \(scope) AND key = \(key) AND failed_at <= \(windowStart)",
                    logger: logger)
            }
            return nil
        }
        if let retryAfter {
            logger.notice("\(action) refused: too many attempts", metadata: ["retryAfter": "\(retryAfter)"])
            throw refusal(retryAfter)
        }
        return now
    }
}
