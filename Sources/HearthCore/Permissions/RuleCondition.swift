import Foundation

/// A rule's conditions, compiled from CASL's MongoDB-style query: the fields of the query are
/// ANDed; each field holds either a value (equality) or operators.
///
/// Supported operators are CASL's defaults: `$eq $ne $lt $lte $gt $gte $in $nin $all $size
/// $regex` (with `$options`) `$elemMatch $exists`. Anything else is refused when parsed.
indirect enum RuleCondition: Sendable {
    /// Every condition holds (an empty list always holds: `{}` matches everything).
    case and([RuleCondition])
    /// A test on the value at `path` (dot-separated; nil tests the value itself, inside `$elemMatch`).
    case field(path: String?, FieldTest)

    enum Comparison: String, Sendable {
        case lt = "$lt", lte = "$lte", gt = "$gt", gte = "$gte"
    }

    enum FieldTest: Sendable {
        case eq(JSONValue)
        case ne(JSONValue)
        case compare(Comparison, JSONValue)
        case `in`([JSONValue])
        case nin([JSONValue])
        case all([JSONValue])
        case size(Double)
        case regex(RulePattern)
        case elemMatch(RuleCondition)
        case exists(Bool)
    }

    static let operators: Set<String> = [
        "$eq", "$ne", "$lt", "$lte", "$gt", "$gte", "$in", "$nin", "$all", "$size", "$regex", "$options", "$elemMatch", "$exists",
    ]

    /// Parses a query object (`{"householdId": "…", "role": {"$in": ["MEMBER"]}}`).
    static func parse(query: JSONValue) throws(PermissionRuleError) -> RuleCondition {
        guard let members = query.objectValue else { throw PermissionRuleError("conditions must be an object; got \(query.jsonText)") }
        var conditions: [RuleCondition] = []
        for key in members.keys.sorted() {
            let value = members[key, default: .null]
            if key.hasPrefix("$") {
                if operators.contains(key) {
                    throw PermissionRuleError("operator \"\(key)\" must be applied to a field, not to the whole query")
                }
                throw PermissionRuleError("unsupported operator \"\(key)\" (supported: \(operators.sorted().joined(separator: " ")))")
            }
            if hasOperators(value) {
                conditions.append(contentsOf: try parseOperators(value, path: key))
            } else {
                conditions.append(.field(path: key, .eq(value)))
            }
        }
        return all(conditions)
    }

    /// The conjunction of `conditions`, or the single one itself.
    static func all(_ conditions: [RuleCondition]) -> RuleCondition {
        conditions.count == 1 ? conditions[0] : .and(conditions)
    }

    /// A plain object with at least one `$` key is a set of operators (as CASL's parser decides).
    static func hasOperators(_ value: JSONValue) -> Bool {
        guard let members = value.objectValue else { return false }
        return members.keys.contains { $0.hasPrefix("$") }
    }

    static func parseOperators(_ value: JSONValue, path: String?) throws(PermissionRuleError) -> [RuleCondition] {
        let members = value.objectValue ?? [:]
        let name = path.map { "\"\($0)\"" } ?? "$elemMatch"
        var tests: [RuleCondition] = []
        for key in members.keys.sorted() {
            let operand = members[key, default: .null]
            guard key.hasPrefix("$") else {
                throw PermissionRuleError("the query for \(name) may hold only operators or a plain object; got key \"\(key)\"")
            }
            let test: FieldTest
            switch key {
            case "$eq": test = .eq(operand)
            case "$ne": test = .ne(operand)
            case "$lt", "$lte", "$gt", "$gte":
                switch operand {
                case .number, .string: test = .compare(Comparison(rawValue: key) ?? .lt, operand)
                default: throw PermissionRuleError("\"\(key)\" on \(name) expects a string or a number; got \(operand.jsonText)")
                }
            case "$in", "$nin", "$all":
                guard case .array(let items) = operand else {
                    throw PermissionRuleError("\"\(key)\" on \(name) expects an array; got \(operand.jsonText)")
                }
                test = key == "$in" ? .in(items) : key == "$nin" ? .nin(items) : .all(items)
            case "$size":
                guard case .number(let count) = operand else {
                    throw PermissionRuleError("\"$size\" on \(name) expects a number; got \(operand.jsonText)")
                }
                test = .size(count)
            case "$regex":
                guard case .string(let source) = operand else {
                    throw PermissionRuleError("\"$regex\" on \(name) expects a string; got \(operand.jsonText)")
                }
                var flags = ""
                if let options = members["$options"] {
                    guard case .string(let text) = options else {
                        throw PermissionRuleError("\"$options\" on \(name) expects a string; got \(options.jsonText)")
                    }
                    flags = text
                }
                test = .regex(try RulePattern(source: source, flags: flags))
            case "$options":
                continue  // read with $regex; alone it means nothing (as in CASL)
            case "$elemMatch":
                guard case .object = operand else {
                    throw PermissionRuleError("\"$elemMatch\" on \(name) expects an object; got \(operand.jsonText)")
                }
                if hasOperators(operand) {
                    test = .elemMatch(all(try parseOperators(operand, path: nil)))
                } else {
                    test = .elemMatch(try parse(query: operand))
                }
            case "$exists":
                guard case .bool(let flag) = operand else {
                    throw PermissionRuleError("\"$exists\" on \(name) expects true or false; got \(operand.jsonText)")
                }
                test = .exists(flag)
            default:
                throw PermissionRuleError("unsupported operator \"\(key)\" on \(name) (supported: \(operators.sorted().joined(separator: " ")))")
            }
            tests.append(.field(path: path, test))
        }
        return tests
    }
}

/// A `$regex` compiled once: JavaScript's flags `i`, `m` and `s` are honoured; `g`, `y`, `u` and
/// `d` change nothing for a match test; any other flag is refused.
struct RulePattern: @unchecked Sendable {
    // NSRegularExpression is immutable and documented thread-safe for matching.
    let source: String
    let flags: String
    let expression: NSRegularExpression

    init(source: String, flags: String) throws(PermissionRuleError) {
        var options: NSRegularExpression.Options = []
        for flag in flags {
            switch flag {
            case "i": options.insert(.caseInsensitive)
            case "m": options.insert(.anchorsMatchLines)
            case "s": options.insert(.dotMatchesLineSeparators)
            case "g", "y", "u", "d": break
            default: throw PermissionRuleError("unsupported regular expression flag \"\(flag)\" in \"\(flags)\"")
            }
        }
        do {
            expression = try NSRegularExpression(pattern: source, options: options)
        } catch {
            throw PermissionRuleError("invalid regular expression /\(source)/: \(error)")
        }
        self.source = source
        self.flags = flags
    }

    func matches(_ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
