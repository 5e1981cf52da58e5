import Foundation

/// What `tasks(filter:, sort:)` selects and how it orders; every filter optional.
public struct TaskQuery: Sendable, Hashable {
    public enum Sort: String, Sendable, CaseIterable, Decodable {
        /// Soonest deadline first, items without one last.
        case deadline = "DEADLINE"
        /// HIGH first, then by deadline.
        case priority = "PRIORITY"
        /// Newest first.
        case created = "CREATED"
        /// By title, case aside.
        case title = "TITLE"
    }

    public var kind: TaskKind?
    public var completed: Bool?
    public var assigneeID: UUID?
    /// Items carrying every one of these labels.
    public var labelIDs: [UUID]
    public var dueBefore: Date?
    public var dueAfter: Date?
    /// A substring of the title or notes, case aside (at most 100 characters).
    public var search: String?
    public var sort: Sort

    public init(kind: TaskKind? = nil, completed: Bool? = nil, assigneeID: UUID? = nil, labelIDs: [UUID] = [], dueBefore: Date? = nil,
                dueAfter: Date? = nil, search: String? = nil, sort: Sort = .deadline) throws(ServiceError) {
        let trimmed = search?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard trimmed.count <= 100 else { throw .invalidInput(field: "filter.search", message: "filter.search must be at most 100 characters.") }
        guard labelIDs.count <= 20 else { throw .invalidInput(field: "filter.labelIds", message: "filter.labelIds takes at most 20 labels.") }
        self.kind = kind
        self.completed = completed
        self.assigneeID = assigneeID
        self.labelIDs = labelIDs
        self.dueBefore = dueBefore
        self.dueAfter = dueAfter
        self.search = trimmed.isEmpty ? nil : trimmed
        self.sort = sort
    }
}
