import Foundation
import GraphQLEngine
import HearthCore

/// `schema.graphql`'s root fields for tasks, events, labels, subtasks and reminders, mapped onto
/// ``TaskService`` (which checks every request against the caller's ability); the types they
/// answer with are in `Types/TaskItem+GraphQL.swift`.
enum TaskResolvers {
    /// The `from` and `to` arguments of an agenda (shared with `Household.agenda`).
    static func agendaRange(_ input: FieldInput) throws(ServiceError) -> (from: Date, to: Date) {
        guard let from = input[argument: "from"].dateValue, let to = input[argument: "to"].dateValue else {
            throw ServiceError.invalidInput(field: "from", message: "from and to must be date-times.")
        }
        return (from, to)
    }

    static func register(_ resolvers: inout Resolvers, tasks: TaskService) {
        resolvers.field("Query.tasks") { input in
            let caller = try await input.caller()
            let query = try TaskArguments.query(input[argument: "filter"], sort: input[argument: "sort"])
            return .object(try await tasks.items(caller, householdID: try input.id("householdId"), query: query, page: try input.page(),
                                                 details: TaskArguments.details(input, at: ["edges", "node"])))
        }
        resolvers.field("Query.agenda") { input in
            let caller = try await input.caller()
            let (from, to) = try agendaRange(input)
            return .objects(try await tasks.agenda(caller, householdID: try input.id("householdId"), from: from, to: to,
                                                   details: TaskArguments.details(input)))
        }
        resolvers.field("Query.labels") { input in
            .objects(try await tasks.labels(try await input.caller(), householdID: try input.id("householdId")))
        }
        resolvers.field("Query.task") { input in
            let caller = try await input.caller()
            let id = try input.id("id")
            return .object(try await tasks.item(caller, id: id))
        }
        resolvers.field("Query.occursOn") { input in
            let caller = try await input.caller()
            let household = try input.id("householdId")
            let date = input[argument: "date"].stringValue ?? ""
            return .objects(try await tasks.occursOn(caller, householdID: household, date: date))
        }
        registerMutations(&resolvers, tasks: tasks)
        registerSubscriptions(&resolvers, tasks: tasks)
    }

    private static func registerSubscriptions(_ resolvers: inout Resolvers, tasks: TaskService) {
        resolvers.subscription("Subscription.taskChanged") { input in
            let caller = try await input.caller()
            let household = try input.id("householdId")
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
            let household = input[argument: "householdId"].uuidValue
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

    private static func registerMutations(_ resolvers: inout Resolvers, tasks: TaskService) {
        for (field, kind) in [("Mutation.createTask", TaskKind.task), ("Mutation.createEvent", TaskKind.event)] {
            resolvers.field(field) { input in
                let caller = try await input.caller()
                let household = try input.id("householdId")
                let draft = TaskArguments.draft(input[argument: "input"], kind: kind)
                return .object(try await tasks.createItem(caller, householdID: household, draft: draft))
            }
        }
        item(&resolvers, "Mutation.updateTask", "id") { caller, id, input in
            try await tasks.updateItem(caller, id: id, patch: TaskArguments.patch(input[argument: "input"]),
                                       expectedVersion: input[argument: "expectedVersion"].intValue)
        }
        item(&resolvers, "Mutation.completeTask", "id") { caller, id, _ in try await tasks.completeItem(caller, id: id) }
        item(&resolvers, "Mutation.reopenTask", "id") { caller, id, _ in try await tasks.reopenItem(caller, id: id) }
        item(&resolvers, "Mutation.deleteTask", "id") { caller, id, input in
            try await tasks.deleteItem(caller, id: id, expectedVersion: input[argument: "expectedVersion"].intValue)
        }
        item(&resolvers, "Mutation.addSubtask", "taskId") { caller, id, input in
            try await tasks.addSubtask(caller, taskID: id, title: input[argument: "title"].stringValue ?? "")
        }
        item(&resolvers, "Mutation.updateSubtask", "id") { caller, id, input in
            let done = input[argument: "done"].boolValue
            return try await tasks.updateSubtask(caller, id: id, title: input[argument: "title"].stringValue, done: done)
        }
        item(&resolvers, "Mutation.reorderSubtasks", "taskId") { caller, id, input in
            try await tasks.reorderSubtasks(caller, taskID: id, ids: input[argument: "subtaskIds"].uuids ?? [])
        }
        item(&resolvers, "Mutation.removeSubtask", "id") { caller, id, _ in try await tasks.removeSubtask(caller, id: id) }
        item(&resolvers, "Mutation.snoozeReminder", "taskId") { caller, id, input in
            try await tasks.snoozeReminder(caller, taskID: id, minutes: input[argument: "minutes"].intValue ?? 15)
        }
        resolvers.field("Mutation.createLabel") { input in
            let caller = try await input.caller()
            let household = try input.id("householdId")
            let name = input[argument: "name"].stringValue ?? ""
            let color = input[argument: "color"].stringValue ?? "gray"
            return .object(try await tasks.createLabel(caller, householdID: household, name: name, color: color))
        }
        resolvers.field("Mutation.updateLabel") { input in
            let caller = try await input.caller()
            let id = try input.id("id")
            let (name, color) = (input[argument: "name"].stringValue, input[argument: "color"].stringValue)
            return .object(try await tasks.updateLabel(caller, id: id, name: name, color: color,
                                                       expectedVersion: input[argument: "expectedVersion"].intValue))
        }
        resolvers.field("Mutation.deleteLabel") { input in
            let caller = try await input.caller()
            let id = try input.id("id")
            return .object(try await tasks.deleteLabel(caller, id: id))
        }
    }

    /// A mutation on one item named by the argument `idArgument`, answering the item.
    private static func item(_ resolvers: inout Resolvers, _ field: String, _ idArgument: String,
                             _ body: @escaping @Sendable (Caller, UUID, FieldInput) async throws -> TaskItem) {
        resolvers.field(field) { input in
            let caller = try await input.caller()
            let id = try input.id(idArgument)
            return .object(try await body(caller, id, input))
        }
    }
}
