import Foundation
import PostgresNIO

/// A notification's row (`id, user_id, household_id, store_id, title, body, priority, counts,
/// created_at, read_at, version, kind, task_id, state, micros`), with its cursor key.
struct NotificationRow: TypedRow {
    let notification: HouseholdNotification
    let micros: Int64

    init(_ row: inout RowCells) throws {
        let (id, userID, householdID, storeID): (UUID, UUID, UUID?, UUID?) =
            (try row("id"), try row("user_id"), try row("household_id"), try row("store_id"))
        let (title, body, priority): (String, String, HouseholdNotification.Priority) = (try row("title"), try row("body"), try row("priority"))
        var counts: [StoreEventType: Int] = [:]
        for (key, count) in try row("counts", as: JSONColumn.self).decode([String: Int].self, column: "notifications.counts") {
            guard let type = StoreEventType(rawValue: key) else {
                throw JSONColumn.Malformed(column: "notifications.counts", problem: "\(key) is not a kind of store change")
            }
            counts[type] = count
        }
        notification = HouseholdNotification(
            id: id, userID: userID, householdID: householdID, storeID: storeID, title: title, body: body, priority: priority, counts: counts,
            createdAt: try row("created_at"), readAt: try row("read_at"), version: try row("version"), kind: try row("kind"),
            taskID: try row("task_id"), isDone: try row("state", as: String.self) == "DONE")
        micros = try row("micros")
    }
}

// Stored as their raw values; one this Hearth does not know fails the row.
extension NotificationKind: TextColumn {}
extension HouseholdNotification.Priority: TextColumn {}
