import Foundation
import GraphQLEngine
import HearthCore

/// `ClientMutation` inputs as the sync service's mutations; an op that names nothing or more
/// than one change is bad input naming the mutation.
enum ClientMutationArguments {
    static func mutation(_ value: GraphQLValue, at index: Int) throws(ServiceError) -> ClientMutation {
        let fields = value.objectValue
        let path = "mutations[\(index)]"
        guard let id = fields["id"].intValue else { throw .invalidInput(field: "\(path).id", message: "\(path).id must be an integer.") }
        let named = fields["op"].objectValue.filter { if case .null = $0.value { false } else { true } }
        guard named.count == 1, let (name, raw) = named.first else {
            throw .invalidInput(field: "\(path).op", message: "\(path).op must name exactly one change; it names \(named.count).")
        }
        let op = raw.objectValue
        func uuid(_ key: String) throws(ServiceError) -> UUID {
            guard let value = op[key].uuidValue else {
                throw .invalidInput(field: "\(path).op.\(name).\(key)", message: "\(path).op.\(name).\(key) must be a UUID.")
            }
            return value
        }
        let expected = op["expectedVersion"].intValue
        let clientOp: ClientOp
        switch name {
        case "createTask": clientOp = .createTask(householdID: try uuid("householdId"), draft: TaskArguments.draft(op["input"], kind: .task))
        case "createEvent": clientOp = .createEvent(householdID: try uuid("householdId"), draft: TaskArguments.draft(op["input"], kind: .event))
        case "updateTask": clientOp = .updateTask(id: try uuid("id"), expectedVersion: expected, patch: TaskArguments.patch(op["input"]))
        case "completeTask": clientOp = .completeTask(id: try uuid("id"), expectedVersion: expected)
        case "reopenTask": clientOp = .reopenTask(id: try uuid("id"), expectedVersion: expected)
        case "deleteTask": clientOp = .deleteTask(id: try uuid("id"), expectedVersion: expected)
        case "addSubtask": clientOp = .addSubtask(taskID: try uuid("taskId"), id: try uuid("id"), title: op["title"].stringValue ?? "")
        case "updateSubtask": clientOp = .updateSubtask(id: try uuid("id"), title: op["title"].stringValue, done: op["done"].boolValue)
        case "removeSubtask": clientOp = .removeSubtask(id: try uuid("id"))
        case "reorderSubtasks": clientOp = .reorderSubtasks(taskID: try uuid("taskId"), ids: op["subtaskIds"].uuids ?? [])
        case "createLabel":
            clientOp = .createLabel(householdID: try uuid("householdId"), id: try uuid("id"), name: op["name"].stringValue ?? "",
                                    color: op["color"].stringValue ?? "gray")
        case "updateLabel":
            clientOp = .updateLabel(id: try uuid("id"), expectedVersion: expected, name: op["name"].stringValue, color: op["color"].stringValue)
        case "deleteLabel": clientOp = .deleteLabel(id: try uuid("id"), expectedVersion: expected)
        case "snoozeReminder": clientOp = .snoozeReminder(taskID: try uuid("taskId"), minutes: op["minutes"].intValue ?? 15)
        case "markEventRead":
            guard let text = op["id"].stringValue, let event = Int64(text) else {
                throw .invalidInput(field: "\(path).op.markEventRead.id", message: "\(path).op.markEventRead.id must be an event id.")
            }
            clientOp = .markEventRead(id: event)
        case "markNotificationRead": clientOp = .markNotificationRead(id: try uuid("id"))
        default: throw .invalidInput(field: "\(path).op", message: "\(path).op names \(name), which is not a change push knows.")
        }
        return ClientMutation(id: id, op: clientOp)
    }
}
