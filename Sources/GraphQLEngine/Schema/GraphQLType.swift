/// A named type's place in its ``GraphQLSchema``: an index into ``GraphQLSchema/types``.
///
/// Types refer to each other by id, so a schema is a flat, immutable table without reference
/// cycles, and "is this the same type" is an integer comparison.
public struct TypeID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let index: Int

    public init(_ index: Int) { self.index = index }

    public static func < (lhs: TypeID, rhs: TypeID) -> Bool { lhs.index < rhs.index }
    public var description: String { "#\(index)" }
}

/// A type as used by a field, argument or variable: a named type, possibly wrapped in lists
/// and non-null. Only the wrappers are boxed; a bare named type is an integer.
public enum GraphQLType: Hashable, Sendable {
    case named(TypeID)
    indirect case list(GraphQLType)
    indirect case nonNull(GraphQLType)

    /// The named type inside all wrappers.
    public var namedType: TypeID {
        switch self {
        case .named(let id): id
        case .list(let inner), .nonNull(let inner): inner.namedType
        }
    }

    /// The type without an outer non-null.
    public var nullable: GraphQLType {
        if case .nonNull(let inner) = self { return inner }
        return self
    }

    public var isNonNull: Bool {
        if case .nonNull = self { return true }
        return false
    }

    /// What a list value's items must be at a position of this type: the list's item type, or,
    /// for a position that is not a list, the nullable type itself (a lone value is coerced to a
    /// one-item list; graphql-js's TypeInfo does the same).
    public var listItemType: GraphQLType {
        let nullable = self.nullable
        if case .list(let item) = nullable { return item }
        return nullable
    }

    /// A list, possibly non-null.
    public var isList: Bool {
        if case .list = nullable { return true }
        return false
    }
}

/// The six kinds of named type (`__TypeKind` without the wrappers).
public enum TypeKind: String, Sendable, Hashable {
    case scalar = "SCALAR"
    case object = "OBJECT"
    case interface = "INTERFACE"
    case union = "UNION"
    case enumeration = "ENUM"
    case inputObject = "INPUT_OBJECT"

    /// Objects, interfaces and unions: the types a selection set can be made on.
    public var isComposite: Bool { self == .object || self == .interface || self == .union }
    /// Interfaces and unions.
    public var isAbstract: Bool { self == .interface || self == .union }
    /// Scalars and enums: the types a field ends in.
    public var isLeaf: Bool { self == .scalar || self == .enumeration }
    /// Types allowed for arguments, variables and input fields.
    public var isInput: Bool { self == .scalar || self == .enumeration || self == .inputObject }
    /// Types allowed for fields.
    public var isOutput: Bool { self != .inputObject }
}
