import Crypto
import Foundation

/// What a create carries, as the client gave it (before defaults are filled in). Checked by
/// ``validated()``; its ``digest`` tells a safe retry (same id, same content) from a clash.
public struct TaskDraft: Sendable, Equatable, Codable {
    /// A client-generated id, so an offline client can retry a create safely.
    public var id: UUID?
    public var kind: TaskKind
    public var title: String
    public var notes: String?
    public var priority: TaskPriority
    public var deadline: Date?
    public var estimateMinutes: Int?
    public var assigneeID: UUID?
    /// Labels by name: found case-insensitively, or created (gray).
    public var labelNames: [String]
    /// Labels by id (of the same household).
    public var labelIDs: [UUID]
    public var startsAt: Date?
    public var endsAt: Date?
    /// An untimed event's local day (`YYYY-MM-DD`): it starts at 09:00 that day.
    public var date: String?
    public var location: String?
    public var remindAt: Date?
    /// Subtask titles, in order.
    public var subtasks: [String]
    /// How the item repeats; nil when it happens once.
    public var repetition: Repetition?
    /// The members who take turns at it, in order; nil (or empty) for none.
    public var rotation: [UUID]?

    public init(id: UUID? = nil, kind: TaskKind = .task, title: String, notes: String? = nil, priority: TaskPriority = .none,
                deadline: Date? = nil, estimateMinutes: Int? = nil, assigneeID: UUID? = nil, labelNames: [String] = [],
                labelIDs: [UUID] = [], startsAt: Date? = nil, endsAt: Date? = nil, location: String? = nil, remindAt: Date? = nil,
                subtasks: [String] = [], date: String? = nil, repetition: Repetition? = nil, rotation: [UUID]? = nil) {
        self.id = id
        self.kind = kind
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
        self.subtasks = subtasks
        self.date = date
        self.repetition = repetition
        self.rotation = rotation
    }

    /// Limits on what a client sends.
    public static let maximumNotes = 10_000
    public static let maximumLocation = 200
    public static let maximumLabels = 20
    public static let maximumSubtasks = 100
    public static let maximumRotation = 50

    /// The draft trimmed and checked; a refusal names the field (as the API spells it).
    public func validated() throws(ServiceError) -> TaskDraft {
        var draft = self
        draft.title = try Self.title(title, field: "title")
        draft.notes = try Self.optionalText(notes, field: "notes", maxLength: Self.maximumNotes)
        draft.location = try Self.optionalText(location, field: "location", maxLength: Self.maximumLocation)
        draft.estimateMinutes = try Self.estimate(estimateMinutes)
        draft.labelNames = try Self.labelNames(labelNames, idCount: labelIDs.count)
        guard subtasks.count <= Self.maximumSubtasks else {
            throw .invalidInput(field: "subtasks", message: "An item takes at most \(Self.maximumSubtasks) subtasks.")
        }
        draft.subtasks = try subtasks.map { title throws(ServiceError) in try Self.title(title, field: "subtasks") }
        if kind == .task {
            try Self.refuseEventFields(start: startsAt != nil, end: endsAt != nil, location: location != nil, date: date != nil)
        }
        if date != nil, startsAt != nil {
            throw .invalidInput(field: "date", message: "Give an event either a date (it starts at 09:00 that day) or startsAt, not both.")
        }
        try EventSchedule.check(start: startsAt, end: endsAt)
        if let repetition {
            draft.repetition = try Repetition.checked(rule: repetition.rule, from: repetition.from, exceptions: repetition.exceptions,
                                                      overrides: repetition.overrides, kind: kind)
            if kind == .task, repetition.from == .schedule, deadline == nil {
                throw .invalidInput(field: "deadline", message: "A repeating task needs a deadline, its first date (or repeat.from COMPLETION, which counts from now).")
            }
        }
        draft.rotation = try Self.rotation(rotation, assignee: assigneeID)
        return draft
    }

    /// A rotation checked: at most ``maximumRotation`` members, each once, the assignee (when
    /// given) among them; empty is none.
    static func rotation(_ members: [UUID]?, assignee: UUID?) throws(ServiceError) -> [UUID]? {
        guard let members, !members.isEmpty else { return nil }
        guard members.count <= maximumRotation else {
            throw .invalidInput(field: "rotation", message: "A rotation takes at most \(maximumRotation) members; \(members.count) were given.")
        }
        guard Set(members).count == members.count else {
            throw .invalidInput(field: "rotation", message: "A rotation names each member once.")
        }
        if let assignee, !members.contains(assignee) {
            throw .invalidInput(field: "assigneeId", message: "With a rotation, the assignee is the member whose turn it is: one of the rotation.")
        }
        return members
    }

    /// SHA-256 of the draft's content (the id aside), hex: equal for a faithful retry.
    public var digest: String {
        var content = self
        content.id = nil
        content.labelNames = labelNames.map { $0.lowercased() }.sorted()
        content.labelIDs = labelIDs.sorted { $0.uuidString < $1.uuidString }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let data = (try? encoder.encode(content)) ?? Data()
        return SHA256.hash(data: data).lowercaseHex
    }

    static func estimate(_ minutes: Int?) throws(ServiceError) -> Int? {
        if let minutes, !(1...525_600).contains(minutes) {
            throw .invalidInput(field: "estimateMinutes", message: "estimateMinutes must be from 1 to 525600 (a year); \(minutes) is not.")
        }
        return minutes
    }

    /// Label names checked (with `idCount` labels given by id, at most ``maximumLabels`` in all).
    static func labelNames(_ names: [String], idCount: Int) throws(ServiceError) -> [String] {
        guard names.count + idCount <= maximumLabels else {
            throw .invalidInput(field: "labels", message: "An item takes at most \(maximumLabels) labels.")
        }
        return try names.map { name throws(ServiceError) in try labelName(name, field: "labels") }
    }

    /// Tasks have no start, end, location or day; the first one given is named.
    static func refuseEventFields(start: Bool, end: Bool, location: Bool, date: Bool = false) throws(ServiceError) {
        guard start || end || location || date else { return }
        throw .invalidInput(field: start ? "startsAt" : end ? "endsAt" : location ? "location" : "date",
                            message: "Only events have a start, an end, a location and a date.")
    }

    /// Trimmed, 1–200 characters, no control characters (the users service's text rule).
    static func title(_ raw: String, field: String) throws(ServiceError) -> String {
        try UserInput.text(raw, field: field, maxLength: 200)
    }

    static func optionalText(_ raw: String?, field: String, maxLength: Int) throws(ServiceError) -> String? {
        guard let text = raw?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        guard text.count <= maxLength else {
            throw .invalidInput(field: field, message: "\(field) must be at most \(maxLength) characters; it has \(text.count).")
        }
        return text
    }

    static func labelName(_ raw: String, field: String) throws(ServiceError) -> String {
        try UserInput.text(raw, field: field, maxLength: 50)
    }
}
