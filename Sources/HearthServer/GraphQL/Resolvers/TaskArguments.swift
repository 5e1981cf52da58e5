import Foundation
import GraphQLEngine
import HearthCore

/// The tasks fields' input objects (`TaskInput`, `EventInput`, `TaskUpdateInput`, `TaskFilter`) as
/// the service's drafts, patches and queries.
enum TaskArguments {
    /// The lists of each task the selection may show, at `path` below the field (`["edges", "node"]`
    /// through a connection): a list nobody selected is not read.
    static func details(_ input: FieldInput, at path: [String] = []) -> TaskDetails {
        var details: TaskDetails = []
        if input.info.selects(path: path + ["labels"]) { details.insert(.labels) }
        if input.info.selects(path: path + ["subtasks"]) { details.insert(.subtasks) }
        return details
    }

    /// A `TaskInput` or `EventInput` as a draft.
    static func draft(_ value: GraphQLValue?, kind: TaskKind) -> TaskDraft {
        let input = value.objectValue
        let priority = input["priority"].stringValue.flatMap(TaskPriority.init(rawValue:)) ?? .none
        return TaskDraft(
            id: input["id"].uuidValue, kind: kind, title: input["title"].stringValue ?? "", notes: input["notes"].stringValue,
            priority: priority, deadline: input["deadline"].dateValue, estimateMinutes: input["estimateMinutes"].intValue,
            assigneeID: input["assigneeId"].uuidValue, labelNames: input["labels"].strings ?? [], labelIDs: input["labelIds"].uuids ?? [],
            startsAt: input["startsAt"].dateValue, endsAt: input["endsAt"].dateValue, location: input["location"].stringValue,
            remindAt: input["remindAt"].dateValue, subtasks: input["subtasks"].strings ?? [], date: input["date"].stringValue)
    }

    /// A `TaskUpdateInput`: absent fields stay, explicit nulls clear.
    static func patch(_ value: GraphQLValue?) -> TaskPatch {
        let input = value.objectValue
        /// nil when absent, `.some(nil)` for an explicit null, else the parsed value.
        func field<T>(_ name: String, _ parse: (GraphQLValue) -> T?) -> T?? {
            guard let raw = input[name] else { return nil }
            if case .null = raw { return .some(nil) }
            return .some(parse(raw))
        }
        var patch = TaskPatch()
        patch.title = input["title"].stringValue
        patch.notes = field("notes", \.stringValue)
        patch.priority = input["priority"].stringValue.flatMap(TaskPriority.init(rawValue:))
        patch.deadline = field("deadline", \.dateValue)
        patch.estimateMinutes = field("estimateMinutes", \.intValue)
        patch.assigneeID = field("assigneeId", \.uuidValue)
        patch.labelNames = input["labels"].strings ?? (input["labels"] == .null ? [] : nil)
        patch.labelIDs = input["labelIds"].uuids ?? (input["labelIds"] == .null ? [] : nil)
        patch.startsAt = field("startsAt", \.dateValue)
        patch.endsAt = field("endsAt", \.dateValue)
        patch.location = field("location", \.stringValue)
        patch.remindAt = field("remindAt", \.dateValue)
        return patch
    }

    /// A `TaskFilter` and sort as a query.
    static func query(_ filter: GraphQLValue?, sort: GraphQLValue?) throws(ServiceError) -> TaskQuery {
        let input = filter.objectValue
        return try TaskQuery(
            kind: input["kind"].stringValue.flatMap(TaskKind.init(rawValue:)), completed: input["completed"].boolValue,
            assigneeID: input["assigneeId"].uuidValue, labelIDs: input["labelIds"].uuids ?? [], dueBefore: input["dueBefore"].dateValue,
            dueAfter: input["dueAfter"].dateValue, search: input["search"].stringValue,
            sort: sort.stringValue.flatMap(TaskQuery.Sort.init(rawValue:)) ?? .deadline)
    }
}
