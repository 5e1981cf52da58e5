import Crypto
import Foundation
import Logging
import Metrics
import PostgresNIO
import ServiceLifecycle

extension DeliveryService {
    /// Retries stop this long after a delivery was queued.
    static let giveUpAfter: TimeInterval = 24 * 3600
    /// The longest wait between two attempts.
    static let maximumRetryDelay: TimeInterval = 3600

    /// Sends the deliveries that are due, up to `limit`, until none is left: claimed a few at a
    /// time (`FOR UPDATE SKIP LOCKED` and a lease, so with several instances each is attempted by
    /// one at a time), more claimed whenever nothing claimed can start, at most `concurrency` in
    /// flight and at most `perChannel` to any one channel — so a receiver that never answers holds
    /// its own deliveries, not anyone else's. While sends are in flight and nothing is left, what
    /// is queued meanwhile (another person's reminder) is claimed when it is announced, or within
    /// `recheck`, without waiting for the slow sends. Each is settled: sent, retried later with
    /// back-off, or given up. Returns how many were attempted.
    @discardableResult
    public func deliverDue(limit: Int = 10_000, concurrency: Int = 16, perChannel: Int = 8,
                           recheck: Duration = .milliseconds(250)) async throws -> Int {
        let vapid = try await vapid()
        // One writer settles what the sends came to, in batches, while they go on.
        let queue = DeliverySettlementQueue()
        async let written: Void = writeSettlements(queue)
        var attempted = 0
        do {
            // Each child answers the channel of the send it made, or nil when it only waited for news.
            try await withThrowingTaskGroup(of: UUID?.self) { group in
                var running = 0
                var busy: [UUID: Int] = [:]
                // Claimed, not started (newest first): at most two slots' worth, so none waits long on its lease.
                var waiting: [Prepared] = []
                var exhausted = false
                var listening = false
                func startable() -> Int? { waiting.lastIndex { busy[$0.channel, default: 0] < perChannel } }
                while true {
                    // No more claims once the server shuts down: what is in flight finishes.
                    let stopping = Task.isShuttingDownGracefully || Task.isCancelled
                    if !exhausted && !stopping && attempted < limit && running < concurrency && startable() == nil {
                        let full = busy.filter { $0.value >= perChannel }.map(\.key)
                        let claimed = try await claim(min(concurrency * 2, limit - attempted), perChannel: perChannel, excluding: full)
                        attempted += claimed.count
                        exhausted = claimed.isEmpty
                        waiting = claimed.reversed() + waiting
                    }
                    if running < concurrency, let index = startable() {
                        let next = waiting.remove(at: index)
                        running += 1
                        busy[next.channel, default: 0] += 1
                        group.addTask {
                            if let settlement = await self.attempt(next, vapid: vapid) { queue.add(settlement) }
                            return next.channel
                        }
                        continue
                    }
                    guard running > 0 else { break }
                    if exhausted && !listening && !stopping && attempted < limit {
                        listening = true
                        group.addTask {
                            await self.queued.wait(upTo: recheck)
                            return nil
                        }
                    }
                    guard let finished = try await group.next() else { break }
                    if let channel = finished {
                        running -= 1
                        let before = busy[channel, default: 1]
                        busy[channel] = before > 1 ? before - 1 : nil
                        // A channel left out of the last claims (it was full) may have more due now.
                        if before >= perChannel { exhausted = false }
                    } else {
                        listening = false
                        exhausted = false
                    }
                }
                group.cancelAll()
            }
        } catch {
            queue.finish()
            await written
            throw error
        }
        queue.finish()
        await written
        return attempted
    }

    /// What a delivery is for (`deliveries.purpose`): showing its notification, or closing it where
    /// it was shown. One this Hearth does not know fails the claim.
    enum Purpose: String, TextColumn {
        case notify = "NOTIFY"
        case dismiss = "DISMISS"
    }

