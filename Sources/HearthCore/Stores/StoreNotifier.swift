import Foundation
import Logging
import PostgresNIO

/// Turns one sync's changes into at most one notification per member of the store's household,
/// each filtered by that member's preferences, written in the sync's transaction.
struct StoreNotifier {
    let store: ClaimedStore
    let now: Date
    let connection: PostgresConnection
    let logger: Logger

    func notifyMembers(of changes: [DetectedChange]) async throws -> [HouseholdNotification] {
        guard !changes.isEmpty else { return [] }
        let rows = try await connection.query("""
            SELECT m.user_id, u.preferences FROM household_members m JOIN users u ON u.id = m.user_id
            WHERE m.household_id = \(store.householdID) ORDER BY m.user_id
            """, logger: logger)
        var notifications: [HouseholdNotification] = []
        for (userID, json) in try await rows.columns(("user_id", UUID.self), ("preferences", JSONColumn.self)) {
            let preferences = Preferences.stored(json, of: userID, otherwise: "notifying with defaults", logger: logger) ?? Preferences()
            var counts: [StoreEventType: Int] = [:]
            var priority = HouseholdNotification.Priority.low
            for change in changes where preferences.wants(change) {
                counts[change.type, default: 0] += 1
                priority = max(priority, HouseholdNotification.priority(of: change))
            }
            guard !counts.isEmpty else { continue }
            notifications.append(HouseholdNotification(id: UUID(), userID: userID, householdID: store.householdID, storeID: store.id, title: store.name,
                                                       body: HouseholdNotification.body(counts), priority: priority, counts: counts, createdAt: now))
        }
        try await NotificationOutbox.write(notifications, householdID: store.householdID, storeID: store.id, at: now,
                                           on: connection, logger: logger)
        return notifications
    }
}
