import Foundation
import GraphQLEngine
import HearthCore

/// A `ClientMutation` input (its `ClientOp` is `@oneOf`: the engine has checked that exactly one
/// change is named) as the sync service's mutation.
struct ClientMutationArguments: Decodable {
    var id: Int
    var op: Op

    /// `ClientOp`: one of these is set.
    struct Op: Decodable {
        var createTask: CreateItem?
        var createEvent: CreateItem?
        var updateTask: UpdateItem?
        var completeTask: OccurrenceOp?
        var skipOccurrence: OccurrenceOp?
        var updateEventOccurrence: UpdateOccurrence?
        var cancelEventOccurrence: OccurrenceOp?
        var reopenTask: VersionedID?
        var deleteTask: VersionedID?
        var addSubtask: AddSubtask?
        var updateSubtask: UpdateSubtask?
        var removeSubtask: IDArgument?
        var reorderSubtasks: ReorderSubtasks?
        var createLabel: CreateLabel?
        var updateLabel: UpdateLabel?
        var deleteLabel: VersionedID?
        var snoozeReminder: Snooze?
        var markEventRead: EventIDArgument?
        var markNotificationRead: IDArgument?
    }

    struct CreateItem: Decodable { var householdId: UUID, input: TaskArguments.ItemInput }
    struct UpdateItem: Decodable { var id: UUID, expectedVersion: Int?, input: TaskArguments.UpdateInput }
    struct AddSubtask: Decodable { var taskId: UUID, id: UUID, title: String }
    struct UpdateSubtask: Decodable { var id: UUID, title: String?, done: Bool? }
    struct ReorderSubtasks: Decodable { var taskId: UUID, subtaskIds: [UUID] }
    struct CreateLabel: Decodable { var householdId: UUID, id: UUID, name: String, color: String }
    struct UpdateLabel: Decodable { var id: UUID, expectedVersion: Int?, name: String?, color: String? }
    struct Snooze: Decodable { var taskId: UUID, minutes: Int }
    struct UpdateOccurrence: Decodable { var id: UUID, occurrence: Date, expectedVersion: Int?, input: TaskArguments.OccurrenceInput }
    /// `TaskOp` with the occurrence a repeating task's completion or skip names.
    struct OccurrenceOp: Decodable { var id: UUID, expectedVersion: Int?, occurrence: Date? }

    /// The mutation at `index` of `push`'s list; an event id that is not a number is bad input naming it.
    func mutation(at index: Int) throws(ServiceError) -> ClientMutation {
        var ops: [ClientOp] = []
        if let op = op.createTask { ops.append(.createTask(householdID: op.householdId, draft: op.input.draft(kind: .task))) }
        if let op = op.createEvent { ops.append(.createEvent(householdID: op.householdId, draft: op.input.draft(kind: .event))) }
        if let op = op.updateTask { ops.append(.updateTask(id: op.id, expectedVersion: op.expectedVersion, patch: op.input.patch)) }
        if let op = op.completeTask { ops.append(.completeTask(id: op.id, expectedVersion: op.expectedVersion, occurrence: op.occurrence)) }
        if let op = op.skipOccurrence { ops.append(.skipOccurrence(id: op.id, expectedVersion: op.expectedVersion, occurrence: op.occurrence)) }
        if let op = op.updateEventOccurrence {
            ops.append(.updateEventOccurrence(id: op.id, expectedVersion: op.expectedVersion, occurrence: op.occurrence, change: op.input.change))
        }
        if let op = op.cancelEventOccurrence {
            guard let occurrence = op.occurrence else {
                let path = "mutations[\(index)].op.cancelEventOccurrence.occurrence"
                throw .invalidInput(field: path, message: "\(path) is required: the occurrence taken out, by its original start.")
            }
            ops.append(.cancelEventOccurrence(id: op.id, expectedVersion: op.expectedVersion, occurrence: occurrence))
        }
        if let op = op.reopenTask { ops.append(.reopenTask(id: op.id, expectedVersion: op.expectedVersion)) }
        if let op = op.deleteTask { ops.append(.deleteTask(id: op.id, expectedVersion: op.expectedVersion)) }
        if let op = op.addSubtask { ops.append(.addSubtask(taskID: op.taskId, id: op.id, title: op.title)) }
        if let op = op.updateSubtask { ops.append(.updateSubtask(id: op.id, title: op.title, done: op.done)) }
        if let op = op.removeSubtask { ops.append(.removeSubtask(id: op.id)) }
        if let op = op.reorderSubtasks { ops.append(.reorderSubtasks(taskID: op.taskId, ids: op.subtaskIds)) }
        if let op = op.createLabel { ops.append(.createLabel(householdID: op.householdId, id: op.id, name: op.name, color: op.color)) }
        if let op = op.updateLabel {
            ops.append(.updateLabel(id: op.id, expectedVersion: op.expectedVersion, name: op.name, color: op.color))
        }
        if let op = op.deleteLabel { ops.append(.deleteLabel(id: op.id, expectedVersion: op.expectedVersion)) }
        if let op = op.snoozeReminder { ops.append(.snoozeReminder(taskID: op.taskId, minutes: op.minutes)) }
        if let op = op.markEventRead {
            guard let event = op.event else {
                let path = "mutations[\(index)].op.markEventRead.id"
                throw .invalidInput(field: path, message: "\(path) must be an event id.")
            }
            ops.append(.markEventRead(id: event))
        }
        if let op = op.markNotificationRead { ops.append(.markNotificationRead(id: op.id)) }
        guard ops.count == 1, let op = ops.first else {
            let path = "mutations[\(index)].op"
            throw .invalidInput(field: path, message: "\(path) must name exactly one change; it names \(ops.count).")
        }
        return ClientMutation(id: id, op: op)
    }
}
