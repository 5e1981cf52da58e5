import Foundation

/// A partial update: a field left nil stays as it is; `.some(nil)` clears it (an explicit null
/// in the API); `.some(value)` sets it.
public struct TaskPatch: Sendable, Equatable {
    public var title: String?
    public var notes: String??
    public var priority: TaskPriority?
    public var deadline: Date??
    public var estimateMinutes: Int??
    public var assigneeID: UUID??
    /// Replaces the item's labels (by name, found or created, and by id) when either is given.
    public var labelNames: [String]?
    public var labelIDs: [UUID]?
    public var startsAt: Date??
    public var endsAt: Date??
    public var location: String??
    public var remindAt: Date??
    /// A new repetition (its position starts again at the item's date), or `.some(nil)`: happens once.
    public var repetition: Repetition??
    /// A new rotation, or `.some(nil)` (or an empty list): none.
    public var rotation: [UUID]??
    /// A repeating event's changed occurrences, all of them (a calendar app's overrides); nil
    /// keeps those that still change an occurrence of the (perhaps new) series.
    public var overrides: [OccurrenceOverride]?

    public init(title: String? = nil, notes: String?? = nil, priority: TaskPriority? = nil, deadline: Date?? = nil,
                estimateMinutes: Int?? = nil, assigneeID: UUID?? = nil, labelNames: [String]? = nil, labelIDs: [UUID]? = nil,
                startsAt: Date?? = nil, endsAt: Date?? = nil, location: String?? = nil, remindAt: Date?? = nil,
                repetition: Repetition?? = nil, rotation: [UUID]?? = nil) {
        self.title = title
        self.notes = notes
        self.priority = priority
        self.deadline = deadline
        self.estimateMinutes = estimateMinutes
        self.assigneeID = assigneeID
        self.labelNames = labelNames
        self.labelIDs = labelIDs
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.location = location
        self.remindAt = remindAt
        self.repetition = repetition
        self.rotation = rotation
    }

    /// `item` with the patch applied and checked; a refusal names the field.
    func applied(to item: TaskItem) throws(ServiceError) -> TaskItem {
        var result = item
        if let title { result.title = try TaskDraft.title(title, field: "title") }
        if let notes { result.notes = try TaskDraft.optionalText(notes, field: "notes", maxLength: TaskDraft.maximumNotes) }
        if let priority { result.priority = priority }
        if let deadline { result.deadline = deadline }
        if let estimateMinutes { result.estimateMinutes = try TaskDraft.estimate(estimateMinutes) }
        if let assigneeID { result.assigneeID = assigneeID }
        if let remindAt { result.remindAt = remindAt }
        if item.kind == .task {
            try TaskDraft.refuseEventFields(start: startsAt != nil, end: endsAt != nil, location: location != nil)
        } else {
            if let startsAt {
                guard let start = startsAt else { throw .invalidInput(field: "startsAt", message: "An event's startsAt cannot be cleared.") }
                // Moving the start alone keeps the event's length.
                if endsAt == nil, let oldStart = item.startsAt, let oldEnd = item.endsAt {
                    result.endsAt = start.addingTimeInterval(oldEnd.timeIntervalSince(oldStart))
                }
                result.startsAt = start
            }
            if let endsAt {
                guard let end = endsAt else { throw .invalidInput(field: "endsAt", message: "An event's endsAt cannot be cleared.") }
                result.endsAt = end
            }
            if let location { result.location = try TaskDraft.optionalText(location, field: "location", maxLength: TaskDraft.maximumLocation) }
            try EventSchedule.check(start: result.startsAt, end: result.endsAt)
        }
        if let repetition {
            result.repetition = try repetition.map { asked throws(ServiceError) in
                try Repetition.checked(rule: asked.rule, from: asked.from, exceptions: asked.exceptions, kind: item.kind)
            }
        }
        if let rotation { result.rotation = try TaskDraft.rotation(rotation, assignee: nil) }
        if let overrides, let repeating = result.repetition {
            result.repetition = try Repetition.checked(rule: repeating.rule, from: repeating.from, exceptions: repeating.exceptions,
                                                       overrides: overrides, kind: item.kind)
        }
        if let members = result.rotation, result.assigneeID.map({ !members.contains($0) }) ?? true {
            // The turn is someone's in the rotation: a new rotation starts with its first member.
            guard assigneeID == nil || rotation != nil else {
                throw .invalidInput(field: "assigneeId", message: "With a rotation, the assignee is the member whose turn it is: one of the rotation.")
            }
            result.assigneeID = members.first
        }
        if let repeating = result.repetition, item.kind == .task, repeating.from == .schedule, result.deadline == nil {
            throw .invalidInput(field: "deadline", message: "A repeating task needs a deadline; stop the repetition (repeat: null) first, or repeat from COMPLETION.")
        }
        return result
    }

    /// The label names that replace the item's, checked; nil when the labels stay.
    func checkedLabelNames() throws(ServiceError) -> [String]? {
        guard replacesLabels else { return nil }
        return try TaskDraft.labelNames(labelNames ?? [], idCount: labelIDs?.count ?? 0)
    }

    /// Whether the labels are replaced.
    var replacesLabels: Bool { labelNames != nil || labelIDs != nil }

    /// The fields the patch names (as in the API), with the columns whose versions stand for them.
    var namedFields: [(name: String, column: String)] {
        var names: [String] = []
        if title != nil { names.append("title") }
        if notes != nil { names.append("notes") }
        if priority != nil { names.append("priority") }
        if deadline != nil { names.append("deadline") }
        if estimateMinutes != nil { names.append("estimateMinutes") }
        if assigneeID != nil { names.append("assigneeId") }
        if replacesLabels { names.append("labels") }
        if startsAt != nil { names.append("startsAt") }
        if endsAt != nil { names.append("endsAt") }
        if location != nil { names.append("location") }
        if remindAt != nil { names.append("remindAt") }
        if repetition != nil { names.append("repeat") }
        if rotation != nil { names.append("rotation") }
        if overrides != nil { names.append("overrides") }
        return names.map { ($0, Self.columns[$0] ?? $0) }
    }

    /// A task's fields (as in the API) → the column (or child list) whose version stands for each.
    static let columns: [String: String] = [
        "title": "title", "notes": "notes", "priority": "priority", "deadline": "deadline", "estimateMinutes": "estimate_minutes",
        "assigneeId": "assignee_id", "labels": "labels", "subtasks": "subtasks", "startsAt": "starts_at", "endsAt": "ends_at",
        "location": "location", "remindAt": "remind_at", "completed": "completed_at", "repeat": "repeat_rule", "rotation": "rotation",
        "overrides": "repeat_overrides",
    ]

    /// Columns → API names, for naming what changed.
    static let fieldNames: [String: String] = Dictionary(uniqueKeysWithValues: columns.map { ($0.value, $0.key) })
}
