import Foundation

/// The kinds of record `sync` returns.
public enum SyncType: String, Sendable, CaseIterable {
    case household = "HOUSEHOLD", member = "MEMBER", label = "LABEL", task = "TASK", store = "STORE", product = "PRODUCT"
    case storeEvent = "STORE_EVENT", notification = "NOTIFICATION"

    /// The permission subject type whose `read` rule decides whether a member sees these records.
    var subjectType: String {
        switch self {
        case .household: "Household"
        case .member: "Member"
        case .label: "Label"
        case .task: "Task"
        case .store: "Store"
        case .product: "Product"
        case .storeEvent: "Event"
        case .notification: "Notification"
        }
    }
}

/// A synced record as the ordinary queries show it.
public enum SyncRecord: Sendable {
    case household(Household)
    case member(HouseholdMember)
    case label(TaskLabel)
    case task(TaskItem)
    case store(Store)
    case product(Product)
    case storeEvent(StoreEvent)
    case notification(HouseholdNotification)
}

/// One record's newest change: its version, whether it is deleted, and the record (nil when deleted).
public struct SyncChange: Sendable {
    public var type: SyncType
    /// The record's id (a member's is the person's user id; an event's its number).
    public var id: String
    public var version: Int
    public var deleted: Bool
    public var record: SyncRecord?
}

/// One page of a pull.
public struct SyncPage: Sendable {
    public var changes: [SyncChange]
    /// Pass back as `after`.
    public var cursor: String
    /// Whether to pull again now (this pull is not finished).
    public var hasMore: Bool
    /// The last mutation of the client that `push` processed (0: none).
    public var lastMutationID: Int
}
