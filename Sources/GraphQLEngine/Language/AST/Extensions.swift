/// `extend schema @directives { … }`
public struct SchemaExtension: Sendable {
    public var directives: [Directive]
    public var operationTypes: [OperationTypeDefinition]
    public var range: SourceRange
}

/// `extend scalar|type|interface|union|enum|input …`
public enum TypeExtension: Sendable {
    case scalar(ScalarTypeExtension)
    case object(ObjectTypeExtension)
    case interface(InterfaceTypeExtension)
    case union(UnionTypeExtension)
    case enumeration(EnumTypeExtension)
    case inputObject(InputObjectTypeExtension)

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

public struct ScalarTypeExtension: Sendable {
    public var name: Name
    public var directives: [Directive]
    public var range: SourceRange
}

public struct ObjectTypeExtension: Sendable {
    public var name: Name
    public var interfaces: [NamedType]
    public var directives: [Directive]
    public var fields: [FieldDefinition]
    public var range: SourceRange
}

public struct InterfaceTypeExtension: Sendable {
    public var name: Name
    public var interfaces: [NamedType]
    public var directives: [Directive]
    public var fields: [FieldDefinition]
    public var range: SourceRange
}

public struct UnionTypeExtension: Sendable {
    public var name: Name
    public var directives: [Directive]
    public var types: [NamedType]
    public var range: SourceRange
}

public struct EnumTypeExtension: Sendable {
    public var name: Name
    public var directives: [Directive]
    public var values: [EnumValueDefinition]
    public var range: SourceRange
}

public struct InputObjectTypeExtension: Sendable {
    public var name: Name
    public var directives: [Directive]
    public var fields: [InputValueDefinition]
    public var range: SourceRange
}
