import Foundation
import Logging
import Metrics
import PostgresNIO
import Synchronization

/// What one attempt came to: the outbox row's new state (for a queued delivery) and the entry
/// in its channel's log and health.
struct DeliverySettlement: Sendable {
    /// The outbox row, when the attempt was a queued delivery (a test message has none).
    var delivery: Int64?
    /// SENT, PENDING (retried at `dueAt`) or FAILED.
    var state: String
    var dueAt: Date?
    var channel: UUID
    /// Nil when the channel could not be read (its secret would not open).
    var kind: DeliveryChannel.Kind?
    var notification: UUID?
    /// Nil when nothing was sent (the notification was gone).
    var outcome: DeliveryOutcome?
    var at: Date
}

/// Settlements waiting to be written, and the doorbell of the one task that writes them: while
/// it writes a batch, the next gathers, so a busy round takes a few statements per batch
/// instead of a transaction per delivery, and a quiet one is written at once.
final class DeliverySettlementQueue: Sendable {
    private let waiting = Mutex<[DeliverySettlement]>([])
    /// Rung after each `add`; ends after `finish()` (a ring still buffered is read first).
    let rings: AsyncStream<Void>
    private let ring: AsyncStream<Void>.Continuation

    init() {
        (rings, ring) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func add(_ settlement: DeliverySettlement) {
        waiting.withLock { $0.append(settlement) }
        ring.yield()
    }

    /// No more will come.
    func finish() { ring.finish() }

    /// Everything added since the last call.
    func take() -> [DeliverySettlement] {
        waiting.withLock { waiting in
            defer { waiting.removeAll() }
            return waiting
        }
    }
}

extension DeliveryService {
    /// Writes a batch of attempts in one transaction: outbox rows settled (while the lease is
    /// still this instance's: a delivery taken over after a lost lease is settled by its new
    /// holder), gone push subscriptions removed, each channel's log (the newest 50 kept) and
    /// health. Then counts them, and switches off channels that failed for a day.
    func write(_ batch: [DeliverySettlement]) async throws {
        let gone = Array(Set(batch.filter { $0.outcome?.result == .gone }.map(\.channel)))
        let settled = try Self.recordset(batch.filter { $0.outcome?.result != .gone }.compactMap { settlement in
            settlement.delivery.map {
                SettledRow(id: $0, state: settlement.state, status: settlement.outcome?.status,
                           error: settlement.outcome == nil ? "The notification is gone." : settlement.outcome?.error,
                           dueAt: settlement.dueAt?.timeIntervalSince1970, at: settlement.at.timeIntervalSince1970)
            }
        })
        let attempts = batch.filter { $0.outcome != nil && $0.outcome?.result != .gone }
        let logged = try Self.recordset(attempts.compactMap { attempt in
            attempt.outcome.map {
                AttemptRow(channel: attempt.channel, notification: attempt.notification, at: attempt.at.timeIntervalSince1970, status: $0.status,
                           latency: Self.milliseconds($0.latency), outcome: $0.result.rawValue, error: $0.error)
            }
        })
        let health = Self.health(of: attempts)
        let healthRows = try Self.recordset(health.map { channel, health in
            HealthRow(id: channel, successAt: health.successAt?.timeIntervalSince1970, failureAt: health.failureAt?.timeIntervalSince1970,
                      failure: health.failure, failures: health.failuresSinceSuccess, failingFrom: health.failingFrom?.timeIntervalSince1970)
        })
        let channels = Array(health.keys)
        let owner = configuration.instanceID
        try await database.transaction(logger: logger) { connection in
            if let settled {
                try await connection.query("""
                    UPDATE deliveries d SET state = u.state, last_status = u.status, last_error = u.error,
                        due_at = COALESCE(to_timestamp(u.due_at), d.due_at),
                        sent_at = CASE WHEN u.state = 'SENT' THEN to_timestamp(u.at) ELSE d.sent_at END, lease_owner = NULL, lease_expires_at = NULL
                    FROM jsonb_to_recordset(\(settled)::jsonb)
                        AS u(id bigint, state text, status integer, error text, due_at double precision, at double precision)
                    WHERE d.id = u.id AND d.lease_owner = \(owner)
                    """, logger: logger)
            }
            if !gone.isEmpty {
                try await connection.query("DELETE FROM delivery_channels WHERE id = ANY(\(gone))", logger: logger)
            }
            guard let logged, let healthRows else { return }
            try await connection.query("""
                INSERT INTO delivery_attempts (channel_id, notification_id, attempted_at, status, latency_ms, outcome, error)
                SELECT u.channel, u.notification, to_timestamp(u.at), u.status, u.latency, u.outcome, u.error
                FROM jsonb_to_recordset(\(logged)::jsonb)
                    AS u(channel uuid, notification uuid, at double precision, status integer, latency integer, outcome text, error text)
                JOIN delivery_channels c ON c.id = u.channel
                """, logger: logger)
            try await connection.query("""
                DELETE FROM delivery_attempts WHERE id IN (
                    SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY channel_id ORDER BY id DESC) AS newest
                                    FROM delivery_attempts WHERE channel_id = ANY(\(channels))) AS ranked
                    WHERE newest > 50)
                """, logger: logger)
            try await connection.query("""
                UPDATE delivery_channels c SET
                    last_success_at = COALESCE(to_timestamp(u.success_at), c.last_success_at),
                    last_failure_at = COALESCE(to_timestamp(u.failure_at), c.last_failure_at),
                    last_failure = COALESCE(u.failure, c.last_failure),
                    consecutive_failures = CASE WHEN u.success_at IS NOT NULL THEN u.failures ELSE c.consecutive_failures + u.failures END,
                    failing_since = CASE WHEN u.failures = 0 THEN NULL
                                         WHEN u.success_at IS NOT NULL THEN to_timestamp(u.failing_from)
                                         ELSE COALESCE(c.failing_since, to_timestamp(u.failing_from)) END
                FROM jsonb_to_recordset(\(healthRows)::jsonb)
                    AS u(id uuid, success_at double precision, failure_at double precision, failure text, failures integer, failing_from double precision)
                WHERE c.id = u.id
                """, logger: logger)
        }
        for attempt in attempts {
            guard let outcome = attempt.outcome else { continue }
            Counter(label: "hearth_deliveries_total", dimensions: [("channel", attempt.kind?.rawValue.lowercased() ?? "unknown"), ("outcome", outcome.result.rawValue.lowercased())])
                .increment()
        }
        for channel in gone {
            Counter(label: "hearth_deliveries_total", dimensions: [("channel", "web_push"), ("outcome", "gone")]).increment()
            logger.info("push subscription gone, channel removed", metadata: ["channel": "\(channel)"])
        }
        // Only notifications count toward switching a channel off (a failed test message does not).
        let failing = Set(attempts.filter { $0.notification != nil && $0.outcome?.result != .sent }.map(\.channel))
        try await disableChannelsFailingForADay(failing.filter { (health[$0]?.failuresSinceSuccess ?? 0) > 0 }, at: clock.now)
    }

