import Foundation

/// A message to one person: a store's changes in one sync, a reminder, a task assigned to them,
/// a change of their membership. Written with its deliveries (``NotificationOutbox``), read and
/// marked read through ``NotificationService``.
public struct HouseholdNotification: Sendable, Equatable {
    public enum Priority: String, Sendable, Comparable {
        case low = "LOW", normal = "NORMAL", high = "HIGH"

        private var rank: Int { self == .low ? 0 : (self == .normal ? 1 : 2) }
        public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rank < rhs.rank }
    }

    public var id: UUID
    public var userID: UUID
    /// Nil for an instance notice (kind ``NotificationKind/instance``), which belongs to no household.
    public var householdID: UUID?
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

extension HouseholdNotification {
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

/// What a notification is about. INSTANCE: a notice to the instance's administrators (a failed
/// backup), of no household; lists leave it out unless asked for by kind.
public enum NotificationKind: String, Sendable, CaseIterable, Codable {
    case storeChanges = "STORE_CHANGES", reminder = "REMINDER", taskAssigned = "TASK_ASSIGNED", membership = "MEMBERSHIP"
    case instance = "INSTANCE"
}
