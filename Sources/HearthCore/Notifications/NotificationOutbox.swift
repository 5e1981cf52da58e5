import Foundation
import Logging
import PostgresNIO

/// Where notifications are written: the rows and, in the same transaction, the deliveries each
/// recipient's channels are owed (the outbox the delivery loop drains), held back by quiet hours.
enum NotificationOutbox {
    /// Writes one household's notifications (or, `householdID` nil, instance notices) made at `at` (of one store, or of none) and queues
    /// their deliveries to each recipient's enabled channels that take their kind, in the caller's
    /// transaction (the outbox commits with them).
    static func write(_ notifications: [HouseholdNotification], householdID: UUID?, storeID: UUID?, at: Date,
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
            SELECT id, preferences FROM users WHERE id = ANY(\(Array(Set(users)))) AND preferences ? 'quietHours'
              AND preferences->'quietHours' <> 'null'::jsonb
            """, logger: logger)
        var held: [(user: UUID, until: Date)] = []
        for (user, json) in try await rows.columns(("id", UUID.self), ("preferences", JSONColumn.self)) {
            guard let preferences = Preferences.stored(json, of: user, otherwise: "no quiet hours applied", logger: logger),
                  let hours = preferences.quietHours else { continue }
            let until = hours.release(date, in: preferences.timeZone.flatMap(TimeZone.init(identifier:)) ?? .gmt)
            if until > date { held.append((user, until)) }
        }
        return held
    }
}
