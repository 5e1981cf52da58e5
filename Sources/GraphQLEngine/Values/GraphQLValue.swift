/// A runtime value: variables, coerced arguments, JSON data and serialized leaf results.
///
/// One small enum instead of `Any`; objects keep their keys in order, as JSON and graphql-js do.
public enum GraphQLValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// An integer written without fraction or exponent (JavaScript would hold it as a number).
    case int(Int)
    case float(Double)
    case string(String)
    case list([GraphQLValue])
    case object(GraphQLObject)

    /// The number this value holds, as JavaScript sees numbers.
    var number: Double? {
        switch self {
        case .int(let int): Double(int)
        case .float(let double): double
        default: nil
        }
    }

    /// The integer this value holds when it is a number with no fraction (`3.0` counts, as in JavaScript).
    var integer: Int? {
        switch self {
        case .int(let int): return int
        case .float(let double):
            guard double.isFinite, double.rounded(.towardZero) == double, abs(double) < 9.007_199_254_740_992e15 else {
                return nil
            }
            return Int(double)
        default: return nil
        }
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value under `key` when this is an object.
    public subscript(key: String) -> GraphQLValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }
}

/// An object value with ordered keys; a key appears once (a later duplicate replaces the earlier value in place).
public struct GraphQLObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var entries: [(key: String, value: GraphQLValue)]

    public init() { entries = [] }

    /// The entries in order; a repeated key keeps its first position and its last value.
    public init(_ entries: [(key: String, value: GraphQLValue)]) {
        if Self.hasDistinctKeys(entries) {
            self.entries = entries
            return
        }
        self.entries = []
        self.entries.reserveCapacity(entries.count)
        for (key, value) in entries { self[key] = value }
    }

    public init(dictionaryLiteral elements: (String, GraphQLValue)...) {
        self.init(literal: elements)
    }

    /// A literal's pairs as the entries, in their own array. A tuple's labels are no part of its
    /// layout, so the array is reinterpreted rather than copied: converting it (a new array, each
    /// pair copied) cost a fifth of a request whose resolvers answer objects written as literals.
    init(literal elements: [(String, GraphQLValue)]) {
        self.init(unsafeBitCast(elements, to: [(key: String, value: GraphQLValue)].self))
    }

    /// Whether no key is repeated (the common case: literals and decoded objects), checked
    /// pairwise while small.
    private static func hasDistinctKeys(_ entries: [(key: String, value: GraphQLValue)]) -> Bool {
        guard entries.count > 1 else { return true }
        guard entries.count <= 16 else { return Set(entries.lazy.map(\.key)).count == entries.count }
        for first in 1..<entries.count {
            for second in 0..<first where entries[first].key == entries[second].key { return false }
        }
        return true
    }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }
    public var keys: [String] { entries.map(\.key) }

    public subscript(key: String) -> GraphQLValue? {
        get {
            // By index: iterating would copy (and retain) every entry passed over.
            for index in entries.indices where entries[index].key == key { return entries[index].value }
            return nil
        }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append((key, newValue))
            }
        }
    }

    /// Appends without checking for an existing key (the caller knows keys are distinct).
    mutating func appendUnique(_ key: String, _ value: GraphQLValue) {
        entries.append((key, value))
    }

    public func makeIterator() -> IndexingIterator<[(key: String, value: GraphQLValue)]> {
        entries.makeIterator()
    }

    public static func == (lhs: GraphQLObject, rhs: GraphQLObject) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries.count)
        for entry in entries {
            hasher.combine(entry.key)
            hasher.combine(entry.value)
        }
    }
}

extension GraphQLValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .float(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: GraphQLValue...) { self = .list(elements) }
    public init(dictionaryLiteral elements: (String, GraphQLValue)...) {
        self = .object(GraphQLObject(literal: elements))
    }
}
