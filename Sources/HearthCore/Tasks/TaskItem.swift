import Foundation

/// A household's task or event, as stored.
public struct TaskItem: Sendable, Equatable {
    public var id: UUID
    public var householdID: UUID
    public var kind: TaskKind
    /// 1–200 characters, trimmed.
    public var title: String
    public var notes: String?
    public var priority: TaskPriority
    public var deadline: Date?
    public var estimateMinutes: Int?
    public var assigneeID: UUID?
    /// An event's start and end (always set for events); nil for tasks.
    public var startsAt: Date?
    public var endsAt: Date?
    public var location: String?
    public var completedAt: Date?
    public var completedBy: UUID?
    public var createdBy: UUID?
    public var createdAt: Date
    public var updatedBy: UUID?
    public var updatedAt: Date
    public var labels: [TaskLabel]
    public var subtasks: [Subtask]
    /// The reminder's id, the same for the item's whole life.
    public var reminderID: UUID
    /// An explicit reminder time; without one the reminder fires at ``occursAt``.
    public var remindAt: Date?
    /// When the reminder fires next; nil when none is pending (sent, cancelled, or no time).
    public var reminderDueAt: Date?
    /// Grows with every change of the item, its labels or its subtasks (for sync).
    public var version: Int = 0
    /// How the item comes back; nil when it happens once.
    public var repetition: Repetition?
    /// Where a repeating item stands in its series; nil when it happens once.
    public var position: Repetition.Position?
    /// The members who take turns at it, in order (the assignee is the one whose turn it is); nil
    /// without a rotation.
    public var rotation: [UUID]?
    /// The original start of this occurrence, when the item is one occurrence of a repeating
    /// event listed for a window (an agenda); nil for the item itself.
    public var listedOccurrence: Date?

    /// When the item occurs: an event by its start, else a task by its deadline.
    public var occursAt: Date? { startsAt ?? deadline }

    public var isCompleted: Bool { completedAt != nil }

    /// The occurrence the item stands for: a listed occurrence's original start, else a repeating
    /// item's current one; nil for an item that happens once.
    public var occurrence: Date? { listedOccurrence ?? position?.occurrence }

    /// The item as an ability subject (rules match on `householdId`).
    public var subject: AbilitySubject { .ofHousehold("Task", householdID) }
}

/// Which of an item's lists a read fills: each costs one statement for all the items read, so
/// a list that shows only titles asks for none. An item read without one has it empty.
public struct TaskDetails: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let labels = TaskDetails(rawValue: 1)
    public static let subtasks = TaskDetails(rawValue: 2)
    /// Every field of the item. Without it only what a list shows is read (id, household, kind,
    /// title, priority, deadline, start and end, completion time, version): notes, estimate,
    /// assignee, location, completer, reminder and the created and updated stamps are left empty
    /// (nil, the epoch, the zero UUID), for callers that read none of them.
    public static let allFields = TaskDetails(rawValue: 4)
    public static let all: TaskDetails = [.labels, .subtasks, .allFields]
}

/// A household's label: unique by case-insensitive name, coloured `#RRGGBB`.
public struct TaskLabel: Sendable, Equatable {
    public var id: UUID
    public var householdID: UUID
    public var name: String
    public var color: String
    public var createdAt: Date
    /// Grows with every change of the label (for sync).
    public var version: Int = 0

    public var subject: AbilitySubject { .ofHousehold("Label", householdID) }
}

/// One step of a task, in the task's order.
public struct Subtask: Sendable, Equatable {
    public var id: UUID
    public var position: Int
    public var title: String
    public var done: Bool
}
