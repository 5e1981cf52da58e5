/// A schema with its resolvers bound to coordinates, checked once at start-up.
///
/// Binding fails, naming every problem, when an object field has no resolver and the default
/// does not apply, a resolver names a field the schema lacks, or a type resolver names a type
/// that is not an interface or union.
public final class ExecutableSchema: Sendable {
    public let schema: GraphQLSchema
    /// Per type (indexed by `TypeID`), per field (in definition order): how it resolves.
    let fieldBindings: [[Binding]]
    /// Per type (indexed by `TypeID`): the specified scalar it is, if any (worked out once here,
    /// as it takes a dynamic cast).
    let builtInLeaves: [BuiltInLeaf?]
    let typeResolvers: [TypeID: @Sendable (Resolved, FieldInput) throws -> String?]
    let subscriptions: [String: @Sendable (FieldInput) async throws -> AsyncThrowingStream<Resolved, any Error>]

    enum Binding: Sendable {
        case resolver(FieldResolver)
        /// Read the parent's key or property of this name.
        case property
        /// A subscription root field without a resolver: the event is the value.
        case event
        case introspection(Introspection.Field)
    }

    /// Why binding failed: one line per problem, each naming its coordinate.
    public struct BindingError: Error, Sendable, CustomStringConvertible {
        public var problems: [String]
        public var description: String {
            "Resolver binding failed:\n" + problems.map { "  " + $0 }.joined(separator: "\n")
        }
    }

    public init(_ schema: GraphQLSchema, resolvers: Resolvers) throws(BindingError) {
        var problems: [String] = []
        for duplicate in resolvers.duplicates { problems.append("\(duplicate): registered more than once") }
        var used: Set<String> = []
        var bindings: [[Binding]] = []
        bindings.reserveCapacity(schema.types.count)
        let subscriptionRoot = schema.subscriptionType.map { schema[$0].name }
        for type in schema.types {
            guard type.kind == .object else {
                bindings.append([])
                continue
            }
            var row: [Binding] = []
            row.reserveCapacity(type.fields.count)
            for field in type.fields {
                let coordinate = type.name + "." + field.name
                if let introspection = Introspection.Field(type: type.name, field: field.name) {
                    if resolvers.fields[coordinate] != nil { problems.append("\(coordinate): introspection fields cannot be overridden") }
                    used.insert(coordinate)
                    row.append(.introspection(introspection))
                    continue
                }
                if let resolver = resolvers.fields[coordinate] {
                    used.insert(coordinate)
                    row.append(.resolver(resolver))
                    continue
                }
                if type.name == subscriptionRoot, resolvers.subscriptions[coordinate] != nil {
                    row.append(.event)
                    continue
                }
                if type.name == subscriptionRoot {
                    row.append(.property)  // reported below: the field has no source stream
                    continue
                }
                switch resolvers.defaultResolution {
                case .everywhere:
                    row.append(.property)
                case .types(let names) where names.contains(type.name):
                    row.append(.property)
                default:
                    problems.append("\(coordinate): no resolver (and the default resolver is not enabled for \(type.name))")
                    row.append(.property)
                }
            }
            bindings.append(row)
        }
        for coordinate in resolvers.fields.keys.sorted() where !used.contains(coordinate) {
            problems.append("\(coordinate): resolver names a field the schema does not define" + Self.suggestion(coordinate, schema))
        }
        var subscriptions: [String: @Sendable (FieldInput) async throws -> AsyncThrowingStream<Resolved, any Error>] = [:]
        for (coordinate, subscribe) in resolvers.subscriptions.sorted(by: { $0.key < $1.key }) {
            let parts = coordinate.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[0] == subscriptionRoot, schema.type(named: parts[0])?.field(named: parts[1]) != nil else {
                problems.append("\(coordinate): subscription source names a field that is not a field of the subscription root type")
                continue
            }
            subscriptions[coordinate] = subscribe
        }
        if let root = schema.subscriptionType, !Self.isEverywhere(resolvers.defaultResolution) {
            for field in schema[root].fields where resolvers.subscriptions[schema[root].name + "." + field.name] == nil {
                problems.append("\(schema[root].name).\(field.name): subscription field has no source stream")
            }
        }
        var typeResolvers: [TypeID: @Sendable (Resolved, FieldInput) throws -> String?] = [:]
        for (name, resolve) in resolvers.typeResolvers.sorted(by: { $0.key < $1.key }) {
            guard let type = schema.type(named: name), type.kind == .interface || type.kind == .union else {
                problems.append("\(name): type resolver names a type that is not an interface or union of the schema")
                continue
            }
            typeResolvers[type.id] = resolve
        }
        guard problems.isEmpty else { throw BindingError(problems: problems) }
        self.schema = schema
        self.fieldBindings = bindings
        self.builtInLeaves = schema.types.map(BuiltInLeaf.init)
        self.typeResolvers = typeResolvers
        self.subscriptions = subscriptions
    }

    private static func isEverywhere(_ resolution: Resolvers.DefaultResolution) -> Bool {
        if case .everywhere = resolution { return true }
        return false
    }

    private static func suggestion(_ coordinate: String, _ schema: GraphQLSchema) -> String {
        let parts = coordinate.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, let type = schema.type(named: parts[0]) else { return "" }
        let names = Suggestions.list(parts[1], type.fields.map(\.name))
        guard let first = names.first else { return "" }
        return " (did you mean \(type.name).\(first)?)"
    }
}
