import Foundation
import PostgresNIO

/// A row that reads an item (without its labels and subtasks, loaded apart) from `columns`.
protocol ItemRow: TypedRow {
    static var columns: String { get }
    var item: TaskItem { get }
}

/// A row of ``TaskService/itemSelect``: the item, without its labels and subtasks (loaded apart).
struct TaskItemRow: ItemRow {
    static var columns: String { TaskService.itemSelect }
    private(set) var item: TaskItem

    init(_ row: inout RowCells) throws {
        item = TaskItem(
            id: try row("id"), householdID: try row("household_id"), kind: try row("kind"), title: try row("title"),
            notes: try row("notes"), priority: try row("priority"), deadline: try row("deadline"),
            estimateMinutes: try row("estimate_minutes"), assigneeID: try row("assignee_id"), startsAt: try row("starts_at"),
            endsAt: try row("ends_at"), location: try row("location"), completedAt: try row("completed_at"), completedBy: try row("completed_by"),
            createdBy: try row("created_by"), createdAt: try row("created_at"), updatedBy: try row("updated_by"), updatedAt: try row("updated_at"),
            labels: [], subtasks: [], reminderID: try row("reminder_id"), remindAt: try row("remind_at"), reminderDueAt: try row("reminder_due_at"),
            version: try row("version"))
        try RepeatColumns.read(&row, into: &item)
    }
}

/// The repetition's columns (``TaskService/repeatSelect``), read onto an item.
enum RepeatColumns {
    static func read(_ row: inout RowCells, into item: inout TaskItem) throws {
        (item.repetition, item.position) = try series(&row) ?? (nil, nil)
        item.rotation = try row("rotation", as: [UUID]?.self)
    }

    /// `repeat_rule, repeat_from, repeat_exceptions, repeat_overrides, repeat_start, occurrence,
    /// occurrences_passed`: how an item repeats and where it stands; nil for one that happens once.
    static func series(_ row: inout RowCells) throws -> (Repetition, Repetition.Position)? {
        let rule: String? = try row("repeat_rule")
        let from: RepeatFrom? = try row("repeat_from")
        let exceptions: [Date] = try row("repeat_exceptions")
        let overrides = try row("repeat_overrides", as: JSONColumn.self)
        let start: Date? = try row("repeat_start")
        let occurrence: Date? = try row("occurrence")
        let passed: Int = try row("occurrences_passed")
        guard let rule, let from, let start, let occurrence else { return nil }
        return (Repetition(rule: rule, from: from, exceptions: exceptions,
                           overrides: try overrides.decode([OccurrenceOverride].self, column: "task_items.repeat_overrides")),
                Repetition.Position(start: start, occurrence: occurrence, passed: passed))
    }
}

/// A row of ``TaskService/itemSummarySelect``: the item as a list shows it, the other fields
/// empty (``TaskDetails/allFields``).
struct TaskSummaryRow: ItemRow {
    static var columns: String { TaskService.itemSummarySelect }
    private(set) var item: TaskItem

    init(_ row: inout RowCells) throws {
        item = TaskItem(
            id: try row("id"), householdID: try row("household_id"), kind: try row("kind"), title: try row("title"),
            notes: nil, priority: try row("priority"), deadline: try row("deadline"), estimateMinutes: nil, assigneeID: nil,
            startsAt: try row("starts_at"), endsAt: try row("ends_at"), location: nil, completedAt: try row("completed_at"), completedBy: nil,
            createdBy: nil, createdAt: Date(timeIntervalSince1970: 0), updatedBy: nil, updatedAt: Date(timeIntervalSince1970: 0),
            labels: [], subtasks: [], reminderID: .zero, remindAt: nil, reminderDueAt: nil,
            version: try row("version"))
        try RepeatColumns.read(&row, into: &item)
    }
}

/// A row of ``TaskService/labelColumns``.
struct TaskLabelRow: TypedRow {
    let label: TaskLabel

    init(_ row: inout RowCells) throws {
        label = TaskLabel(id: try row("id"), householdID: try row("household_id"), name: try row("name"), color: try row("color"),
                          createdAt: try row("created_at"), version: try row("version"))
    }
}

/// A row of ``TaskService/LabelsOfItems``: an item and one of its labels.
struct ItemLabelRow: TypedRow {
    let taskID: UUID
    let label: TaskLabel

    init(_ row: inout RowCells) throws {
        taskID = try row("task_id")
        label = try TaskLabelRow(&row).label
    }
}

/// A row of ``TaskService/SubtasksOfItems``: an item and one of its subtasks.
struct SubtaskRow: TypedRow {
    let taskID: UUID
    let subtask: Subtask

    init(_ row: inout RowCells) throws {
        taskID = try row("task_id")
        subtask = Subtask(id: try row("id"), position: try row("position"), title: try row("title"), done: try row("done"))
    }
}

// An item's kind and priority are stored as their raw values; one Hearth does not know fails the row.
extension TaskKind: TextColumn {}
extension TaskPriority: TextColumn {}
extension RepeatFrom: TextColumn {}

/// A reminder claimed for sending (`id, household_id, reminder_id, title, priority,
/// reminder_due_at, assignee_id` of its item, and whether it is a repeating event).
struct ClaimedReminder: TypedRow {
    let task: UUID
    let household: UUID
    let reminder: UUID
    let title: String
    let priority: TaskPriority
    let due: Date
    let assignee: UUID?
    /// A repeating event: its reminder comes back for the next occurrence.
    let repeats: Bool

    init(_ row: inout RowCells) throws {
        (task, household, reminder, title) = (try row("id"), try row("household_id"), try row("reminder_id"), try row("title"))
        (priority, due, assignee, repeats) = (try row("priority"), try row("reminder_due_at"), try row("assignee_id"), try row("repeats"))
    }
}