    /// A claimed delivery with what sending it takes.
    struct Prepared: Sendable {
        var id: Int64
        var channel: UUID
        var attempts: Int
        var giveUpAt: Date
        var purpose: Purpose
        var notification: HouseholdNotification?
        /// Nil when the channel was removed meanwhile (its deliveries went with it).
        var target: Result<ChannelTarget, ServiceError>?
        /// When a reminder's item occurs, for its TTL.
        var occursAt: Date?
    }

    /// Claims up to `count` due deliveries for this instance (a lease of `--delivery-lease`), at
    /// most `perChannel` of one channel and none of the channels `excluding` (those with as many in
    /// flight already), and reads their notifications, channels and items in a statement each.
    private func claim(_ count: Int, perChannel: Int, excluding full: [UUID]) async throws -> [Prepared] {
        let now = clock.now
        let owner = configuration.instanceID
        let rows = try await database.client.query("""
            WITH due AS (
                SELECT id, channel_id, due_at FROM deliveries
                WHERE state = 'PENDING' AND due_at <= \(now) AND (lease_expires_at IS NULL OR lease_expires_at <= \(now))
                  AND channel_id <> ALL(\(full))
                ORDER BY due_at, id LIMIT \(max(1, count) * 4) FOR NO KEY UPDATE SKIP LOCKED),
            picked AS (
                SELECT id FROM (SELECT id, due_at, row_number() OVER (PARTITION BY channel_id ORDER BY due_at, id) AS n FROM due) AS ranked
                WHERE n <= \(perChannel) ORDER BY due_at, id LIMIT \(max(1, count)))
            UPDATE deliveries d SET lease_owner = \(owner), lease_expires_at = \(now.addingTimeInterval(configuration.lease.seconds)),
                attempts = d.attempts + 1
            WHERE d.id IN (SELECT id FROM picked)
            RETURNING d.id, d.notification_id, d.channel_id, d.attempts, d.give_up_at, d.purpose
            """, logger: logger)
        let claimed = try await rows.columns(
            ("id", Int64.self), ("notification_id", UUID.self), ("channel_id", UUID.self), ("attempts", Int.self), ("give_up_at", Date.self),
            ("purpose", Purpose.self)
        ).map { (id: $0.0, notification: $0.1, channel: $0.2, attempts: $0.3, giveUpAt: $0.4, purpose: $0.5) }
        guard !claimed.isEmpty else { return [] }
        let notifications = Dictionary(
            try await NotificationService.notifications(ids: Array(Set(claimed.map(\.notification))), from: database.client, logger: logger).map { ($0.id, $0) },
            uniquingKeysWith: { first, _ in first })
        let targets = try await targets(Array(Set(claimed.map(\.channel))), owner: nil)
        let occurrences = try await occurrences(of: Array(Set(notifications.values.compactMap(\.taskID))))
        return claimed.sorted { $0.id < $1.id }.map { row in
            let notification = notifications[row.notification]
            return Prepared(id: row.id, channel: row.channel, attempts: row.attempts, giveUpAt: row.giveUpAt, purpose: row.purpose,
                            notification: notification,
                            target: targets[row.channel], occursAt: notification?.taskID.flatMap { occurrences[$0] })
        }
    }

    /// Writes each batch as it gathers. A batch that cannot be written is logged: its leases run
    /// out and another round sends those deliveries again (at least once).
    private func writeSettlements(_ queue: DeliverySettlementQueue) async {
        for await _ in queue.rings {
            let batch = queue.take()
            guard !batch.isEmpty else { continue }
            do {
                try await write(batch)
            } catch {
                logger.warning("delivery outcomes not written", metadata: ["count": "\(batch.count)", "error": "\(ErrorText.oneLine(error))"])
            }
        }
    }

