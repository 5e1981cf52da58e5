import Foundation

/// What happened to a task item, for `taskChanged` subscribers.
public struct TaskChange: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable {
        case created = "CREATED", updated = "UPDATED", completed = "COMPLETED", reopened = "REOPENED", deleted = "DELETED"
    }

    public var kind: Kind
    public var householdID: UUID
    public var taskID: UUID
    /// The item after the change; nil when deleted.
    public var item: TaskItem?
}

/// One message of the tasks feed: a change, or a reminder that fired.
public enum TaskFeedEvent: Sendable {
    case changed(TaskChange)
    case reminder(TaskReminder)
}

/// Task changes and fired reminders for this process's subscribers (`taskChanged`,
/// `reminderDue`, `notificationReceived`).
public typealias TaskChangeFeed = ChangeFeed<TaskFeedEvent>

/// A task change or fired reminder as sent to the other instances: ids only (they read the rest).
struct TaskNotice: Codable, Sendable {
    static let topic = "tasks"

    var household: UUID
    var task: UUID
    /// A change's kind, or nil for a reminder.
    var change: TaskChange.Kind?
    /// A reminder's id, due time and the notifications it left (ids; at most 150 per notice).
    var reminder: UUID?
    var dueAt: Date?
    var notifications: [UUID]?
}
