import Foundation

/// One queued change of a device, with its id (per client, increasing).
public struct ClientMutation: Sendable {
    public var id: Int
    public var op: ClientOp

    public init(id: Int, op: ClientOp) {
        self.id = id
        self.op = op
    }
}

/// What a queued change does: the ordinary mutations a device may make offline. Creates carry
/// the client's ids, so a repeated create is one record.
public enum ClientOp: Sendable {
    case createTask(householdID: UUID, draft: TaskDraft)
    case createEvent(householdID: UUID, draft: TaskDraft)
    case updateTask(id: UUID, expectedVersion: Int?, patch: TaskPatch)
    /// `occurrence`: a repeating task's occurrence done (a second device's copy is then DUPLICATE).
    case completeTask(id: UUID, expectedVersion: Int?, occurrence: Date? = nil)
    case skipOccurrence(id: UUID, expectedVersion: Int?, occurrence: Date? = nil)
    case updateEventOccurrence(id: UUID, expectedVersion: Int?, occurrence: Date, change: OccurrenceChange)
    case cancelEventOccurrence(id: UUID, expectedVersion: Int?, occurrence: Date)
    case reopenTask(id: UUID, expectedVersion: Int?)
    case deleteTask(id: UUID, expectedVersion: Int?)
    case addSubtask(taskID: UUID, id: UUID, title: String)
    case updateSubtask(id: UUID, title: String?, done: Bool?)
    case removeSubtask(id: UUID)
    case reorderSubtasks(taskID: UUID, ids: [UUID])
    case createLabel(householdID: UUID, id: UUID, name: String, color: String)
    case updateLabel(id: UUID, expectedVersion: Int?, name: String?, color: String?)
    case deleteLabel(id: UUID, expectedVersion: Int?)
    case snoozeReminder(taskID: UUID, minutes: Int)
    case markEventRead(id: Int64)
    case markNotificationRead(id: UUID)
}

/// What `push` did with each mutation, and the client's last processed mutation id after it.
public struct PushResult: Sendable {
    public var lastMutationID: Int
    public var results: [PushedMutation]
}

public struct PushedMutation: Sendable {
    public enum Status: String, Sendable {
        /// Applied now.
        case applied = "APPLIED"
        /// Processed by an earlier push: not applied again.
        case duplicate = "DUPLICATE"
        /// Based on a version others changed since (for the fields it names).
        case conflict = "CONFLICT"
        /// Refused: not allowed, not found, bad input.
        case rejected = "REJECTED"
    }

    public var id: Int
    public var status: Status
    /// For CONFLICT and REJECTED: the error code and message.
    public var code: String?
    public var message: String?
    /// For CONFLICT: the fields changed since; for BAD_USER_INPUT: the field at fault.
    public var fields: [String]?
    /// The record's version after the mutation (APPLIED).
    public var version: Int?
}