    /// One delivery sent, and what it came to; nil when its channel was removed meanwhile (its
    /// deliveries went with it).
    private func attempt(_ delivery: Prepared, vapid: VAPID?) async -> DeliverySettlement? {
        guard let target = delivery.target else { return nil }
        let now = clock.now
        let kind = (try? target.get())?.channel.kind
        guard let notification = delivery.notification else {
            return DeliverySettlement(delivery: delivery.id, state: "FAILED", channel: delivery.channel, kind: kind, notification: nil, outcome: nil, at: now)
        }
        let outcome: DeliveryOutcome
        switch target {
        case .success(let found):
            let payload = delivery.purpose == .dismiss ? DeliveryPayload.dismissal(of: notification.id) : payload(for: notification)
            outcome = await client.send(payload, to: found, vapid: vapid,
                                        options: options(for: notification, occursAt: delivery.occursAt, now: now), now: now)
        case .failure(let problem):
            outcome = DeliveryOutcome(result: .failed, status: nil, latency: .zero, error: problem.message)
        }
        var settlement = DeliverySettlement(delivery: delivery.id, state: "FAILED", channel: delivery.channel, kind: kind,
                                            notification: notification.id, outcome: outcome, at: now)
        switch outcome.result {
        case .sent:
            settlement.state = "SENT"
        case .retry:
            let next = clock.now.addingTimeInterval(max(retryDelay(afterAttempt: delivery.attempts), Double(outcome.retryAfter ?? 0)))
            if next <= delivery.giveUpAt {
                settlement.state = "PENDING"
                settlement.dueAt = next
            }
        case .failed, .gone:
            break
        }
        return settlement
    }

    /// Exponential back-off from `--delivery-retry-base`, doubling per attempt, at most an hour, ±20 % jitter.
    func retryDelay(afterAttempt attempts: Int) -> TimeInterval {
        let base = configuration.retryBase.seconds * pow(2, Double(max(0, attempts - 1)))
        return min(base, Self.maximumRetryDelay) * Double.random(in: 0.8...1.2)
    }

    /// What channels receive about a notification.
    func payload(for notification: HouseholdNotification) -> DeliveryPayload {
        DeliveryPayload(
            id: notification.id, kind: notification.kind.rawValue, title: notification.title, body: notification.body,
            priority: notification.priority.rawValue, householdId: notification.householdID, storeId: notification.storeID,
            taskId: notification.taskID, actions: notification.kind == .reminder ? NotificationAction.allCases.map(\.rawValue) : [],
            actionLinks: configuration.publicURL.flatMap { url in actionLinks.map { $0.links(for: notification, publicURL: url) } } ?? [],
            url: configuration.publicURL.map { $0.appendingPathComponent("notifications").appendingPathComponent(notification.id.lowercasedString).absoluteString })
    }

    /// How long a push service keeps a message for a device that is away: a reminder until its
    /// item's deadline (or start) passes, at least ten minutes; anything else a day. A reminder
    /// replaces an older pending one of the same item, and a store's change summary the older
    /// one of the same store for the same person (Web Push `Topic`).
    func options(for notification: HouseholdNotification, occursAt: Date?, now: Date) -> DeliveryClient.Options {
        var ttl = Self.defaultTimeToLive
        if notification.kind == .reminder, let occursAt {
            ttl = Int(min(max(occursAt.timeIntervalSince(now), Self.shortestReminderTimeToLive), Self.longestTimeToLive))
        }
        let topic: String? = switch notification.kind {
        case .reminder: notification.taskID.map { "r" + $0.uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(31) }
        case .storeChanges: notification.storeID.map { Self.storeTopic(person: notification.userID, store: $0) }
        default: nil
        }
        return DeliveryClient.Options(ttl: ttl, topic: topic)
    }

    /// A store-change push's `Topic`: `s` and the first 31 hex digits of SHA-256 over the
    /// person's and the store's ids (16 bytes each), within Web Push's 32 URL-safe characters.
    static func storeTopic(person: UUID, store: UUID) -> String {
        var bytes = withUnsafeBytes(of: person.uuid) { Data($0) }
        bytes.append(contentsOf: withUnsafeBytes(of: store.uuid) { Data($0) })
        return "s" + SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined().prefix(31)
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
        for (id, occursAt) in try await rows.columns(("id", UUID.self), ("occurs_at", Date.self)) { result[id] = occursAt }
        return result
    }
}
