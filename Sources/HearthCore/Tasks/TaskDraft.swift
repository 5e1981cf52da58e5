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
    public var location: String?
    public var remindAt: Date?
    /// Subtask titles, in order.
    public var subtasks: [String]

    public init(id: UUID? = nil, kind: TaskKind = .task, title: String, notes: String? = nil, priority: TaskPriority = .none,
                deadline: Date? = nil, estimateMinutes: Int? = nil, assigneeID: UUID? = nil, labelNames: [String] = [],
                labelIDs: [UUID] = [], startsAt: Date? = nil, endsAt: Date? = nil, location: String? = nil, remindAt: Date? = nil,
                subtasks: [String] = []) {
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
    }

    /// Limits on what a client sends.
    public static let maximumNotes = 10_000
    public static let maximumLocation = 200
    public static let maximumLabels = 20
    public static let maximumSubtasks = 100

    /// The draft trimmed and checked; a refusal names the field (as the API spells it).
    public func validated() throws(HouseholdError) -> TaskDraft {
        var draft = self
        draft.title = try Self.title(title, field: "title")
        draft.notes = try Self.optionalText(notes, field: "notes", maxLength: Self.maximumNotes)
        draft.location = try Self.optionalText(location, field: "location", maxLength: Self.maximumLocation)
        if let minutes = estimateMinutes, !(1...525_600).contains(minutes) {
            throw .invalidInput(field: "estimateMinutes", message: "estimateMinutes must be from 1 to 525600 (a year); \(minutes) is not.")
        }
        guard labelNames.count + labelIDs.count <= Self.maximumLabels else {
            throw .invalidInput(field: "labels", message: "An item takes at most \(Self.maximumLabels) labels.")
        }
        draft.labelNames = try labelNames.map { name throws(HouseholdError) in try Self.labelName(name, field: "labels") }
        guard subtasks.count <= Self.maximumSubtasks else {
            throw .invalidInput(field: "subtasks", message: "An item takes at most \(Self.maximumSubtasks) subtasks.")
        }
        draft.subtasks = try subtasks.map { title throws(HouseholdError) in try Self.title(title, field: "subtasks") }
        if kind == .task, startsAt != nil || endsAt != nil || location != nil {
            throw .invalidInput(field: startsAt != nil ? "startsAt" : endsAt != nil ? "endsAt" : "location",
                                message: "Only events have a start, an end and a location; use createEvent.")
        }
        if let start = startsAt, let end = endsAt, end < start {
            throw .invalidInput(field: "endsAt", message: "endsAt must not be before startsAt.")
        }
        return draft
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
        return SHA256.hash(data: data).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    static func title(_ raw: String, field: String) throws(HouseholdError) -> String {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw .invalidInput(field: field, message: "\(field) must not be empty.") }
        guard text.count <= 200 else { throw .invalidInput(field: field, message: "\(field) must be at most 200 characters; it has \(text.count).") }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidInput(field: field, message: "\(field) must not contain control characters.")
        }
        return text
    }

    static func optionalText(_ raw: String?, field: String, maxLength: Int) throws(HouseholdError) -> String? {
        guard let text = raw?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        guard text.count <= maxLength else {
            throw .invalidInput(field: field, message: "\(field) must be at most \(maxLength) characters; it has \(text.count).")
        }
        return text
    }

    static func labelName(_ raw: String, field: String) throws(HouseholdError) -> String {
        let name = try title(raw, field: field)
        guard name.count <= 50 else { throw .invalidInput(field: field, message: "A label name must be at most 50 characters.") }
        return name
    }
}
