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
public struct StringValue: Sendable, Hashable {
    public var value: String
    public var block: Bool
    public var range: SourceRange
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
