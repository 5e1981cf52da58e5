/// Evaluation of compiled conditions against a JSON object, with CASL's semantics for paths
/// (dots step into objects; a step into an array collects that key from every element) and two
/// deliberate differences: no JavaScript coercion (values of different JSON types are never equal
/// or ordered), and `null` matches a missing value (as MongoDB does).
extension RuleCondition {
    func matches(_ object: JSONValue?) -> Bool {
        switch self {
        case .and(let conditions):
            return conditions.allSatisfy { $0.matches(object) }
        case .field(let path, let test):
            return Self.evaluate(test, path: path, in: object)
        }
    }

    private static func evaluate(_ test: FieldTest, path: String?, in object: JSONValue?) -> Bool {
        if case .exists(let expected) = test {
            guard let present = exists(path: path, in: object) else { return false }
            return present == expected
        }
        let value = path.map { JSONPath.value(at: $0, in: object) } ?? object
        switch test {
        case .eq(let expected): return equalsOrContains(value, expected)
        case .ne(let expected): return !equalsOrContains(value, expected)
        case .compare(let comparison, let bound): return compare(value, comparison, bound)
        case .in(let items): return within(value, items)
        case .nin(let items): return !within(value, items)
        case .all(let items):
            guard case .array(let elements)? = value else { return false }
            return items.allSatisfy { item in elements.contains { strictlyEqual($0, item) } }
        case .size(let count):
            guard case .array(let elements)? = value else { return false }
            return Double(elements.count) == count
        case .regex(let pattern):
            switch value {
            case .string(let text)?: return pattern.matches(text)
            case .array(let elements)?: return elements.contains { $0.stringValue.map(pattern.matches) ?? false }
            default: return false
            }
        case .elemMatch(let condition):
            guard case .array(let elements)? = value else { return false }
            return elements.contains { condition.matches($0) }
        case .exists:
            return false  // handled above
        }
    }

    /// Equality as CASL's `eq`: an array holding the value matches a scalar.
    static func equalsOrContains(_ value: JSONValue?, _ expected: JSONValue) -> Bool {
        if case .array(let elements)? = value {
            if case .array = expected { return false }
            return elements.contains { strictlyEqual($0, expected) }
        }
        return strictlyEqual(value, expected)
    }

    /// `===` on JSON: scalars of one type with one value; arrays and objects are never equal
    /// (CASL compares them by reference). `null` equals a missing value.
    static func strictlyEqual(_ value: JSONValue?, _ expected: JSONValue) -> Bool {
        switch (value, expected) {
        case (nil, .null), (.null?, .null): return true
        case (.bool(let a)?, .bool(let b)): return a == b
        case (.number(let a)?, .number(let b)): return a == b
        case (.string(let a)?, .string(let b)): return a.utf16.elementsEqual(b.utf16)
        default: return false
        }
    }

    /// `$in`: the value is one of `items`, or (an array) holds one of them.
    static func within(_ value: JSONValue?, _ items: [JSONValue]) -> Bool {
        if case .array(let elements)? = value {
            return items.contains { item in elements.contains { strictlyEqual($0, item) } }
        }
        return items.contains { strictlyEqual(value, $0) }
    }

    /// Ordering between two numbers or two strings (UTF-16 code units, as JavaScript); false otherwise.
    static func compare(_ value: JSONValue?, _ comparison: Comparison, _ bound: JSONValue) -> Bool {
        let order: Int
        switch (value, bound) {
        case (.number(let a)?, .number(let b)):
            order = a < b ? -1 : a > b ? 1 : 0
        case (.string(let a)?, .string(let b)):
            order = a.utf16.lexicographicallyPrecedes(b.utf16) ? -1 : a.utf16.elementsEqual(b.utf16) ? 0 : 1
        default:
            return false
        }
        switch comparison {
        case .lt: return order < 0
        case .lte: return order <= 0
        case .gt: return order > 0
        case .gte: return order >= 0
        }
    }

    /// `$exists`: whether the object holding the last step has that key; nil when there is no
    /// such object (then neither `true` nor `false` matches, as in CASL).
    static func exists(path: String?, in object: JSONValue?) -> Bool? {
        guard let path else { return object != nil }
        var holder = object
        var key = Substring(path)
        if let dot = path.lastIndex(of: ".") {
            holder = JSONPath.value(at: String(path[..<dot]), in: object)
            key = path[path.index(after: dot)...]
        }
        switch holder {
        case .object(let members)?: return members[String(key)] != nil
        case .array(let elements)?:
            guard let index = Int(key), index >= 0 else { return false }
            return index < elements.count
        default: return nil
        }
    }
}

/// Dot paths through JSON, as CASL reads them.
enum JSONPath {
    static func value(at path: String, in object: JSONValue?) -> JSONValue? {
        var value = object
        let steps = path.split(separator: ".", omittingEmptySubsequences: false)
        for (index, step) in steps.enumerated() {
            value = field(step, of: value)
            switch value {
            case .object?, .array?: continue
            default: return index < steps.count - 1 ? nil : value
            }
        }
        return value
    }

    private static func field(_ step: Substring, of value: JSONValue?) -> JSONValue? {
        switch value {
        case .object(let members)?:
            return members[String(step)]
        case .array(let elements)?:
            if let index = Int(step) {
                return index >= 0 && index < elements.count ? elements[index] : nil
            }
            var collected: [JSONValue] = []
            for element in elements {
                guard case .object(let members) = element else { continue }
                switch members[String(step)] {
                case .array(let inner)?: collected.append(contentsOf: inner)
                case let found?: collected.append(found)
                case nil: break
                }
            }
            return .array(collected)
        default:
            return nil
        }
    }
}
