import Foundation
import GraphQLEngine
import HearthCore

/// `schema.graphql`'s root fields for tasks, events, labels, subtasks and reminders, mapped onto
/// ``TaskService`` (which checks every request against the caller's ability); the types they
/// answer with are in `Types/TaskItem+GraphQL.swift`.
enum TaskResolvers {
    static func register(_ resolvers: inout Resolvers, tasks: TaskService) {
        resolvers.field("Query.tasks", arguments: TaskArguments.List.self) { input, arguments in
            let caller = try await input.caller()
            return .object(try await tasks.items(caller, householdID: try input.arguments(HouseholdArgument.self).householdId,
                                                 query: try arguments.query(), page: try input.page(),
                                                 details: TaskArguments.details(input, at: ["edges", "node"])))
        }
        resolvers.field("Query.agenda", arguments: TaskArguments.Agenda.self) { input, arguments in
            let caller = try await input.caller()
            return .objects(try await tasks.agenda(caller, householdID: try input.arguments(HouseholdArgument.self).householdId,
                                                   from: arguments.from, to: arguments.to, details: TaskArguments.details(input)))
        }
        resolvers.field("Query.labels", arguments: HouseholdArgument.self) { input, arguments in
            .objects(try await tasks.labels(try await input.caller(), householdID: arguments.householdId))
        }
        resolvers.field("Query.task", arguments: IDArgument.self) { input, arguments in
            .object(try await tasks.item(try await input.caller(), id: arguments.id))
        }
        resolvers.field("Query.occursOn", arguments: OccursOn.self) { input, arguments in
            .objects(try await tasks.occursOn(try await input.caller(), householdID: arguments.householdId, date: arguments.date))
        }
        resolvers.field("Query.recurrencePreview", arguments: RecurrencePreview.self) { input, arguments in
            _ = try input.signedIn()
            let zone = TimeZone(identifier: try UserInput.timeZone(arguments.timeZone)) ?? .gmt
            let dates = try RecurrenceRule.preview(arguments.rule, start: arguments.start, zone: zone, first: arguments.first)
            return .dates(dates)
        }
        registerMutations(&resolvers, tasks: tasks)
        registerSubscriptions(&resolvers, tasks: tasks)
    }

    private struct OccursOn: Decodable { var householdId: UUID, date: String }
    private struct RecurrencePreview: Decodable { var rule: String, start: Date, timeZone: String, first: Int }
    private struct ReminderDue: Decodable { var householdId: UUID? }

