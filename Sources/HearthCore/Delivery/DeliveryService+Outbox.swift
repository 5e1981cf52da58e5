import Foundation
import Logging
import Metrics
import PostgresNIO

extension DeliveryService {
    /// Retries stop this long after a delivery was queued.
    static let giveUpAfter: TimeInterval = 24 * 3600
    /// The longest wait between two attempts.
    static let maximumRetryDelay: TimeInterval = 3600

    /// Claims up to `limit` due deliveries (`FOR UPDATE SKIP LOCKED` and a lease, so with several
    /// instances each is attempted by one at a time), sends them at most `concurrency` at once (a
    /// receiver that never answers holds one slot, not the others), and settles each: sent, retried
    /// later with back-off, or given up. Returns how many were attempted.
    @discardableResult
    public func deliverDue(limit: Int = 100, concurrency: Int = 16) async throws -> Int {
        let now = clock.now
        let owner = configuration.instanceID
        let rows = try await database.client.query("""
            UPDATE deliveries d SET lease_owner = \(owner), lease_expires_at = \(now.addingTimeInterval(configuration.lease.seconds)),
                attempts = d.attempts + 1
            WHERE d.id IN (SELECT id FROM deliveries
                           WHERE state = 'PENDING' AND due_at <= \(now) AND (lease_expires_at IS NULL OR lease_expires_at <= \(now))
                           ORDER BY due_at, id LIMIT \(max(1, min(limit, 1000))) FOR UPDATE SKIP LOCKED)
            RETURNING d.id, d.notification_id, d.channel_id, d.attempts, d.give_up_at
            """, logger: logger)
        var claimed: [Claimed] = []
        for try await (id, notification, channel, attempts, giveUpAt) in rows.decode((Int64, UUID, UUID, Int, Date).self) {
            claimed.append(Claimed(id: id, notification: notification, channel: channel, attempts: attempts, giveUpAt: giveUpAt))
        }
        guard !claimed.isEmpty else { return 0 }
        let notifications = Dictionary(
            try await StoreService.notifications(ids: Array(Set(claimed.map(\.notification))), from: database.client, logger: logger).map { ($0.id, $0) },
            uniquingKeysWith: { first, _ in first })
        let targets = try await targets(Array(Set(claimed.map(\.channel))), owner: nil)
        let occurrences = try await occurrences(of: Array(Set(notifications.values.compactMap(\.taskID))))
        let vapid = try await vapid()
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            for delivery in claimed {
                if running == concurrency {
                    await group.next()
                    running -= 1
                }
                running += 1
                group.addTask {
                    let notification = notifications[delivery.notification]
                    await self.attempt(delivery, notification: notification, target: targets[delivery.channel], vapid: vapid,
                                       occursAt: notification?.taskID.flatMap { occurrences[$0] })
                }
            }
        }
        return claimed.count
    }

    struct Claimed: Sendable {
        var id: Int64
        var notification: UUID
        var channel: UUID
        var attempts: Int
        var giveUpAt: Date
    }

    /// One delivery: sent, and settled. Errors are logged: the lease runs out and another round retries.
    private func attempt(_ delivery: Claimed, notification: StoreNotification?, target: Result<ChannelTarget, ServiceError>?,
                         vapid: VAPID?, occursAt: Date?) async {
        do {
            guard let notification else {
                try await settle(delivery, state: "FAILED", status: nil, error: "The notification is gone.", dueAt: nil)
                return
            }
            // A channel removed meanwhile took its deliveries with it.
            guard let target = try target?.get() else { return }
            let now = clock.now
            let outcome = await client.send(payload(for: notification), to: target, vapid: vapid, options: options(for: notification, occursAt: occursAt, now: now), now: now)
            switch outcome.result {
            case .sent:
                try await settle(delivery, state: "SENT", status: outcome.status, error: nil, dueAt: nil)
            case .retry:
                let wait = max(retryDelay(afterAttempt: delivery.attempts), Double(outcome.retryAfter ?? 0))
                let next = clock.now.addingTimeInterval(wait)
                if next > delivery.giveUpAt {
                    try await settle(delivery, state: "FAILED", status: outcome.status, error: outcome.error, dueAt: nil)
                } else {
                    try await settle(delivery, state: "PENDING", status: outcome.status, error: outcome.error, dueAt: next)
                }
            case .failed:
                try await settle(delivery, state: "FAILED", status: outcome.status, error: outcome.error, dueAt: nil)
            case .gone:
                // The push service dropped the subscription: the channel goes (its deliveries with it).
                try await database.client.query("DELETE FROM delivery_channels WHERE id = \(delivery.channel)", logger: logger)
                logger.info("push subscription gone, channel removed", metadata: ["channel": "\(delivery.channel)", "status": "\(outcome.status ?? 0)"])
                Counter(label: "hearth_deliveries_total", dimensions: [("channel", "web_push"), ("outcome", "gone")]).increment()
                return
            }
            try await record(outcome, channel: delivery.channel, kind: target.channel.kind, notification: notification.id, at: now)
        } catch {
            logger.warning("delivery attempt failed", metadata: ["delivery": "\(delivery.id)", "error": "\(Database.describe(error))"])
        }
    }

    /// Writes the outcome while the lease is still this instance's (a delivery taken over after a
    /// lost lease is settled by its new holder).
    private func settle(_ delivery: Claimed, state: String, status: Int?, error: String?, dueAt: Date?) async throws {
        let now = clock.now
        try await database.client.query("""
            UPDATE deliveries SET state = \(state), last_status = \(status), last_error = \(error), due_at = COALESCE(\(dueAt), due_at),
                sent_at = CASE WHEN \(state) = 'SENT' THEN \(now) ELSE sent_at END, lease_owner = NULL, lease_expires_at = NULL
            WHERE id = \(delivery.id) AND lease_owner = \(configuration.instanceID)
            """, logger: logger)
    }

    /// Exponential back-off from `--delivery-retry-base`, doubling per attempt, at most an hour, ±20 % jitter.
    func retryDelay(afterAttempt attempts: Int) -> TimeInterval {
        let base = configuration.retryBase.seconds * pow(2, Double(max(0, attempts - 1)))
        return min(base, Self.maximumRetryDelay) * Double.random(in: 0.8...1.2)
    }

    /// What channels receive about a notification.
    func payload(for notification: StoreNotification) -> DeliveryPayload {
        DeliveryPayload(
            id: notification.id, kind: notification.kind.rawValue, title: notification.title, body: notification.body,
            priority: notification.priority.rawValue, householdId: notification.householdID, storeId: notification.storeID,
            taskId: notification.taskID, actions: notification.kind == .reminder ? ["COMPLETE", "SNOOZE"] : [],
            url: configuration.publicURL.map { $0.appendingPathComponent("notifications").appendingPathComponent(notification.id.lowercasedString).absoluteString })
    }

    /// How long a push service keeps a message for a device that is away: a reminder until its
    /// item's deadline (or start) passes, at least ten minutes; anything else a day. A reminder
    /// replaces an older pending one of the same item (Web Push `Topic`).
    func options(for notification: StoreNotification, occursAt: Date?, now: Date) -> DeliveryClient.Options {
        var ttl = Self.defaultTimeToLive
        if notification.kind == .reminder, let occursAt {
            ttl = Int(min(max(occursAt.timeIntervalSince(now), Self.shortestReminderTimeToLive), Self.longestTimeToLive))
        }
        return DeliveryClient.Options(ttl: ttl, topic: notification.taskID.map { "r" + $0.uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(31) })
    }

    static let defaultTimeToLive = 86_400
    static let shortestReminderTimeToLive: TimeInterval = 600
    /// Push services keep messages about four weeks at most.
    static let longestTimeToLive: TimeInterval = 28 * 86_400

    /// When each item occurs (its start, else its deadline), for the items that have a time.
    private func occurrences(of items: [UUID]) async throws -> [UUID: Date] {
        guard !items.isEmpty else { return [:] }
        let rows = try await database.client.query(
            "SELECT id, occurs_at FROM task_items WHERE id = ANY(\(items)) AND occurs_at IS NOT NULL", logger: logger)
        var result: [UUID: Date] = [:]
        for try await (id, occursAt) in rows.decode((UUID, Date).self) { result[id] = occursAt }
        return result
    }
}
