/// One CASL rule: who may (or, `inverted`, may not) do `actions` on `subjects`, optionally only
/// for instances matching `conditions` and only on `fields`.
///
/// Built from CASL's raw rule JSON (`{action, subject, conditions, fields, inverted, reason}`);
/// conditions are compiled when the rule is made, so a rule that exists is a rule that works.
public struct PermissionRule: Sendable {
    /// The actions as written (aliases not yet expanded).
    public let actions: [String]
    /// The subject types; CASL's `all` when the rule names none.
    public let subjects: [String]
    /// The conditions as written (a MongoDB query), nil for an unconditional rule. As in CASL v7,
    /// empty conditions (`{}`) make a rule unconditional: it matches every subject and also decides
    /// checks on the subject type (CASL v6 counted `{}` as conditions).
    public let conditions: JSONValue?
    /// The field patterns as written, nil when the rule covers every field.
    public let fields: [String]?
    public let inverted: Bool
    public let reason: String?

    let condition: RuleCondition?
    let fieldPattern: FieldPattern?

    public init(actions: [String], subjects: [String], conditions: JSONValue? = nil, fields: [String]? = nil,
                inverted: Bool = false, reason: String? = nil) throws(PermissionRuleError) {
        guard !actions.isEmpty else { throw PermissionRuleError("a rule needs at least one action") }
        if let fields, fields.isEmpty {
            throw PermissionRuleError("\"fields\" cannot be an empty array (leave it out to cover every field)")
        }
        self.actions = actions
        self.subjects = subjects.isEmpty ? ["all"] : subjects
        let conditions = conditions?.objectValue?.isEmpty == true ? nil : conditions
        self.conditions = conditions
        self.fields = fields
        self.inverted = inverted
        self.reason = reason
        self.condition = try conditions.map { conditions throws(PermissionRuleError) in try RuleCondition.parse(query: conditions) }
        self.fieldPattern = fields.map(FieldPattern.init)
    }

    /// Reads a raw CASL rule. Unknown keys and ill-typed values are refused.
    public init(json: JSONValue) throws(PermissionRuleError) {
        guard let members = json.objectValue else { throw PermissionRuleError("a rule must be a JSON object") }
        for key in members.keys where !Self.keys.contains(key) {
            throw PermissionRuleError("unknown rule key \"\(key)\" (a rule has \(Self.keys.sorted().joined(separator: ", ")))")
        }
        guard let action = members["action"] else { throw PermissionRuleError("a rule needs \"action\"") }
        let actions = try Self.strings(action, key: "action")
        let subjects = try members["subject"].map { value throws(PermissionRuleError) in try Self.strings(value, key: "subject") } ?? []
        var conditions: JSONValue?
        switch members["conditions"] {
        case nil, .null?: conditions = nil
        case .object?: conditions = members["conditions"]
        case let other?: throw PermissionRuleError("\"conditions\" must be an object; got \(other.jsonText)")
        }
        var fields: [String]?
        switch members["fields"] {
        case nil, .null?: fields = nil
        case .array(let items)? where items.isEmpty: fields = []  // refused below with CASL's reason
        case let value?: fields = try Self.strings(value, key: "fields")
        }
        var inverted = false
        switch members["inverted"] {
        case nil, .null?: break
        case .bool(let value)?: inverted = value
        case let other?: throw PermissionRuleError("\"inverted\" must be true or false; got \(other.jsonText)")
        }
        var reason: String?
        switch members["reason"] {
        case nil, .null?: break
        case .string(let text)?: reason = text
        case let other?: throw PermissionRuleError("\"reason\" must be a string; got \(other.jsonText)")
        }
        try self.init(actions: actions, subjects: subjects, conditions: conditions, fields: fields, inverted: inverted, reason: reason)
    }

    /// Reads a JSON array of raw rules, naming the index of the first bad one.
    public static func list(json: JSONValue) throws(PermissionRuleError) -> [PermissionRule] {
        guard case .array(let items) = json else { throw PermissionRuleError("rules must be a JSON array") }
        var rules: [PermissionRule] = []
        for (index, item) in items.enumerated() {
            do {
                rules.append(try PermissionRule(json: item))
            } catch {
                throw PermissionRuleError(ruleIndex: index, error.message)
            }
        }
        return rules
    }

    static let keys: Set<String> = ["action", "subject", "conditions", "fields", "inverted", "reason"]

    private static func strings(_ value: JSONValue, key: String) throws(PermissionRuleError) -> [String] {
        switch value {
        case .string(let text) where !text.isEmpty: return [text]
        case .array(let items) where !items.isEmpty:
            var texts: [String] = []
            for item in items {
                guard case .string(let text) = item, !text.isEmpty else {
                    throw PermissionRuleError("\"\(key)\" must hold non-empty strings; got \(item.jsonText)")
                }
                texts.append(text)
            }
            return texts
        default:
            throw PermissionRuleError("\"\(key)\" must be a non-empty string or array of strings; got \(value.jsonText)")
        }
    }
}
