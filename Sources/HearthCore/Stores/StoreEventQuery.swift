import Foundation

/// Which events `events(…)` lists: a household's, optionally of some stores, of some types, since a time.
public struct StoreEventQuery: Sendable, Hashable {
    public var storeIDs: [UUID]?
    public var types: [StoreEventType]?
    public var since: Date?
    public var unreadOnly: Bool

    public init(storeIDs: [UUID]? = nil, types: [StoreEventType]? = nil, since: Date? = nil, unreadOnly: Bool = false) throws(ServiceError) {
        if let storeIDs, storeIDs.count > 100 { throw .invalidInput(field: "storeIds", message: "storeIds may name at most 100 stores.") }
        self.storeIDs = storeIDs
        self.types = types
        self.since = since
        self.unreadOnly = unreadOnly
    }
}
