import Foundation
import GraphQLEngine
import HearthCore

/// `schema.graphql`'s tasks, events, labels, subtasks and reminders, mapped onto ``TaskService``
/// (which checks every request against the caller's ability).
enum TaskResolvers {
    static let plainTypes: Set<String> = ["Task", "Label", "Subtask", "TaskConnection", "TaskEdge", "TaskChangeEvent", "ReminderDue"]

    static func register(_ resolvers: inout Resolvers, tasks: TaskService) {
        // The root fields take the household as an argument; the same fields of `Household` take it from their parent.
        @Sendable func taskPage(_ input: FieldInput, _ household: UUID) async throws -> Resolved {
            let actor = try input.signedIn().user.id
            let query = try TaskValues.query(input[argument: "filter"], sort: input[argument: "sort"])
            let page = try await tasks.items(actor: actor, householdID: household, query: query, page: try HouseholdValues.page(input))
            return .value(HouseholdValues.connection(page, TaskValues.task))
        }
        @Sendable func agenda(_ input: FieldInput, _ household: UUID) async throws -> Resolved {
            let actor = try input.signedIn().user.id
            guard let from = TaskValues.date(input[argument: "from"]), let to = TaskValues.date(input[argument: "to"]) else {
                throw ServiceError.invalidInput(field: "from", message: "from and to must be date-times.")
            }
            let items = try await tasks.agenda(actor: actor, householdID: household, from: from, to: to)
            return .value(.list(items.map(TaskValues.task)))
        }
        @Sendable func labels(_ input: FieldInput, _ household: UUID) async throws -> Resolved {
            let actor = try input.signedIn().user.id
            let labels = try await tasks.labels(actor: actor, householdID: household)
            return .value(.list(labels.map(TaskValues.label)))
        }
        resolvers.field("Query.tasks") { input in try await taskPage(input, try HouseholdValues.id(input, "householdId")) }
        resolvers.field("Household.tasks") { input in try await taskPage(input, try HouseholdValues.parentID(input)) }
        resolvers.field("Query.agenda") { input in try await agenda(input, try HouseholdValues.id(input, "householdId")) }
        resolvers.field("Household.agenda") { input in try await agenda(input, try HouseholdValues.parentID(input)) }
        resolvers.field("Query.labels") { input in try await labels(input, try HouseholdValues.id(input, "householdId")) }
        resolvers.field("Household.labels") { input in try await labels(input, try HouseholdValues.parentID(input)) }
        resolvers.field("Query.task") { input in
            let actor = try input.signedIn().user.id
            let id = try HouseholdValues.id(input, "id")
            return .value(TaskValues.task(try await tasks.item(actor: actor, id: id)))
        }
        resolvers.field("Query.occursOn") { input in
            let actor = try input.signedIn().user.id
            let household = try HouseholdValues.id(input, "householdId")
            let date = UserValues.string(input[argument: "date"]) ?? ""
            let items = try await tasks.occursOn(actor: actor, householdID: household, date: date)
            return .value(.list(items.map(TaskValues.task)))
        }
        registerMutations(&resolvers, tasks: tasks)
        registerSubscriptions(&resolvers, tasks: tasks)
    }