    private static func registerSubscriptions(_ resolvers: inout Resolvers, tasks: TaskService) {
        resolvers.subscription("Subscription.taskChanged") { input in
            let caller = try await input.caller()
            let household = try input.arguments(HouseholdArgument.self).householdId
            // Refused at once when the household cannot be read (NOT_FOUND), as the query would be.
            guard try await tasks.mayReadItems(caller, householdID: household) else {
                throw ServiceError.forbidden("You can't see the tasks of this household.")
            }
            let events = tasks.changes.subscribe()
            return AsyncThrowingStream { continuation in
                let task = Task {
                    for await event in events {
                        guard case .changed(let change) = event, change.householdID == household else { continue }
                        // Membership is checked again per change (the caller made anew): someone removed stops receiving.
                        guard let caller = try? await input.caller(), (try? await tasks.mayReadItems(caller, householdID: household)) == true
                        else { break }
                        continuation.yield(.object(change))
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
        resolvers.subscription("Subscription.reminderDue") { input in
            let caller = try await input.caller()
            let household = try input.arguments(ReminderDue.self).householdId
            if let household { _ = try await tasks.mayReadItems(caller, householdID: household) }
            let events = tasks.changes.subscribe()
            return AsyncThrowingStream { continuation in
                let task = Task {
                    for await event in events {
                        guard case .reminder(let reminder) = event, household.map({ $0 == reminder.householdID }) ?? true,
                              reminder.notifications.contains(where: { $0.userID == caller.userID }) else { continue }
                        continuation.yield(.object(reminder))
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
    }

    private struct CreateItem: Decodable { var householdId: UUID, input: TaskArguments.ItemInput }
    private struct UpdateItem: Decodable { var id: UUID, input: TaskArguments.UpdateInput, expectedVersion: Int? }
    private struct OccurrenceArgument: Decodable { var id: UUID, occurrence: Date? }
    private struct UpdateOccurrence: Decodable { var id: UUID, occurrence: Date, input: TaskArguments.OccurrenceInput, expectedVersion: Int? }
    private struct CancelOccurrence: Decodable { var id: UUID, occurrence: Date, expectedVersion: Int? }
    private struct AddSubtask: Decodable { var taskId: UUID, title: String }
    private struct UpdateSubtask: Decodable { var id: UUID, title: String?, done: Bool? }
    private struct ReorderSubtasks: Decodable { var taskId: UUID, subtaskIds: [UUID] }
    private struct Snooze: Decodable { var taskId: UUID, minutes: Int }
    private struct CreateLabel: Decodable { var householdId: UUID, name: String, color: String }
    private struct UpdateLabel: Decodable { var id: UUID, name: String?, color: String?, expectedVersion: Int? }

    private static func registerMutations(_ resolvers: inout Resolvers, tasks: TaskService) {
        for (field, kind) in [("Mutation.createTask", TaskKind.task), ("Mutation.createEvent", TaskKind.event)] {
            resolvers.field(field, arguments: CreateItem.self) { input, arguments in
                .object(try await tasks.createItem(try await input.caller(), householdID: arguments.householdId,
                                                   draft: arguments.input.draft(kind: kind)))
            }
        }
        item(&resolvers, "Mutation.updateTask", UpdateItem.self) { caller, arguments in
            try await tasks.updateItem(caller, id: arguments.id, patch: arguments.input.patch, expectedVersion: arguments.expectedVersion)
        }
        item(&resolvers, "Mutation.completeTask", OccurrenceArgument.self) { caller, arguments in
            try await tasks.completeItem(caller, id: arguments.id, occurrence: arguments.occurrence)
        }
        item(&resolvers, "Mutation.skipOccurrence", OccurrenceArgument.self) { caller, arguments in
            try await tasks.skipOccurrence(caller, id: arguments.id, occurrence: arguments.occurrence)
        }
        item(&resolvers, "Mutation.updateEventOccurrence", UpdateOccurrence.self) { caller, arguments in
            try await tasks.updateEventOccurrence(caller, id: arguments.id, occurrence: arguments.occurrence, change: arguments.input.change,
                                                  expectedVersion: arguments.expectedVersion)
        }
        item(&resolvers, "Mutation.cancelEventOccurrence", CancelOccurrence.self) { caller, arguments in
            try await tasks.cancelEventOccurrence(caller, id: arguments.id, occurrence: arguments.occurrence, expectedVersion: arguments.expectedVersion)
        }
        item(&resolvers, "Mutation.reopenTask", IDArgument.self) { caller, arguments in try await tasks.reopenItem(caller, id: arguments.id) }
        item(&resolvers, "Mutation.deleteTask", VersionedID.self) { caller, arguments in
            try await tasks.deleteItem(caller, id: arguments.id, expectedVersion: arguments.expectedVersion)
        }
        item(&resolvers, "Mutation.addSubtask", AddSubtask.self) { caller, arguments in
            try await tasks.addSubtask(caller, taskID: arguments.taskId, title: arguments.title)
        }
        item(&resolvers, "Mutation.updateSubtask", UpdateSubtask.self) { caller, arguments in
            try await tasks.updateSubtask(caller, id: arguments.id, title: arguments.title, done: arguments.done)
        }
        item(&resolvers, "Mutation.reorderSubtasks", ReorderSubtasks.self) { caller, arguments in
            try await tasks.reorderSubtasks(caller, taskID: arguments.taskId, ids: arguments.subtaskIds)
        }
        item(&resolvers, "Mutation.removeSubtask", IDArgument.self) { caller, arguments in try await tasks.removeSubtask(caller, id: arguments.id) }
        item(&resolvers, "Mutation.snoozeReminder", Snooze.self) { caller, arguments in
            try await tasks.snoozeReminder(caller, taskID: arguments.taskId, minutes: arguments.minutes)
        }
        resolvers.field("Mutation.createLabel", arguments: CreateLabel.self) { input, arguments in
            .object(try await tasks.createLabel(try await input.caller(), householdID: arguments.householdId,
                                                name: arguments.name, color: arguments.color))
        }
        resolvers.field("Mutation.updateLabel", arguments: UpdateLabel.self) { input, arguments in
            .object(try await tasks.updateLabel(try await input.caller(), id: arguments.id, name: arguments.name, color: arguments.color,
                                                expectedVersion: arguments.expectedVersion))
        }
        resolvers.field("Mutation.deleteLabel", arguments: IDArgument.self) { input, arguments in
            .object(try await tasks.deleteLabel(try await input.caller(), id: arguments.id))
        }
    }

    /// A mutation on one item, answering the item.
    private static func item<Arguments: Decodable & Sendable>(_ resolvers: inout Resolvers, _ field: String, _ type: Arguments.Type,
                                                   _ body: @escaping @Sendable (Caller, Arguments) async throws -> TaskItem) {
        resolvers.field(field, arguments: type) { input, arguments in .object(try await body(try await input.caller(), arguments)) }
    }
}
