import Foundation
import GraphQLEngine
import HearthCore

/// The tasks service's DTOs as the plain data of their schema types, and the inputs parsed.
enum TaskValues {
    static func id(_ id: UUID?) -> GraphQLValue { id.map { .string(UserValues.uuid($0)) } ?? .null }

    static func task(_ item: TaskItem) -> GraphQLValue {
        [
            "id": id(item.id), "householdId": id(item.householdID), "kind": .string(item.kind.rawValue), "title": .string(item.title),
            "notes": item.notes.map { .string($0) } ?? .null, "priority": .string(item.priority.rawValue),
            "deadline": StoreValues.date(item.deadline), "estimateMinutes": item.estimateMinutes.map { .int($0) } ?? .null,
            "assigneeId": id(item.assigneeID), "startsAt": StoreValues.date(item.startsAt), "endsAt": StoreValues.date(item.endsAt),
            "location": item.location.map { .string($0) } ?? .null, "occursAt": StoreValues.date(item.occursAt),
            "completed": .bool(item.isCompleted), "completedAt": StoreValues.date(item.completedAt), "completedBy": id(item.completedBy),
            "labels": .list(item.labels.map(label)),
            "subtasks": .list(item.subtasks.map { ["id": id($0.id), "title": .string($0.title), "done": .bool($0.done), "position": .int($0.position)] }),
            "reminderId": id(item.reminderID), "remindAt": StoreValues.date(item.remindAt), "reminderDueAt": StoreValues.date(item.reminderDueAt),
            "createdBy": id(item.createdBy), "createdAt": StoreValues.date(item.createdAt), "updatedBy": id(item.updatedBy),
            "updatedAt": StoreValues.date(item.updatedAt),
        ]
    }

    static func label(_ label: TaskLabel) -> GraphQLValue {
        ["id": id(label.id), "householdId": id(label.householdID), "name": .string(label.name), "color": .string(label.color)]
    }

    static func object(_ value: GraphQLValue?) -> GraphQLObject {
        if case .object(let object)? = value { return object }
        return [:]
    }

    static func date(_ value: GraphQLValue?) -> Date? {
        UserValues.string(value).flatMap(DateTimeScalar.date(from:))
    }

    static func strings(_ value: GraphQLValue?) -> [String]? {
        guard case .list(let items)? = value else { return nil }
        return items.compactMap(UserValues.string)
    }

    static func ids(_ value: GraphQLValue?) -> [UUID]? {
        guard case .list(let items)? = value else { return nil }
        return items.compactMap(UserValues.uuid)
    }

    /// A `TaskInput` or `EventInput` as a draft.
    static func draft(_ value: GraphQLValue?, kind: TaskKind) -> TaskDraft {
        let input = object(value)
        let priority = UserValues.string(input["priority"]).flatMap(TaskPriority.init(rawValue:)) ?? .none
        return TaskDraft(
            id: UserValues.uuid(input["id"]), kind: kind, title: UserValues.string(input["title"]) ?? "", notes: UserValues.string(input["notes"]),
            priority: priority, deadline: date(input["deadline"]), estimateMinutes: int(input["estimateMinutes"]),
            assigneeID: UserValues.uuid(input["assigneeId"]), labelNames: strings(input["labels"]) ?? [], labelIDs: ids(input["labelIds"]) ?? [],
            startsAt: date(input["startsAt"]), endsAt: date(input["endsAt"]), location: UserValues.string(input["location"]),
            remindAt: date(input["remindAt"]), subtasks: strings(input["subtasks"]) ?? [], date: UserValues.string(input["date"]))
    }

    static func int(_ value: GraphQLValue?) -> Int? {
        if case .int(let number)? = value { return number }
        return nil
    }

    /// A `TaskUpdateInput`: absent fields stay, explicit nulls clear.
    static func patch(_ value: GraphQLValue?) -> TaskPatch {
        let input = object(value)
        /// nil when absent, `.some(nil)` for an explicit null, else the parsed value.
        func field<T>(_ name: String, _ parse: (GraphQLValue) -> T?) -> T?? {
            guard let raw = input[name] else { return nil }
            if case .null = raw { return .some(nil) }
            return .some(parse(raw))
        }
        var patch = TaskPatch()
        patch.title = UserValues.string(input["title"])
        patch.notes = field("notes", { UserValues.string($0) })
        patch.priority = UserValues.string(input["priority"]).flatMap(TaskPriority.init(rawValue:))
        patch.deadline = field("deadline", { date($0) })
        patch.estimateMinutes = field("estimateMinutes", { int($0) })
        patch.assigneeID = field("assigneeId", { UserValues.uuid($0) })
        patch.labelNames = strings(input["labels"]) ?? (input["labels"] == .null ? [] : nil)
        patch.labelIDs = ids(input["labelIds"]) ?? (input["labelIds"] == .null ? [] : nil)
        patch.startsAt = field("startsAt", { date($0) })
        patch.endsAt = field("endsAt", { date($0) })
        patch.location = field("location", { UserValues.string($0) })
        patch.remindAt = field("remindAt", { date($0) })
        return patch
    }

    /// A `TaskFilter` and sort as a query.
    static func query(_ filter: GraphQLValue?, sort: GraphQLValue?) throws(ServiceError) -> TaskQuery {
        let input = object(filter)
        return try TaskQuery(
            kind: UserValues.string(input["kind"]).flatMap(TaskKind.init(rawValue:)),
            completed: { if case .bool(let flag)? = input["completed"] { return flag } else { return nil } }(),
            assigneeID: UserValues.uuid(input["assigneeId"]), labelIDs: ids(input["labelIds"]) ?? [], dueBefore: date(input["dueBefore"]),
            dueAfter: date(input["dueAfter"]), search: UserValues.string(input["search"]),
            sort: UserValues.string(sort).flatMap(TaskQuery.Sort.init(rawValue:)) ?? .deadline)
    }
}