    private struct SettledRow: Encodable {
        var id: Int64, state: String, status: Int?, error: String?, dueAt: Double?, at: Double
    }

    private struct AttemptRow: Encodable {
        var channel: UUID, notification: UUID?, at: Double, status: Int?, latency: Int, outcome: String, error: String?
    }

    private struct HealthRow: Encodable {
        var id: UUID, successAt: Double?, failureAt: Double?, failure: String?, failures: Int, failingFrom: Double?
    }

    /// Rows as a JSON array for `jsonb_to_recordset` (snake-case keys; nil values left out,
    /// which it reads as NULL); nil when there are none.
    private static func recordset<Row: Encodable>(_ rows: [Row]) throws -> String? {
        guard !rows.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return String(decoding: try encoder.encode(rows), as: UTF8.self)
    }

    /// A channel's attempts of one batch, in order, as its health sees them.
    struct BatchHealth {
        var successAt: Date?
        var failureAt: Date?
        var failure: String?
        /// Failures after the batch's last success (all of them when none succeeded).
        var failuresSinceSuccess = 0
        /// The first of those.
        var failingFrom: Date?
    }

    static func health(of attempts: [DeliverySettlement]) -> [UUID: BatchHealth] {
        var result: [UUID: BatchHealth] = [:]
        for attempt in attempts {
            guard let outcome = attempt.outcome else { continue }
            var health = result[attempt.channel, default: BatchHealth()]
            if outcome.result == .sent {
                health.successAt = attempt.at
                health.failuresSinceSuccess = 0
                health.failingFrom = nil
            } else {
                health.failureAt = attempt.at
                health.failure = outcome.error ?? outcome.result.rawValue
                health.failuresSinceSuccess += 1
                health.failingFrom = health.failingFrom ?? attempt.at
            }
            result[attempt.channel] = health
        }
        return result
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000) + Int(duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
