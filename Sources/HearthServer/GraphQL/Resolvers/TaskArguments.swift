import Foundation
import GraphQLEngine
import HearthCore

/// The tasks fields' arguments and input objects (`TaskInput`, `EventInput`, `TaskUpdateInput`,
/// `TaskFilter`) as typed values, decoded by the engine, and their mapping onto the service's
/// drafts, patches and queries. Defaults live in the schema only.
enum TaskArguments {
    /// The lists of each task the selection may show, at `path` below the field (`["edges", "node"]`
    /// through a connection): a list nobody selected is not read.
    static func details(_ input: FieldInput, at path: [String] = []) -> TaskDetails {
        var details: TaskDetails = []
        if input.info.selects(path: path + ["labels"]) { details.insert(.labels) }
        if input.info.selects(path: path + ["subtasks"]) { details.insert(.subtasks) }
        if input.info.selects(anyOf: fieldsBeyondAList, under: path) { details.insert(.allFields) }
        return details
    }

    /// The fields of `Task` that a list's read leaves empty (``TaskDetails/allFields``): selecting
    /// any of them (or a fragment spread, which may) reads every column.
    static let fieldsBeyondAList = [
        "notes", "estimateMinutes", "assigneeId", "location", "completedBy", "reminderId", "remindAt", "reminderDueAt",
        "createdBy", "createdAt", "updatedBy", "updatedAt",
    ]

    /// `TaskInput` and `EventInput` (an event's fields are absent from a task's input and the other way round).
    struct ItemInput: Decodable {
        var id: UUID?
        var title: String
        var notes: String?
        var priority: TaskPriority
        var deadline: Date?
        var estimateMinutes: Int?
        var assigneeId: UUID?
        var labels: [String]?
        var labelIds: [UUID]?
        var startsAt: Date?
        var endsAt: Date?
        var date: String?
        var location: String?
        var remindAt: Date?
        var subtasks: [String]?
        var `repeat`: RecurrenceInput?
        var rotation: [UUID]?

        func draft(kind: TaskKind) -> TaskDraft {
            TaskDraft(id: id, kind: kind, title: title, notes: notes, priority: priority, deadline: deadline,
                      estimateMinutes: estimateMinutes, assigneeID: assigneeId, labelNames: labels ?? [], labelIDs: labelIds ?? [],
                      startsAt: startsAt, endsAt: endsAt, location: location, remindAt: remindAt, subtasks: subtasks ?? [], date: date,
                      repetition: `repeat`?.repetition, rotation: rotation)
        }
    }

    /// `RecurrenceInput`, as asked (the service checks it).
    struct RecurrenceInput: Decodable {
        var rule: String
        var from: RepeatFrom
        var exceptions: [Date]?

        var repetition: Repetition { Repetition(rule: rule, from: from, exceptions: exceptions ?? []) }
    }

    /// `TaskUpdateInput`: absent fields stay, explicit nulls clear.
    struct UpdateInput: Decodable {
        var title: String?
        var notes: InputPatch<String>
        var priority: TaskPriority?
        var deadline: InputPatch<Date>
        var estimateMinutes: InputPatch<Int>
        var assigneeId: InputPatch<UUID>
        var labels: InputPatch<[String]>
        var labelIds: InputPatch<[UUID]>
        var startsAt: InputPatch<Date>
        var endsAt: InputPatch<Date>
        var location: InputPatch<String>
        var remindAt: InputPatch<Date>
        var `repeat`: InputPatch<RecurrenceInput>
        var rotation: InputPatch<[UUID]>

        var patch: TaskPatch {
            // A null label list clears the labels.
            TaskPatch(title: title, notes: notes.change, priority: priority, deadline: deadline.change,
                      estimateMinutes: estimateMinutes.change, assigneeID: assigneeId.change,
                      labelNames: labels.change.map { $0 ?? [] }, labelIDs: labelIds.change.map { $0 ?? [] },
                      startsAt: startsAt.change, endsAt: endsAt.change, location: location.change, remindAt: remindAt.change,
                      repetition: `repeat`.change.map { $0?.repetition }, rotation: rotation.change)
        }
    }

    /// `EventOccurrenceInput`: absent fields stay, a null text goes back to the series'.
    struct OccurrenceInput: Decodable {
        var startsAt: InputPatch<Date>
        var endsAt: InputPatch<Date>
        var title: InputPatch<String>
        var notes: InputPatch<String>
        var location: InputPatch<String>

        var change: OccurrenceChange {
            OccurrenceChange(startsAt: startsAt.change ?? nil, endsAt: endsAt.change ?? nil, title: title.change, notes: notes.change,
                             location: location.change)
        }
    }

    /// `TaskFilter`.
    struct Filter: Decodable {
        var kind: TaskKind?
        var completed: Bool?
        var assigneeId: UUID?
        var labelIds: [UUID]?
        var dueBefore: Date?
        var dueAfter: Date?
        var search: String?
    }

    /// A task list's arguments (`Query.tasks` also names the household).
    struct List: Decodable {
        var filter: Filter?
        var sort: TaskQuery.Sort

        func query() throws(ServiceError) -> TaskQuery {
            try TaskQuery(kind: filter?.kind, completed: filter?.completed, assigneeID: filter?.assigneeId,
                          labelIDs: filter?.labelIds ?? [], dueBefore: filter?.dueBefore, dueAfter: filter?.dueAfter,
                          search: filter?.search, sort: sort)
        }
    }

    /// An agenda's range (`Query.agenda` also names the household).
    struct Agenda: Decodable {
        var from: Date
        var to: Date
    }
}
