import Foundation

/// A committed sync's changes as sent to the other instances over the event bus: ids only, so
/// it stays within PostgreSQL's 8000-byte NOTIFY limit. The events are the store's events in
/// `firstEvent...lastEvent` (one sync of a store runs at a time, so no other sync's events fall
/// in that range); a household with many members sends its notification ids over several notices.
struct StoreChangeNotice: Codable, Sendable, Equatable {
    static let topic = "store-changes"
    /// Notification ids per notice: 150 × 39 bytes stays well under the limit.
    static let notificationsPerNotice = 150

    var household: UUID
    var store: UUID
    var firstEvent: Int64?
    var lastEvent: Int64?
    var notifications: [UUID]

    /// The notices that carry `batch`: the events with the first, the notifications spread over all.
    static func notices(for batch: StoreChangeBatch) -> [StoreChangeNotice] {
        let ids = batch.notifications.map(\.id)
        var notices: [StoreChangeNotice] = []
        var start = 0
        repeat {
            let end = min(start + notificationsPerNotice, ids.count)
            let first = notices.isEmpty
            notices.append(StoreChangeNotice(household: batch.householdID, store: batch.storeID,
                                             firstEvent: first ? batch.eventIDs.min() : nil, lastEvent: first ? batch.eventIDs.max() : nil,
                                             notifications: Array(ids[start..<end])))
            start = end
        } while start < ids.count
        return notices
    }
}
