import Foundation
import Synchronization

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

/// Fans task changes and fired reminders out to this process's subscribers (`taskChanged`,
/// `reminderDue`, `notificationReceived`); other instances' arrive over the event bus.
public final class TaskChangeFeed: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<TaskFeedEvent>.Continuation]>([:])

    public init() {}

    /// Every event published from now on, until the stream is dropped.
    public func subscribe() -> AsyncStream<TaskFeedEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: TaskFeedEvent.self, bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    func publish(_ event: TaskFeedEvent) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(event) }
    }

    public var subscriberCount: Int { subscribers.withLock { $0.count } }
}

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
