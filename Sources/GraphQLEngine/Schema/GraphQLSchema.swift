/// A validated GraphQL schema: its named types (a flat table indexed by ``TypeID``), root
/// operation types and directives. Immutable and `Sendable`; build one with ``SchemaBuilder``.
public final class GraphQLSchema: Sendable {
    public let description: String?
    /// Every type the schema reaches, in graphql-js's type-map order (the order introspection lists).
    public let types: [GraphQLNamedType]
    let typeIndex: [String: TypeID]
    public let queryType: TypeID?
    public let mutationType: TypeID?
    public let subscriptionType: TypeID?
    /// Defined directives in SDL order, then the built-ins the SDL did not redefine.
    public let directives: [GraphQLDirective]
    let directiveIndex: [String: Int]
    /// `__typename`, `__schema` and `__type(name:)`: fields every composite (or the query) type has.
    public let typenameField: GraphQLField
    public let schemaField: GraphQLField
    public let typeField: GraphQLField
    /// The schema definition and extensions it was built from, and their source.
    public let definition: SchemaDefinition?
    public let extensions: [SchemaExtension]
    public let source: Source?

    init(
        description: String?, types: [GraphQLNamedType], queryType: TypeID?, mutationType: TypeID?,
        subscriptionType: TypeID?, directives: [GraphQLDirective], metaFields: (GraphQLField, GraphQLField, GraphQLField),
        definition: SchemaDefinition?, extensions: [SchemaExtension], source: Source?
    ) {
        self.description = description
        self.types = types
        var typeIndex: [String: TypeID] = [:]
        typeIndex.reserveCapacity(types.count)
        for type in types { typeIndex[type.name] = type.id }
        self.typeIndex = typeIndex
        self.queryType = queryType
        self.mutationType = mutationType
        self.subscriptionType = subscriptionType
        self.directives = directives
        var directiveIndex: [String: Int] = [:]
        for (position, directive) in directives.enumerated() where directiveIndex[directive.name] == nil {
            directiveIndex[directive.name] = position
        }
        self.directiveIndex = directiveIndex
        (self.typenameField, self.schemaField, self.typeField) = metaFields
        self.definition = definition
        self.extensions = extensions
        self.source = source
    }

    @inline(__always)
    public subscript(id: TypeID) -> GraphQLNamedType { types[id.index] }

    public func type(named name: String) -> GraphQLNamedType? {
        typeIndex[name].map { types[$0.index] }
    }

    public func typeID(named name: String) -> TypeID? { typeIndex[name] }

    public func directive(named name: String) -> GraphQLDirective? {
        directiveIndex[name].map { directives[$0] }
    }

    public func rootType(for operation: OperationType) -> TypeID? {
        switch operation {
        case .query: queryType
        case .mutation: mutationType
        case .subscription: subscriptionType
        }
    }

    /// The field `name` of a composite type as a selection sees it, meta fields included:
    /// `__typename` on every composite type, `__schema` and `__type` on the query type.
    @inline(__always)
    public func fieldDefinition(on parent: TypeID, named name: String) -> GraphQLField? {
        if name.utf8.first == UInt8(ascii: "_") {
            if name == "__typename" { return self[parent].kind.isComposite ? typenameField : nil }
            if parent == queryType {
                if name == "__schema" { return schemaField }
                if name == "__type" { return typeField }
            }
        }
        return self[parent].field(named: name)
    }

    /// The object types an abstract type may be at run time (union members, interface implementations).
    public func possibleTypes(of type: TypeID) -> [TypeID] {
        let named = self[type]
        switch named.kind {
        case .union, .interface: return named.possibleTypes
        case .object: return [type]
        default: return []
        }
    }

    /// Whether `subType` is a member of the union or implements the interface `abstractType`.
    @inline(__always)
    public func isSubType(_ abstractType: TypeID, _ subType: TypeID) -> Bool {
        let abstract = self[abstractType]
        switch abstract.kind {
        case .union: return abstract.isPossibleType(subType)
        case .interface:
            return abstract.isPossibleType(subType) || abstract.implementingInterfaces.contains(subType)
        default: return false
        }
    }

    /// Whether a value of `subType` may be used where `superType` is expected (covariance).
    public func isTypeSubType(_ subType: GraphQLType, of superType: GraphQLType) -> Bool {
        if subType == superType { return true }
        switch (subType, superType) {
        case (.nonNull(let sub), .nonNull(let sup)): return isTypeSubType(sub, of: sup)
        case (_, .nonNull): return false
        case (.nonNull(let sub), _): return isTypeSubType(sub, of: superType)
        case (.list(let sub), .list(let sup)): return isTypeSubType(sub, of: sup)
        case (_, .list), (.list, _): return false
        case (.named(let sub), .named(let sup)):
            let subKind = self[sub].kind
            return self[sup].kind.isAbstract && (subKind == .interface || subKind == .object) && isSubType(sup, sub)
        }
    }

    /// Whether some object type could be both `a` and `b` (both composite).
    public func doTypesOverlap(_ a: TypeID, _ b: TypeID) -> Bool {
        if a == b { return true }
        let aAbstract = self[a].kind.isAbstract
        let bAbstract = self[b].kind.isAbstract
        if aAbstract {
            if bAbstract {
                return possibleTypes(of: a).contains { isSubType(b, $0) }
            }
            return isSubType(a, b)
        }
        if bAbstract { return isSubType(b, a) }
        return false
    }

    /// A type as GraphQL writes it: `[String!]!`.
    public func describe(_ type: GraphQLType) -> String {
        switch type {
        case .named(let id): self[id].name
        case .list(let inner): "[" + describe(inner) + "]"
        case .nonNull(let inner): describe(inner) + "!"
        }
    }

    /// The schema type a document's type reference names; `nil` if a name is unknown.
    public func type(of reference: TypeReference) -> GraphQLType? {
        switch reference {
        case .named(let named): typeIndex[named.name.value].map(GraphQLType.named)
        case .list(let inner, _): type(of: inner).map(GraphQLType.list)
        case .nonNull(let inner, _): type(of: inner.typeReference).map(GraphQLType.nonNull)
        }
    }

    public func kind(of type: GraphQLType) -> TypeKind { self[type.namedType].kind }
}

/// Everything wrong with an SDL document or the schema it describes.
public struct SchemaError: Error, Sendable, CustomStringConvertible {
    public let errors: [GraphQLError]

    public init(_ errors: [GraphQLError]) { self.errors = errors }

    public var description: String { errors.map(\.printed).joined(separator: "\n\n") }
}
