import Foundation
import GraphQLEngine
import HearthCore

extension TaskItem {
    /// `Task` (tasks and calendar events), `Label`, `Subtask`, and the subscription events
    /// `TaskChangeEvent` and `ReminderDue`.
    static func registerGraphQL(_ resolvers: inout Resolvers, tasks: TaskService) {
        resolvers.object("Task", TaskItem.self) { task in
            task.field("version") { .int($0.version) }
            task.field("id") { .id($0.id) }
            task.field("householdId") { .id($0.householdID) }
            task.field("kind") { .enumeration($0.kind) }
            task.field("title") { .string($0.title) }
            task.field("notes") { .string(orNull: $0.notes) }
            task.field("priority") { .enumeration($0.priority) }
            task.field("deadline") { .date($0.deadline) }
            task.field("estimateMinutes") { .int(orNull: $0.estimateMinutes) }
            task.field("assigneeId") { .id($0.assigneeID) }
            task.field("startsAt") { .date($0.startsAt) }
            task.field("endsAt") { .date($0.endsAt) }
            task.field("location") { .string(orNull: $0.location) }
            task.field("occursAt") { .date($0.occursAt) }
            task.field("completed") { .bool($0.isCompleted) }
            task.field("completedAt") { .date($0.completedAt) }
            task.field("completedBy") { .id($0.completedBy) }
            task.field("labels") { .objects($0.labels) }
            task.field("subtasks") { .objects($0.subtasks) }
            task.field("reminderId") { .id($0.reminderID) }
            task.field("remindAt") { .date($0.remindAt) }
            task.field("reminderDueAt") { .date($0.reminderDueAt) }
            task.field("createdBy") { .id($0.createdBy) }
            task.field("createdAt") { .date($0.createdAt) }
            task.field("updatedBy") { .id($0.updatedBy) }
            task.field("updatedAt") { .date($0.updatedAt) }
            task.field("repeat") { item in
                guard let repetition = item.repetition, let position = item.position else { return .null }
                return .object(RepeatView(repetition: repetition, rule: repetition.recurrenceRule, start: position.start))
            }
            task.field("occurrence") { .date($0.occurrence) }
            task.field("rotation") { item in
                guard let members = item.rotation else { return .null }
                return .object(RotationView(memberIDs: members, current: item.assigneeID))
            }
            task.resolve("completions") { item, input in
                .object(try await tasks.completions(try await input.caller(), taskID: item.id, page: try input.page()))
            }
            // One statement for every repeating task of the level; those that happen once have none.
            task.resolveBatch("upcoming", arguments: FirstArgument.self) { items, arguments, _ in
                let upcoming = try await tasks.upcoming(ofItems: items, first: arguments.first)
                return items.map { .dates(upcoming[$0.id] ?? []) }
            }
            task.resolveBatch("lastCompletion") { items, _ in
                let last = try await tasks.lastCompletions(ofItems: items.filter { $0.repetition != nil }.map(\.id))
                return items.map { .optional(last[$0.id]) }
            }
        }
        ConnectionFields.register(&resolvers, "Task", of: TaskItem.self)
        resolvers.object("Recurrence", RepeatView.self) { recurrence in
            recurrence.field("rule") { .string($0.repetition.rule) }
            recurrence.field("from") { .enumeration($0.repetition.from) }
            recurrence.field("exceptions") { .dates($0.repetition.exceptions) }
            recurrence.field("until") { view in
                guard case .until(let last) = view.rule?.end else { return .null }
                return .date(last)
            }
            recurrence.field("count") { .int(orNull: $0.rule?.count) }
            recurrence.field("start") { .date($0.start) }
            recurrence.field("overrides") { .objects($0.repetition.overrides) }
        }
        resolvers.object("OccurrenceOverride", OccurrenceOverride.self) { change in
            change.field("occurrence") { .date($0.occurrence) }
            change.field("startsAt") { .date($0.startsAt) }
            change.field("endsAt") { .date($0.endsAt) }
            change.field("title") { .string(orNull: $0.title) }
            change.field("notes") { .string(orNull: $0.notes) }
            change.field("location") { .string(orNull: $0.location) }
        }
        resolvers.object("Rotation", RotationView.self) { rotation in
            rotation.field("memberIds") { .value(.list($0.memberIDs.map { .string($0.lowercasedString) })) }
            rotation.field("current") { .id($0.current) }
        }
        resolvers.object("Completion", TaskCompletion.self) { completion in
            completion.field("occurrence") { .date($0.occurrence) }
            completion.field("completedAt") { .date($0.completedAt) }
            completion.field("completedBy") { .id($0.completedBy) }
            completion.field("assigneeId") { .id($0.assigneeID) }
        }
        ConnectionFields.register(&resolvers, "Completion", of: TaskCompletion.self)
        resolvers.object("ChoreStats", ChoreStats.self) { stats in
            stats.field("from") { .date($0.from) }
            stats.field("to") { .date($0.to) }
            stats.field("byMember") { .objects($0.byMember) }
            stats.field("byTask") { .objects($0.byTask) }
        }
        resolvers.object("ChoreCount", ChoreStats.Count.self) { count in
            count.field("userId") { .id($0.userID) }
            count.field("completions") { .int($0.completions) }
        }
        resolvers.object("TaskChoreCount", ChoreStats.TaskCount.self) { count in
            count.field("taskId") { .id($0.taskID) }
            count.field("title") { .string($0.title) }
            count.field("completions") { .int($0.completions) }
            count.field("byMember") { .objects($0.byMember) }
        }
        resolvers.object("Label", TaskLabel.self) { label in
            label.field("version") { .int($0.version) }
            label.field("id") { .id($0.id) }
            label.field("householdId") { .id($0.householdID) }
            label.field("name") { .string($0.name) }
            label.field("color") { .string($0.color) }
        }
        resolvers.object("Subtask", Subtask.self) { subtask in
            subtask.field("id") { .id($0.id) }
            subtask.field("title") { .string($0.title) }
            subtask.field("done") { .bool($0.done) }
            subtask.field("position") { .int($0.position) }
        }
        resolvers.object("TaskChangeEvent", TaskChange.self) { change in
            change.field("change") { .enumeration($0.kind) }
            change.field("householdId") { .id($0.householdID) }
            change.field("taskId") { .id($0.taskID) }
            change.field("task") { .optional($0.item) }
        }
        resolvers.object("ReminderDue", TaskReminder.self) { reminder in
            reminder.field("reminderId") { .id($0.id) }
            reminder.field("taskId") { .id($0.taskID) }
            reminder.field("householdId") { .id($0.householdID) }
            reminder.field("title") { .string($0.title) }
            reminder.field("dueAt") { .date($0.dueAt) }
        }
    }
}

/// A repeating item's `Recurrence`: its repetition, its rule read (for `until` and `count`) and its series' first date.
struct RepeatView: Sendable {
    let repetition: Repetition
    let rule: RecurrenceRule?
    let start: Date
}

/// A task's `Rotation`: its members in order and whose turn it is.
struct RotationView: Sendable {
    let memberIDs: [UUID]
    let current: UUID?
}

/// `Task.upcoming`'s argument.
struct FirstArgument: Decodable, Sendable { var first: Int }