    private static func registerSubscriptions(_ resolvers: inout Resolvers, tasks: TaskService) {
        resolvers.subscription("Subscription.taskChanged") { input in
            let actor = try input.signedIn().user.id
            let household = try HouseholdValues.id(input, "householdId")
            // Refused at once when the household cannot be read (NOT_FOUND), as the query would be.
            guard try await tasks.mayReadItems(actor: actor, householdID: household) else {
                throw ServiceError.forbidden("You can't see the tasks of this household.")
            }
            let events = tasks.changes.subscribe()
            return AsyncThrowingStream { continuation in
                let task = Task {
                    for await event in events {
                        guard case .changed(let change) = event, change.householdID == household else { continue }
                        // Membership is checked again per change: someone removed stops receiving.
                        guard (try? await tasks.mayReadItems(actor: actor, householdID: household)) == true else { break }
                        continuation.yield(.value([
                            "change": .string(change.kind.rawValue), "householdId": TaskValues.id(change.householdID),
                            "taskId": TaskValues.id(change.taskID), "task": change.item.map(TaskValues.task) ?? .null,
                        ]))
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
        resolvers.subscription("Subscription.reminderDue") { input in
            let actor = try input.signedIn().user.id
            let household = UserValues.uuid(input[argument: "householdId"])
            if let household { _ = try await tasks.mayReadItems(actor: actor, householdID: household) }
            let events = tasks.changes.subscribe()
            return AsyncThrowingStream { continuation in
                let task = Task {
                    for await event in events {
                        guard case .reminder(let reminder) = event, household.map({ $0 == reminder.householdID }) ?? true,
                              reminder.notifications.contains(where: { $0.userID == actor }) else { continue }
                        continuation.yield(.value([
                            "reminderId": TaskValues.id(reminder.id), "taskId": TaskValues.id(reminder.taskID),
                            "householdId": TaskValues.id(reminder.householdID), "title": .string(reminder.title),
                            "dueAt": StoreValues.date(reminder.dueAt),
                        ]))
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
                let actor = try input.signedIn().user.id
                let household = try HouseholdValues.id(input, "householdId")
                let draft = TaskValues.draft(input[argument: "input"], kind: kind)
                return .value(TaskValues.task(try await tasks.createItem(actor: actor, householdID: household, draft: draft)))
            }
        }
        item(&resolvers, "Mutation.updateTask", "id") { actor, id, input in
            try await tasks.updateItem(actor: actor, id: id, patch: TaskValues.patch(input[argument: "input"]))
        }
        item(&resolvers, "Mutation.completeTask", "id") { actor, id, _ in try await tasks.completeItem(actor: actor, id: id) }
        item(&resolvers, "Mutation.reopenTask", "id") { actor, id, _ in try await tasks.reopenItem(actor: actor, id: id) }
        item(&resolvers, "Mutation.deleteTask", "id") { actor, id, _ in try await tasks.deleteItem(actor: actor, id: id) }
        item(&resolvers, "Mutation.addSubtask", "taskId") { actor, id, input in
            try await tasks.addSubtask(actor: actor, taskID: id, title: UserValues.string(input[argument: "title"]) ?? "")
        }
        item(&resolvers, "Mutation.updateSubtask", "id") { actor, id, input in
            let done: Bool? = if case .bool(let flag)? = input[argument: "done"] { flag } else { nil }
            return try await tasks.updateSubtask(actor: actor, id: id, title: UserValues.string(input[argument: "title"]), done: done)
        }
        item(&resolvers, "Mutation.reorderSubtasks", "taskId") { actor, id, input in
            try await tasks.reorderSubtasks(actor: actor, taskID: id, ids: TaskValues.ids(input[argument: "subtaskIds"]) ?? [])
        }
        item(&resolvers, "Mutation.removeSubtask", "id") { actor, id, _ in try await tasks.removeSubtask(actor: actor, id: id) }
        item(&resolvers, "Mutation.snoozeReminder", "taskId") { actor, id, input in
            try await tasks.snoozeReminder(actor: actor, taskID: id, minutes: TaskValues.int(input[argument: "minutes"]) ?? 15)
        }
        resolvers.field("Mutation.createLabel") { input in
            let actor = try input.signedIn().user.id
            let household = try HouseholdValues.id(input, "householdId")
            let name = UserValues.string(input[argument: "name"]) ?? ""
            let color = UserValues.string(input[argument: "color"]) ?? "gray"
            return .value(TaskValues.label(try await tasks.createLabel(actor: actor, householdID: household, name: name, color: color)))
        }
        resolvers.field("Mutation.updateLabel") { input in
            let actor = try input.signedIn().user.id
            let id = try HouseholdValues.id(input, "id")
            let (name, color) = (UserValues.string(input[argument: "name"]), UserValues.string(input[argument: "color"]))
            return .value(TaskValues.label(try await tasks.updateLabel(actor: actor, id: id, name: name, color: color)))
        }
        resolvers.field("Mutation.deleteLabel") { input in
            let actor = try input.signedIn().user.id
            let id = try HouseholdValues.id(input, "id")
            return .value(TaskValues.label(try await tasks.deleteLabel(actor: actor, id: id)))
        }
    }

    /// A mutation on one item named by the argument `idArgument`, answering the item.
    private static func item(_ resolvers: inout Resolvers, _ field: String, _ idArgument: String,
                             _ body: @escaping @Sendable (UUID, UUID, FieldInput) async throws -> TaskItem) {
        resolvers.field(field) { input in
            let actor = try input.signedIn().user.id
            let id = try HouseholdValues.id(input, idArgument)
            return .value(TaskValues.task(try await body(actor, id, input)))
        }
    }
}
