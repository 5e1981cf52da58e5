/// CASL's action aliases (`createAliasResolver`): `{"modify": ["update", "delete"]}` lets a rule
/// for `modify` cover `update` and `delete`. Aliases may name aliases; cycles and aliases of or to
/// `manage` (which already means every action) are refused.
public struct ActionAliases: Sendable {
    public let aliases: [String: [String]]

    public static let none = ActionAliases(validated: [:])

    private init(validated aliases: [String: [String]]) {
        self.aliases = aliases
    }

    public init(_ aliases: [String: [String]]) throws(PermissionRuleError) {
        if aliases["manage"] != nil {
            throw PermissionRuleError("cannot use \"manage\" as an alias because it's a reserved action")
        }
        for alias in aliases.keys.sorted() {
            var actions = [alias]
            var index = 0
            while index < actions.count {
                let action = actions[index]
                index += 1
                guard let targets = aliases[action] else { continue }
                if let duplicate = targets.first(where: actions.contains) {
                    throw PermissionRuleError("detected a cycle of aliases: \(duplicate) -> \(actions.joined(separator: ", "))")
                }
                if targets.contains("manage") {
                    throw PermissionRuleError("cannot make an alias to \"manage\" because it's a reserved action")
                }
                actions.append(contentsOf: targets)
            }
        }
        self.aliases = aliases
    }

    /// Reads `{"alias": "action" | ["action", …]}`.
    public init(json: JSONValue) throws(PermissionRuleError) {
        guard let members = json.objectValue else { throw PermissionRuleError("aliases must be a JSON object") }
        var aliases: [String: [String]] = [:]
        for (alias, value) in members {
            switch value {
            case .string(let action): aliases[alias] = [action]
            case .array(let items):
                aliases[alias] = try items.map { item throws(PermissionRuleError) in
                    guard let action = item.stringValue else {
                        throw PermissionRuleError("alias \"\(alias)\" must name actions as strings; got \(item.jsonText)")
                    }
                    return action
                }
            default: throw PermissionRuleError("alias \"\(alias)\" must be a string or an array of strings; got \(value.jsonText)")
            }
        }
        try self.init(aliases)
    }

    /// `actions` with every alias expanded, recursively, in CASL's order.
    func expand(_ actions: [String]) -> [String] {
        var expanded = actions
        var index = 0
        while index < expanded.count {
            let action = expanded[index]
            index += 1
            if let targets = aliases[action] { expanded.append(contentsOf: targets) }
        }
        return expanded
    }
}
