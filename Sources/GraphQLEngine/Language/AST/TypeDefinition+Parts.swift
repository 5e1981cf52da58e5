// The parts a type definition or extension may have, whatever its kind (empty when the kind
// has none), so code that treats definitions and extensions alike need not switch on the kind.

extension TypeDefinition {
    public var description: StringValue? {
        switch self {
        case .scalar(let node): node.description
        case .object(let node): node.description
        case .interface(let node): node.description
        case .union(let node): node.description
        case .enumeration(let node): node.description
        case .inputObject(let node): node.description
        }
    }

    public var directives: [Directive] {
        switch self {
        case .scalar(let node): node.directives
        case .object(let node): node.directives
        case .interface(let node): node.directives
        case .union(let node): node.directives
        case .enumeration(let node): node.directives
        case .inputObject(let node): node.directives
        }
    }

    /// Objects and interfaces: the interfaces they implement.
    public var interfaces: [NamedType] {
        switch self {
        case .object(let node): node.interfaces
        case .interface(let node): node.interfaces
        default: []
        }
    }

    /// Objects and interfaces: their fields.
    public var fields: [FieldDefinition] {
        switch self {
        case .object(let node): node.fields
        case .interface(let node): node.fields
        default: []
        }
    }

    /// Unions: their member types.
    public var members: [NamedType] {
        if case .union(let node) = self { return node.types }
        return []
    }

    /// Enums: their values.
    public var values: [EnumValueDefinition] {
        if case .enumeration(let node) = self { return node.values }
        return []
    }

    /// Input objects: their fields.
    public var inputFields: [InputValueDefinition] {
        if case .inputObject(let node) = self { return node.fields }
        return []
    }

    /// Where directives on the definition itself are applied.
    public var directiveLocation: DirectiveLocation {
        switch self {
        case .scalar: .scalar
        case .object: .object
        case .interface: .interface
        case .union: .union
        case .enumeration: .enumeration
        case .inputObject: .inputObject
        }
    }
}

extension TypeExtension {
    public var directives: [Directive] {
        switch self {
        case .scalar(let node): node.directives
        case .object(let node): node.directives
        case .interface(let node): node.directives
        case .union(let node): node.directives
        case .enumeration(let node): node.directives
        case .inputObject(let node): node.directives
        }
    }

    public var interfaces: [NamedType] {
        switch self {
        case .object(let node): node.interfaces
        case .interface(let node): node.interfaces
        default: []
        }
    }

    public var fields: [FieldDefinition] {
        switch self {
        case .object(let node): node.fields
        case .interface(let node): node.fields
        default: []
        }
    }

    public var members: [NamedType] {
        if case .union(let node) = self { return node.types }
        return []
    }

    public var values: [EnumValueDefinition] {
        if case .enumeration(let node) = self { return node.values }
        return []
    }

    public var inputFields: [InputValueDefinition] {
        if case .inputObject(let node) = self { return node.fields }
        return []
    }

    public var directiveLocation: DirectiveLocation {
        switch self {
        case .scalar: .scalar
        case .object: .object
        case .interface: .interface
        case .union: .union
        case .enumeration: .enumeration
        case .inputObject: .inputObject
        }
    }
}
