/// What one person may do: CASL v7's `PureAbility` with MongoDB conditions and field patterns.
///
/// Later rules take precedence. A check finds the rules for the action (or `manage`) on the
/// subject's type (or `all`), newest first, keeps those covering the field, and the first whose
/// conditions match decides: allowed unless it is inverted. On a subject type (no instance) a
/// conditional `can` counts as allowed and a conditional `cannot` is skipped.
public struct Ability: Sendable {
    public let rules: [PermissionRule]
    public let aliases: ActionAliases
    /// Subject type → action → indices into `rules`, newest first.
    private let index: [String: [String: [Int]]]
    private let hasFieldRules: Bool

    public init(rules: [PermissionRule], aliases: ActionAliases = .none) {
        self.rules = rules
        self.aliases = aliases
        var index: [String: [String: [Int]]] = [:]
        for position in rules.indices.reversed() {
            let rule = rules[position]
            for subject in rule.subjects {
                for action in aliases.expand(rule.actions) where index[subject, default: [:]][action]?.last != position {
                    index[subject, default: [:]][action, default: []].append(position)
                }
            }
        }
        self.index = index
        self.hasFieldRules = rules.contains { $0.fields != nil }
    }

    /// Reads raw CASL rules (JSON) with optional aliases.
    public init(json: JSONValue, aliases: ActionAliases = .none) throws(PermissionRuleError) {
        self.init(rules: try PermissionRule.list(json: json), aliases: aliases)
    }

    public func can(_ action: String, _ subject: AbilitySubject, field: String? = nil) -> Bool {
        guard let rule = relevantRule(action, subject, field: field) else { return false }
        return !rule.inverted
    }

    public func cannot(_ action: String, _ subject: AbilitySubject, field: String? = nil) -> Bool {
        !can(action, subject, field: field)
    }

    /// Throws CASL's `ForbiddenError` unless the check passes.
    public func authorize(_ action: String, _ subject: AbilitySubject, field: String? = nil) throws(ForbiddenError) {
        let rule = relevantRule(action, subject, field: field)
        if let rule, !rule.inverted { return }
        throw ForbiddenError(action: action, subjectType: subject.typeName, field: field, reason: rule?.reason)
    }

    /// The rule that decides the check, or nil when none applies (denied).
    public func relevantRule(_ action: String, _ subject: AbilitySubject, field: String? = nil) -> PermissionRule? {
        for rule in rulesFor(action, subjectType: subject.typeName, field: field) where Self.matches(rule, subject) {
            return rule
        }
        return nil
    }

    /// The rules that may decide `action` on `subjectType` (and `field`), highest precedence first.
    public func rulesFor(_ action: String, subjectType: String, field: String? = nil) -> [PermissionRule] {
        let candidates = possibleRules(action, subjectType: subjectType).map { rules[$0] }
        guard hasFieldRules else { return candidates }
        return candidates.filter { Self.covers($0, field: field) }
    }

    /// Indices of rules for the action or `manage`, on the type or `all`, newest first.
    private func possibleRules(_ action: String, subjectType: String) -> [Int] {
        let types = subjectType == "all" ? ["all"] : [subjectType, "all"]
        var found: [Int] = []
        for type in types {
            guard let actions = index[type] else { continue }
            found.append(contentsOf: actions[action] ?? [])
            if action != "manage" { found.append(contentsOf: actions["manage"] ?? []) }
        }
        // Newest first (higher index = later rule), each rule once.
        var seen = Set<Int>()
        return found.sorted(by: >).filter { seen.insert($0).inserted }
    }

    private static func covers(_ rule: PermissionRule, field: String?) -> Bool {
        guard let pattern = rule.fieldPattern else { return true }
        guard let field else { return !rule.inverted }
        return pattern.matches(field)
    }

    private static func matches(_ rule: PermissionRule, _ subject: AbilitySubject) -> Bool {
        guard let condition = rule.condition else { return true }
        guard case .instance(_, let fields) = subject else { return !rule.inverted }
        return condition.matches(.object(fields))
    }
}
