import Foundation
import Logging
import PostgresNIO

/// A message to one person about one store's changes in one sync.
public struct StoreNotification: Sendable, Equatable {
    public enum Priority: String, Sendable, Comparable {
        case low = "LOW", normal = "NORMAL", high = "HIGH"

        private var rank: Int { self == .low ? 0 : (self == .normal ? 1 : 2) }
        public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rank < rhs.rank }
    }

    public var id: UUID
    public var userID: UUID
    public var householdID: UUID
    public var storeID: UUID?
    /// The store's name, e.g. "Allbirds".
    public var title: String
    /// The counts in words, e.g. "3 price drops, 1 back in stock".
    public var body: String
    public var priority: Priority
    public var counts: [StoreEventType: Int]
    public var createdAt: Date
    public var readAt: Date?
    /// Grows with every change of the record (for sync).
    public var version: Int = 0
    /// What it is about: store changes, a reminder (then `taskID`), a task assigned, membership.
    public var kind: NotificationKind = .storeChanges
    public var taskID: UUID?
    /// DONE once a reminder's item is completed or deleted.
    public var isDone = false
}

extension StoreNotification {
    /// How much one change matters: back in stock and large drops are HIGH; medium price
    /// changes, stock changes, new and removed products NORMAL; small changes and images LOW.
    static func priority(of change: DetectedChange) -> Priority {
        switch change.type {
        case .backInStock: return .high
        case .priceDropped:
            switch change.magnitude {
            case .large?: return .high
            case .medium?: return .normal
            default: return .low
            }
        case .priceIncreased: return change.magnitude == .small ? .low : .normal
        case .outOfStock, .newProduct, .productRemoved: return .normal
        case .imagesChanged: return .low
        }
    }

    /// "3 price drops, 1 back in stock": counts in a fixed order, zero counts left out.
    static func body(_ counts: [StoreEventType: Int]) -> String {
        StoreEventType.allCases.compactMap { type -> String? in
            guard let count = counts[type], count > 0 else { return nil }
            let one = count == 1
            switch type {
            case .priceDropped: return "\(count) price \(one ? "drop" : "drops")"
            case .priceIncreased: return "\(count) price \(one ? "increase" : "increases")"
            case .backInStock: return "\(count) back in stock"
            case .outOfStock: return "\(count) out of stock"
            case .newProduct: return "\(count) new \(one ? "product" : "products")"
            case .productRemoved: return "\(count) \(one ? "product" : "products") removed"
            case .imagesChanged: return "\(count) with new images"
            }
        }.joined(separator: ", ")
    }
}

extension Preferences {
    /// Whether a change gets through this person's switches and price thresholds.
    func wants(_ change: DetectedChange) -> Bool {
        guard notificationsEnabled, notifications[change.type.preference, default: true] else { return false }
        switch change.type {
        case .priceDropped: return Self.passes(change, priceDropThreshold)
        case .priceIncreased: return Self.passes(change, priceIncreaseThreshold)
        default: return true
        }
    }

    /// Absolute thresholds are in currency units (minor units × 100); percentages of the old price.
    static func passes(_ change: DetectedChange, _ threshold: PriceThreshold) -> Bool {
        guard let old = change.oldPrice, let new = change.newPrice else { return true }
        let delta = (new - old).magnitude
        let percent = PriceChangeMagnitude.percent(old: old, new: new)
        switch threshold {
        case .any: return true
        case .atLeast5: return delta >= 500
        case .atLeast10: return delta >= 1000
        case .atLeast25: return delta >= 2500
        case .atLeast10Percent: return percent >= 10
        case .atLeast25Percent: return percent >= 25
        }
    }
}

extension StoreNotification {
    /// Writes one household's notifications made at `at` (of one store, or of none) and queues
    /// their deliveries to each recipient's enabled channels that take their kind, in the caller's
    /// transaction (the outbox commits with them).
    static func insert(_ notifications: [StoreNotification], householdID: UUID, storeID: UUID?, at: Date,
                       on connection: PostgresConnection, logger: Logger) async throws {
        guard !notifications.isEmpty else { return }
        let counts = notifications.map { notification in
            "{" + notification.counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\"\($0.key.rawValue)\":\($0.value)" }.joined(separator: ",") + "}"
        }
        try await connection.query("""
            INSERT INTO notifications (id, user_id, household_id, store_id, title, body, priority, counts, created_at, kind, task_id)
            SELECT n.id, n.user_id, \(householdID), \(storeID), n.title, n.body, n.priority, n.counts::jsonb, \(at), n.kind, NULLIF(n.task_id, '')::uuid
            FROM unnest(\(notifications.map(\.id)), \(notifications.map(\.userID)), \(notifications.map(\.title)), \(notifications.map(\.body)),
                        \(notifications.map(\.priority.rawValue)), \(counts), \(notifications.map(\.kind.rawValue)),
                        \(notifications.map { $0.taskID?.lowercasedString ?? "" })) AS n(id, user_id, title, body, priority, counts, kind, task_id)
            """, logger: logger)
        // Quiet hours hold back all but HIGH notifications until they end, in the person's time zone.
        let held = try await quietUntil(for: notifications.filter { $0.priority != .high }.map(\.userID), at: at, on: connection, logger: logger)
        try await connection.query("""
            INSERT INTO deliveries (notification_id, channel_id, due_at, give_up_at, created_at)
            SELECT n.id, c.id, COALESCE(q.until, \(at)), COALESCE(q.until, \(at)) + make_interval(secs => \(DeliveryService.giveUpAfter)), \(at)
            FROM notifications n JOIN delivery_channels c ON c.user_id = n.user_id AND c.enabled AND (c.kinds IS NULL OR n.kind = ANY(c.kinds))
            LEFT JOIN unnest(\(held.map(\.user)), \(held.map(\.until))) AS q(user_id, until) ON q.user_id = n.user_id AND n.priority <> 'HIGH'
            WHERE n.id = ANY(\(notifications.map(\.id)))
            """, logger: logger)
    }

    /// The people among `users` inside their quiet hours at `date`, with when those end.
    static func quietUntil(for users: [UUID], at date: Date, on connection: PostgresConnection, logger: Logger) async throws -> [(user: UUID, until: Date)] {
        guard !users.isEmpty else { return [] }
        let rows = try await connection.query("""
            SELECT id, preferences::text FROM users WHERE id = ANY(\(Array(Set(users)))) AND preferences ? 'quietHours'
              AND preferences->'quietHours' <> 'null'::jsonb
            """, logger: logger)
        var held: [(user: UUID, until: Date)] = []
        for try await (user, json) in rows.decode((UUID, String).self) {
            guard let preferences = try? Preferences.stored(Data(json.utf8)), let hours = preferences.quietHours else { continue }
            let until = hours.release(date, in: preferences.timeZone.flatMap(TimeZone.init(identifier:)) ?? .gmt)
            if until > date { held.append((user, until)) }
        }
        return held
    }
}
