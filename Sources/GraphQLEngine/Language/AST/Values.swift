/// A value literal; constant ones (default values, SDL) have no variables.
public enum Value: Sendable {
    case variable(Variable)
    case int(IntValue)
    case float(FloatValue)
    case string(StringValue)
    case boolean(BooleanValue)
    case null(SourceRange)
    case enumValue(EnumValue)
    case list(ListValue)
    case object(ObjectValue)

    public var range: SourceRange {
        switch self {
        case .variable(let node): node.range
        case .int(let node): node.range
        case .float(let node): node.range
        case .string(let node): node.range
        case .boolean(let node): node.range
        case .null(let range): range
        case .enumValue(let node): node.range
        case .list(let node): node.range
        case .object(let node): node.range
        }
    }
}

/// An integer literal as written (`-42`); range checks belong to coercion.
public struct IntValue: Sendable, Hashable {
    public var value: String
    public var range: SourceRange
}

/// A float literal as written (`1.5e3`).
public struct FloatValue: Sendable, Hashable {
    public var value: String
    public var range: SourceRange
}

/// A string or block string, its value cooked (escapes, block indentation).
///
/// Where the value is a run of the source's bytes as they stand (a string without escapes, a
/// block string whose value is one line: most descriptions), the node borrows the source's bytes
/// instead of holding a copy, and ``value`` makes the String when asked for; parsing a schema
/// then copies no description (what V8's sliced strings do for graphql-js).
public struct StringValue: Sendable, Hashable {
    public var range: SourceRange
    /// The value and whether it was written as a block string (kept with it, in the byte that
    /// tells the cases apart, so the node is no larger than a String and a range).
    private var content: Content

    private enum Content: Sendable {
        case cooked(String, block: Bool)
        /// The document's bytes, and the run of them that is the value.
        case source([UInt8], SourceRange, block: Bool)
    }

    public init(value: String, block: Bool, range: SourceRange) {
        self.content = .cooked(value, block: block)
        self.range = range
    }

    /// A value that is `bytes` of `body` as they stand (UTF-8, as the lexer has checked).
    init(source body: [UInt8], bytes: SourceRange, block: Bool, range: SourceRange) {
        self.content = .source(body, bytes, block: block)
        self.range = range
    }

    public var value: String {
        get {
            switch content {
            case .cooked(let value, _):
                return value
            case .source(let body, let bytes, _):
                return body.withUnsafeBufferPointer { StringContent.bytes(bytes).string(in: $0) }
            }
        }
        set { content = .cooked(newValue, block: block) }
    }

    /// Whether it was written as a block string (`"""…"""`).
    public var block: Bool {
        get {
            switch content {
            case .cooked(_, let block), .source(_, _, let block): block
            }
        }
        set {
            switch content {
            case .cooked(let value, _): content = .cooked(value, block: newValue)
            case .source(let body, let bytes, _): content = .source(body, bytes, block: newValue)
            }
        }
    }

    public static func == (lhs: StringValue, rhs: StringValue) -> Bool {
        lhs.block == rhs.block && lhs.range == rhs.range && lhs.value == rhs.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
        hasher.combine(block)
        hasher.combine(range)
    }
}

public struct BooleanValue: Sendable, Hashable {
    public var value: Bool
    public var range: SourceRange
}

/// An enum value: a name other than `true`, `false` and `null`.
public struct EnumValue: Sendable, Hashable {
    public var value: String
    public var range: SourceRange
}

/// `[values]`
public struct ListValue: Sendable {
    public var values: [Value]
    public var range: SourceRange
}

/// `{name: value, …}`
public struct ObjectValue: Sendable {
    public var fields: [ObjectField]
    public var range: SourceRange
}

public struct ObjectField: Sendable {
    public var name: Name
    public var value: Value
    public var range: SourceRange
}
