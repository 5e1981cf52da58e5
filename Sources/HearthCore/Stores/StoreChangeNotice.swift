import Foundation

/// A committed sync's changes as sent to the other instances over the event bus: ids only, so
/// it stays within PostgreSQL's 8000-byte NOTIFY limit. The events are the store's events in
/// `firstEvent...lastEvent` (one sync of a store runs at a time, so no other sync's events fall
/// in that range); a household with many members sends its notification ids over several notices.
struct StoreChangeNotice: Codable, Sendable, Equatable {
    static let topic = "store-changes"

    var household: UUID
    var store: UUID
    var firstEvent: Int64?
    var lastEvent: Int64?
    var notifications: [UUID]

    /// The notices that carry `batch`: the events with the first, the notifications spread over all.
    static func notices(for batch: StoreChangeBatch) -> [StoreChangeNotice] {
        EventBus.groups(of: batch.notifications.map(\.id)).enumerated().map { index, ids in
            StoreChangeNotice(household: batch.householdID, store: batch.storeID, firstEvent: index == 0 ? batch.eventIDs.min() : nil,
                              lastEvent: index == 0 ? batch.eventIDs.max() : nil, notifications: ids)
        }
    }
}
