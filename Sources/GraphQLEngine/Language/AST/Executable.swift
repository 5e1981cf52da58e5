public enum OperationType: String, Sendable, Hashable, CaseIterable {
    case query, mutation, subscription
}

/// `query Name($v: T) @d { … }`, or the `{ … }` shorthand (no name, variables or directives).
public struct OperationDefinition: Sendable {
    /// Allowed by the September 2025 specification (graphql-js 16 rejects it).
    public var description: StringValue?
    public var operation: OperationType
    public var name: Name?
    public var variableDefinitions: [VariableDefinition]
    public var directives: [Directive]
    public var selectionSet: SelectionSet
    public var range: SourceRange
}

/// `$name: Type = default @directives`
public struct VariableDefinition: Sendable {
    /// Allowed by the September 2025 specification (graphql-js 16 rejects it).
    public var description: StringValue?
    public var variable: Variable
    public var type: TypeReference
    public var defaultValue: Value?
    public var directives: [Directive]
    public var range: SourceRange
}

/// `$name`
public struct Variable: Sendable, Hashable {
    public var name: Name
    public var range: SourceRange
}

/// `name: value`
public struct Argument: Sendable {
    public var name: Name
    public var value: Value
    public var range: SourceRange
}

/// `fragment Name on Type @directives { … }`
public struct FragmentDefinition: Sendable {
    /// Allowed by the September 2025 specification (graphql-js 16 rejects it).
    public var description: StringValue?
    public var name: Name
    public var typeCondition: NamedType
    public var directives: [Directive]
    public var selectionSet: SelectionSet
    public var range: SourceRange
}

/// `@name(arguments)`
public struct Directive: Sendable {
    public var name: Name
    /// A slice, as a field's arguments are (they are sliced from their document's storage).
    public var arguments: ArraySlice<Argument>
    public var range: SourceRange
}

/// A type named by reference: `User`.
public struct NamedType: Sendable, Hashable {
    public var name: Name
    public var range: SourceRange { name.range }
}

/// A type as written in a document: `User`, `[User]`, `User!`, `[User!]!`.
///
/// Non-null wraps a ``NullableType`` (as the grammar says: `NamedType !` or `ListType !`), so
/// `T!!` cannot be represented and `T!` needs no allocation; only lists are boxed.
public enum TypeReference: Sendable, Hashable {
    case named(NamedType)
    indirect case list(TypeReference, range: SourceRange)
    case nonNull(NullableType, range: SourceRange)

    public var range: SourceRange {
        switch self {
        case .named(let type): type.range
        case .list(_, let range), .nonNull(_, let range): range
        }
    }

    /// The named type at the core of lists and non-nulls.
    public var namedType: NamedType {
        switch self {
        case .named(let type): type
        case .list(let inner, _): inner.namedType
        case .nonNull(let inner, _): inner.typeReference.namedType
        }
    }
}

/// What a non-null type wraps: a named type or a list.
public enum NullableType: Sendable, Hashable {
    case named(NamedType)
    indirect case list(TypeReference, range: SourceRange)

    /// The same type as a ``TypeReference``.
    public var typeReference: TypeReference {
        switch self {
        case .named(let type): .named(type)
        case .list(let inner, let range): .list(inner, range: range)
        }
    }
}
