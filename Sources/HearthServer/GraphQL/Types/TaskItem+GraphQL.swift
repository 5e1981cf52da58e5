import Foundation
import GraphQLEngine
import HearthCore

extension TaskItem {
    /// `Task` (tasks and calendar events), `Label`, `Subtask`, and the subscription events
    /// `TaskChangeEvent` and `ReminderDue`.
    static func registerGraphQL(_ resolvers: inout Resolvers) {
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
        }
        ConnectionFields.register(&resolvers, "Task", of: TaskItem.self)
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
