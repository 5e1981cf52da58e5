/// What a task item is: something to do (TASK) or something that happens at a time (EVENT).
public enum TaskKind: String, Sendable, CaseIterable, Codable {
    case task = "TASK"
    case event = "EVENT"
}

/// How much a task item matters; sorts NONE < LOW < MEDIUM < HIGH.
public enum TaskPriority: String, Sendable, CaseIterable, Codable, Comparable {
    case none = "NONE", low = "LOW", medium = "MEDIUM", high = "HIGH"

    /// The position in the order above, as stored for sorting.
    public var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    public static func < (lhs: TaskPriority, rhs: TaskPriority) -> Bool { lhs.rank < rhs.rank }
}
