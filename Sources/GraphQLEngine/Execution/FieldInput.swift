/// What a field resolver receives: the parent value, the coerced arguments, the request's
/// context and a description of the field being resolved.
public struct FieldInput: Sendable {
    /// The parent object's value (for root fields, the root value).
    public let source: Resolved
    /// Arguments after coercion: defaults applied, variables substituted, only those given or defaulted.
    public let arguments: GraphQLObject
    /// The request context the host passed to `execute`.
    public let context: any Sendable
    /// The field, its parent type and the request.
    public let info: ResolveInfo
    /// Per-request services: DataLoaders.
    public let request: RequestScope

    /// The parent as the host type `T`, or an error naming the field (a binding mistake, not a client error).
    @inlinable
    public func parent<T>(_ type: T.Type) throws -> T {
        if let typed = source.object(as: T.self) { return typed }
        throw ResolverError.unexpectedParent(field: info.coordinate, expected: String(describing: T.self))
    }

    /// The context as the host type `T`.
    public func context<T>(_ type: T.Type) throws -> T {
        if let typed = context as? T { return typed }
        throw ResolverError.unexpectedContext(expected: String(describing: T.self))
    }

    /// The argument `name`, if given or defaulted.
    public subscript(argument name: String) -> GraphQLValue? { arguments[name] }
}

/// Mistakes in wiring a resolver; reported to clients as internal errors.
public enum ResolverError: Error, Sendable, CustomStringConvertible {
    case unexpectedParent(field: String, expected: String)
    case unexpectedContext(expected: String)

    public var description: String {
        switch self {
        case .unexpectedParent(let field, let expected): "\(field): parent value is not a \(expected)"
        case .unexpectedContext(let expected): "request context is not a \(expected)"
        }
    }
}

/// The field being resolved: built once per field of a planned selection, shared by every call.
public final class ResolveInfo: Sendable {
    public let fieldName: String
    public let parentType: GraphQLNamedType
    public let returnType: GraphQLType
    public let schema: GraphQLSchema
    /// The field's nodes in the document (several when the same response key is selected more than once).
    public let fieldNodes: [Field]
    /// `Parent.field`.
    public var coordinate: String { parentType.name + "." + fieldName }

    /// Whether the field's selection may ask for the sub-field `name` (directly or in an inline
    /// fragment; a fragment spread counts as yes): a resolver can skip work nobody asked for,
    /// such as a list's total count.
    public func selects(_ name: String) -> Bool {
        selects(path: [name])
    }

    /// Whether the selection may reach the sub-field at `path`, each name a field of the one
    /// before (`["edges", "node", "labels"]` through a connection); a fragment spread counts as yes.
    public func selects(path: [String]) -> Bool {
        func search(_ set: SelectionSet?, _ path: ArraySlice<String>) -> Bool {
            guard let name = path.first else { return true }
            guard let set else { return false }
            return set.selections.contains { selection in
                switch selection {
                case .field(let field): field.name.value == name && search(field.selectionSet, path.dropFirst())
                case .inlineFragment(let fragment): search(fragment.selectionSet, path)
                case .fragmentSpread: true
                }
            }
        }
        return fieldNodes.contains { search($0.selectionSet, path[...]) }
    }

    /// Whether the selection may reach any of the sub-fields `names` below `path` (a fragment
    /// spread counts as yes): a resolver can read only the columns a list shows.
    public func selects(anyOf names: [String], under path: [String] = []) -> Bool {
        names.contains { selects(path: path + [$0]) }
    }

    init(fieldName: String, parentType: GraphQLNamedType, returnType: GraphQLType, schema: GraphQLSchema, fieldNodes: [Field]) {
        self.fieldName = fieldName
        self.parentType = parentType
        self.returnType = returnType
        self.schema = schema
        self.fieldNodes = fieldNodes
    }
}

extension FieldInput {
    /// The field's arguments as the host type `T` (its properties named as the schema's
    /// arguments; the schema's defaults applied), decoded by ``GraphQLValueDecoder``.
    public func arguments<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        let definitions = info.parentType.field(named: info.fieldName)?.arguments ?? []
        return try GraphQLValueDecoder.decode(type, from: .object(arguments), fields: definitions, schema: info.schema)
    }
}
