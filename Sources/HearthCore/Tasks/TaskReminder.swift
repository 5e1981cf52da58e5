import Foundation

/// A reminder that fired: the item it is about and the notifications it left, one per recipient
/// (the assignee, or every member when the item has none).
public struct TaskReminder: Sendable, Equatable {
    /// Stable for the item's life: snoozing or moving the item keeps it.
    public var id: UUID
    public var taskID: UUID
    public var householdID: UUID
    public var title: String
    /// When it was due.
    public var dueAt: Date
    public var notifications: [HouseholdNotification]
}
