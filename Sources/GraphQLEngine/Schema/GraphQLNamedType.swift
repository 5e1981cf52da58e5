/// A named type of a schema: scalar, object, interface, union, enum or input object.
///
/// One shape for all six kinds (the way `__Type` presents them): collections that do not apply
/// to a kind are empty. Immutable once the schema is built; lookups by name are dictionaries,
/// so validation and execution never search a list.
public final class GraphQLNamedType: Sendable {
    public let id: TypeID
    public let name: String
    public let kind: TypeKind
    public let description: String?

    /// Objects and interfaces: fields in definition order, and their index by name.
    public let fields: [GraphQLField]
    let fieldIndex: [String: Int]
    /// Objects and interfaces: the interfaces they declare, in order.
    public let interfaces: [TypeID]
    /// Unions: member types in order. Interfaces: the object types implementing them.
    public let possibleTypes: [TypeID]
    let possibleTypeSet: Set<TypeID>
    /// Interfaces: the interfaces that implement this one.
    public let implementingInterfaces: [TypeID]
    /// Enums: values in order, and their index by name.
    public let enumValues: [GraphQLEnumValue]
    let enumValueIndex: [String: Int]
    /// Input objects: fields in order, and their index by name.
    public let inputFields: [GraphQLInputValue]
    let inputFieldIndex: [String: Int]
    /// Input objects marked `@oneOf`: exactly one field must be given.
    public let isOneOf: Bool
    /// Scalars: the `@specifiedBy` URL.
    public let specifiedByURL: String?
    /// Scalars: how literals are checked (and, for execution, values coerced).
    public let coercion: any ScalarCoercing

    /// The definition and extensions it was built from (empty for built-in types).
    public let definition: TypeDefinition?
    public let extensions: [TypeExtension]

    init(
        id: TypeID, name: String, kind: TypeKind, description: String?,
        fields: [GraphQLField] = [], interfaces: [TypeID] = [], possibleTypes: [TypeID] = [],
        implementingInterfaces: [TypeID] = [], enumValues: [GraphQLEnumValue] = [],
        inputFields: [GraphQLInputValue] = [], isOneOf: Bool = false, specifiedByURL: String? = nil,
        coercion: any ScalarCoercing = CustomScalarCoercion(),
        definition: TypeDefinition? = nil, extensions: [TypeExtension] = []
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.description = description
        self.fields = fields
        self.fieldIndex = Self.index(fields.map(\.name))
        self.interfaces = interfaces
        self.possibleTypes = possibleTypes
        self.possibleTypeSet = Set(possibleTypes)
        self.implementingInterfaces = implementingInterfaces
        self.enumValues = enumValues
        self.enumValueIndex = Self.index(enumValues.map(\.name))
        self.inputFields = inputFields
        self.inputFieldIndex = Self.index(inputFields.map(\.name))
        self.isOneOf = isOneOf
        self.specifiedByURL = specifiedByURL
        self.coercion = coercion
        self.definition = definition
        self.extensions = extensions
    }

    private static func index(_ names: [String]) -> [String: Int] {
        var index: [String: Int] = [:]
        index.reserveCapacity(names.count)
        for (position, name) in names.enumerated() where index[name] == nil {
            index[name] = position
        }
        return index
    }

    /// An object's or interface's field by name (meta fields such as `__typename` excluded).
    @inline(__always)
    public func field(named name: String) -> GraphQLField? {
        fieldIndex[name].map { fields[$0] }
    }

    public func inputField(named name: String) -> GraphQLInputValue? {
        inputFieldIndex[name].map { inputFields[$0] }
    }

    public func enumValue(named name: String) -> GraphQLEnumValue? {
        enumValueIndex[name].map { enumValues[$0] }
    }

    /// Whether `type` is a member (union) or implementation (interface) of this abstract type.
    @inline(__always)
    public func isPossibleType(_ type: TypeID) -> Bool { possibleTypeSet.contains(type) }

    public var fieldNames: [String] { fields.map(\.name) }
}

/// A field of an object or interface type.
///
/// A class, not a struct: validation and execution pass field definitions around constantly, and
/// a reference costs one retain where a copy would retain every member.
public final class GraphQLField: Sendable {
    public let name: String
    public let description: String?
    public let arguments: [GraphQLInputValue]
    public let type: GraphQLType
    public let deprecationReason: String?
    public let definition: FieldDefinition?

    public init(
        name: String, description: String?, arguments: [GraphQLInputValue], type: GraphQLType, deprecationReason: String?,
        definition: FieldDefinition?
    ) {
        self.name = name
        self.description = description
        self.arguments = arguments
        self.type = type
        self.deprecationReason = deprecationReason
        self.definition = definition
    }

    /// An argument by name; fields have few, so a scan beats hashing.
    public func argument(named name: String) -> GraphQLInputValue? {
        for argument in arguments where argument.name == name { return argument }
        return nil
    }
}

/// An argument (of a field or directive) or an input object's field.
/// A class for the same reason as ``GraphQLField``.
public final class GraphQLInputValue: Sendable {
    public let name: String
    public let description: String?
    public let type: GraphQLType
    /// The default as written in the schema, if any.
    public let defaultValue: Value?
    public let deprecationReason: String?
    public let definition: InputValueDefinition?

    public init(
        name: String, description: String?, type: GraphQLType, defaultValue: Value?, deprecationReason: String?,
        definition: InputValueDefinition?
    ) {
        self.name = name
        self.description = description
        self.type = type
        self.defaultValue = defaultValue
        self.deprecationReason = deprecationReason
        self.definition = definition
    }

    /// Non-null without a default: must be given.
    public var isRequired: Bool { type.isNonNull && defaultValue == nil }
}

/// One value of an enum type.
public struct GraphQLEnumValue: Sendable {
    public let name: String
    public let description: String?
    public let deprecationReason: String?
    public let definition: EnumValueDefinition?
}
