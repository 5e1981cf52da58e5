/// `schema @directives { query: Query … }`
public struct SchemaDefinition: Sendable {
    public var description: StringValue?
    public var directives: [Directive]
    public var operationTypes: [OperationTypeDefinition]
    public var range: SourceRange
}

/// `query: Query` inside a schema definition or extension.
public struct OperationTypeDefinition: Sendable {
    public var operation: OperationType
    public var type: NamedType
    public var range: SourceRange
}

/// A named type's definition.
public enum TypeDefinition: Sendable {
    case scalar(ScalarTypeDefinition)
    case object(ObjectTypeDefinition)
    case interface(InterfaceTypeDefinition)
    case union(UnionTypeDefinition)
    case enumeration(EnumTypeDefinition)
    case inputObject(InputObjectTypeDefinition)

    public var name: Name {
        switch self {
        case .scalar(let node): node.name
        case .object(let node): node.name
        case .interface(let node): node.name
        case .union(let node): node.name
        case .enumeration(let node): node.name
        case .inputObject(let node): node.name
        }
    }

    public var range: SourceRange {
        switch self {
        case .scalar(let node): node.range
        case .object(let node): node.range
        case .interface(let node): node.range
        case .union(let node): node.range
        case .enumeration(let node): node.range
        case .inputObject(let node): node.range
        }
    }
}

public struct ScalarTypeDefinition: Sendable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var range: SourceRange
}

public struct ObjectTypeDefinition: Sendable {
    public var description: StringValue?
    public var name: Name
    public var interfaces: [NamedType]
    public var directives: [Directive]
    public var fields: [FieldDefinition]
    public var range: SourceRange
}

/// `name(arguments): Type @directives` in an object or interface.
public struct FieldDefinition: Sendable {
    public var description: StringValue?
    public var name: Name
    public var arguments: [InputValueDefinition]
    public var type: TypeReference
    public var directives: [Directive]
    public var range: SourceRange
}

/// An argument or input field: `name: Type = default @directives`.
public struct InputValueDefinition: Sendable {
    public var description: StringValue?
    public var name: Name
    public var type: TypeReference
    public var defaultValue: Value?
    public var directives: [Directive]
    public var range: SourceRange
}

public struct InterfaceTypeDefinition: Sendable {
    public var description: StringValue?
    public var name: Name
    public var interfaces: [NamedType]
    public var directives: [Directive]
    public var fields: [FieldDefinition]
    public var range: SourceRange
}

public struct UnionTypeDefinition: Sendable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var types: [NamedType]
    public var range: SourceRange
}

public struct EnumTypeDefinition: Sendable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var values: [EnumValueDefinition]
    public var range: SourceRange
}

public struct EnumValueDefinition: Sendable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var range: SourceRange
}

public struct InputObjectTypeDefinition: Sendable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var fields: [InputValueDefinition]
    public var range: SourceRange
}

/// `directive @name(arguments) repeatable on LOCATION | …`
public struct DirectiveDefinition: Sendable {
    public var description: StringValue?
    public var name: Name
    public var arguments: [InputValueDefinition]
    public var repeatable: Bool
    /// The locations as written; each is a valid ``DirectiveLocation`` (the parser checks).
    public var locations: [Name]
    public var range: SourceRange

    public var directiveLocations: [DirectiveLocation] {
        locations.compactMap { DirectiveLocation(rawValue: $0.value) }
    }
}

/// Where a directive may appear.
public enum DirectiveLocation: String, Sendable, Hashable, CaseIterable {
    // Executable
    case query = "QUERY"
    case mutation = "MUTATION"
    case subscription = "SUBSCRIPTION"
    case field = "FIELD"
    case fragmentDefinition = "FRAGMENT_DEFINITION"
    case fragmentSpread = "FRAGMENT_SPREAD"
    case inlineFragment = "INLINE_FRAGMENT"
    case variableDefinition = "VARIABLE_DEFINITION"
    // Type system
    case schema = "SCHEMA"
    case scalar = "SCALAR"
    case object = "OBJECT"
    case fieldDefinition = "FIELD_DEFINITION"
    case argumentDefinition = "ARGUMENT_DEFINITION"
    case interface = "INTERFACE"
    case union = "UNION"
    case enumeration = "ENUM"
    case enumValue = "ENUM_VALUE"
    case inputObject = "INPUT_OBJECT"
    case inputFieldDefinition = "INPUT_FIELD_DEFINITION"
}
