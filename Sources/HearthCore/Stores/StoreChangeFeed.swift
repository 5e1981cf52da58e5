import Foundation

/// What one committed sync changed, for live subscribers.
public struct StoreChangeBatch: Sendable {
    public var householdID: UUID
    public var storeID: UUID
    /// The change events written, oldest first.
    public var eventIDs: [Int64]
    /// The notifications the sync wrote, one per member at most.
    public var notifications: [HouseholdNotification]
}

/// Committed syncs for this process's subscribers (`storeEvents`, `notificationReceived`).
/// Subscribers read the events themselves, so a batch carries ids only.
public typealias StoreChangeFeed = ChangeFeed<StoreChangeBatch>
