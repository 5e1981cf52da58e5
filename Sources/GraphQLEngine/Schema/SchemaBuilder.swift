/// Options for building a schema from SDL.
public struct SchemaBuildOptions: Sendable {
    /// Coercion hooks for custom scalars, by scalar name; scalars without one accept any literal.
    /// A hook named after a specified scalar (`String`, `Int`, …) replaces its coercion: for a
    /// host that must refine one (it should keep the specified behaviour and add to it).
    public var scalars: [String: any ScalarCoercing]
    /// Run schema validation (graphql-js `validateSchema`) after building; on by default.
    public var validate: Bool

    public init(scalars: [String: any ScalarCoercing] = [:], validate: Bool = true) {
        self.scalars = scalars
        self.validate = validate
    }
}

/// SDL → ``GraphQLSchema``, as graphql-js's `buildASTSchema` does it: the SDL rules first, then
/// types with their extensions, root types (from `schema { … }` or the names Query, Mutation and
/// Subscription), the built-in directives the SDL does not redefine, and schema validation.
/// Every problem is reported, each with its locations.
public enum SchemaBuilder {
    public static func build(sdl: String, name: String = "schema.graphql", options: SchemaBuildOptions = .init())
        throws(SchemaError) -> GraphQLSchema
    {
        let document: Document
        do {
            document = try Parser.parse(Source(sdl, name: name), options: .trusted)
        } catch {
            throw SchemaError([error])
        }
        return try build(document, options: options)
    }

    public static func build(_ document: Document, options: SchemaBuildOptions = .init()) throws(SchemaError)
        -> GraphQLSchema
    {
        let sdlErrors = SDLValidator.validate(document)
        if !sdlErrors.isEmpty { throw SchemaError(sdlErrors) }
        var assembly = SchemaAssembly(document: document, options: options)
        let schema = try assembly.build()
        if options.validate {
            let errors = SchemaValidator.validate(schema)
            if !errors.isEmpty { throw SchemaError(errors) }
        }
        return schema
    }
}

/// The working state of one build: definitions gathered by name, then turned into types.
struct SchemaAssembly {
    /// A type's definition and extensions; built-in ones keep no AST in the finished schema.
    struct Pending {
        var definition: TypeDefinition
        var extensions: [TypeExtension] = []
        var builtIn: Bool
    }

    let document: Document
    let options: SchemaBuildOptions
    var pending: [String: Pending] = [:]
    var userTypeNames: [String] = []
    var directiveDefinitions: [DirectiveDefinition] = []
    var schemaDefinition: SchemaDefinition?
    var schemaExtensions: [SchemaExtension] = []
    var builtInDirectives: [DirectiveDefinition] = []
    var ids: [String: TypeID] = [:]
    var errors: [GraphQLError] = []

    init(document: Document, options: SchemaBuildOptions) {
        self.document = document
        self.options = options
        var builtInTypes: [String: TypeDefinition] = [:]
        for definition in BuiltInDefinitions.document.definitions {
            switch definition {
            case .type(let type): builtInTypes[type.name.value] = type
            case .directive(let directive): builtInDirectives.append(directive)
            default: break
            }
        }
        var extensions: [String: [TypeExtension]] = [:]
        for definition in document.definitions {
            switch definition {
            case .type(let type):
                let name = type.name.value
                guard pending[name] == nil else { continue }
                userTypeNames.append(name)
                if let builtIn = builtInTypes[name] {
                    pending[name] = Pending(definition: builtIn, builtIn: true)
                } else {
                    pending[name] = Pending(definition: type, builtIn: false)
                }
            case .typeExtension(let extensionNode):
                extensions[extensionNode.name.value, default: []].append(extensionNode)
            case .directive(let directive): directiveDefinitions.append(directive)
            case .schema(let schema): if schemaDefinition == nil { schemaDefinition = schema }
            case .schemaExtension(let schemaExtension): schemaExtensions.append(schemaExtension)
            case .operation, .fragment: break
            }
        }
        for (name, nodes) in extensions where pending[name]?.builtIn == false {
            pending[name]?.extensions = nodes
        }
        for (name, type) in builtInTypes where pending[name] == nil {
            pending[name] = Pending(definition: type, builtIn: true)
        }
    }

    // MARK: - Merged parts of a definition and its extensions

    static func interfaces(_ type: Pending) -> [NamedType] {
        type.extensions.isEmpty ? type.definition.interfaces : type.definition.interfaces + type.extensions.flatMap(\.interfaces)
    }

    static func fields(_ type: Pending) -> [FieldDefinition] {
        type.extensions.isEmpty ? type.definition.fields : type.definition.fields + type.extensions.flatMap(\.fields)
    }

    static func members(_ type: Pending) -> [NamedType] {
        type.extensions.isEmpty ? type.definition.members : type.definition.members + type.extensions.flatMap(\.members)
    }

    static func values(_ type: Pending) -> [EnumValueDefinition] {
        type.extensions.isEmpty ? type.definition.values : type.definition.values + type.extensions.flatMap(\.values)
    }

    static func inputFields(_ type: Pending) -> [InputValueDefinition] {
        type.extensions.isEmpty ? type.definition.inputFields : type.definition.inputFields + type.extensions.flatMap(\.inputFields)
    }

    static func kind(_ definition: TypeDefinition) -> TypeKind {
        switch definition {
        case .scalar: .scalar
        case .object: .object
        case .interface: .interface
        case .union: .union
        case .enumeration: .enumeration
        case .inputObject: .inputObject
        }
    }

    // MARK: - Building

    mutating func build() throws(SchemaError) -> GraphQLSchema {
        let roots = rootTypeNames()
        let directives = directiveDefinitions + builtInDirectives.filter { builtIn in
            !directiveDefinitions.contains { $0.name.value == builtIn.name.value }
        }
        let order = typeOrder(roots: roots, directives: directives)
        for (index, name) in order.enumerated() { ids[name] = TypeID(index) }

        // Who implements which interface, in type order.
        var objectsOf: [String: [TypeID]] = [:]
        var interfacesOf: [String: [TypeID]] = [:]
        for name in order {
            guard let type = pending[name], let id = ids[name] else { continue }
            let kind = Self.kind(type.definition)
            guard kind == .object || kind == .interface else { continue }
            for interface in Self.interfaces(type) {
                let interfaceName = interface.name.value
                guard let target = pending[interfaceName], Self.kind(target.definition) == .interface else { continue }
                if kind == .object { objectsOf[interfaceName, default: []].append(id) }
                else { interfacesOf[interfaceName, default: []].append(id) }
            }
        }

        var types: [GraphQLNamedType] = []
        types.reserveCapacity(order.count)
        for name in order {
            guard let type = pending[name], let id = ids[name] else { continue }
            types.append(buildType(type, id: id, objects: objectsOf[name] ?? [], interfaces: interfacesOf[name] ?? []))
        }
        let builtDirectives = directives.map { node in
            let builtIn = !directiveDefinitions.contains { $0.name.value == node.name.value }
            return GraphQLDirective(
                name: node.name.value, description: node.description?.value,
                locations: node.directiveLocations,
                arguments: node.arguments.map { inputValue($0, builtIn: builtIn) },
                isRepeatable: node.repeatable, definition: builtIn ? nil : node)
        }
        if !errors.isEmpty { throw SchemaError(errors) }
        return GraphQLSchema(
            description: schemaDefinition?.description?.value, types: types,
            queryType: roots[.query].flatMap { ids[$0] }, mutationType: roots[.mutation].flatMap { ids[$0] },
            subscriptionType: roots[.subscription].flatMap { ids[$0] }, directives: builtDirectives,
            metaFields: metaFields(), definition: schemaDefinition, extensions: schemaExtensions,
            source: document.source)
    }

    /// Root operation type names: from the schema definition and extensions (later wins), else by name.
    func rootTypeNames() -> [OperationType: String] {
        var roots: [OperationType: String] = [:]
        for node in (schemaDefinition.map { [$0.operationTypes] } ?? []) + schemaExtensions.map(\.operationTypes) {
            for operationType in node { roots[operationType.operation] = operationType.type.name.value }
        }
        if schemaDefinition == nil {
            for name in userTypeNames {
                switch name {
                case "Query": roots[.query] = name
                case "Mutation": roots[.mutation] = name
                case "Subscription": roots[.subscription] = name
                default: break
                }
            }
        }
        return roots
    }

    /// graphql-js's type-map order: the SDL's types in order, with every type they reach (built-in
    /// scalars, introspection types) inserted where it is first reached.
    func typeOrder(roots: [OperationType: String], directives: [DirectiveDefinition]) -> [String] {
        var slots: [String?] = []
        var position: [String: Int] = [:]
        func insert(_ name: String) {
            position[name] = slots.count
            slots.append(name)
        }
        func collect(_ name: String) {
            guard position[name] == nil else { return }
            insert(name)
            guard let type = pending[name] else { return }
            for member in Self.members(type) { collect(member.name.value) }
            for interface in Self.interfaces(type) { collect(interface.name.value) }
            for field in Self.fields(type) {
                collect(field.type.namedType.name.value)
                for argument in field.arguments { collect(argument.type.namedType.name.value) }
            }
            for field in Self.inputFields(type) { collect(field.type.namedType.name.value) }
        }
        for name in userTypeNames { insert(name) }
        for name in userTypeNames {
            if let slot = position.removeValue(forKey: name) { slots[slot] = nil }
            collect(name)
        }
        for operation in OperationType.allCases { if let root = roots[operation] { collect(root) } }
        for directive in directives {
            for argument in directive.arguments { collect(argument.type.namedType.name.value) }
        }
        collect("__Schema")
        return slots.compactMap { $0 }.filter { pending[$0] != nil }
    }

    mutating func buildType(_ type: Pending, id: TypeID, objects: [TypeID], interfaces implementing: [TypeID])
        -> GraphQLNamedType
    {
        let definition = type.definition
        let name = definition.name.value
        let kind = Self.kind(definition)
        let builtIn = type.builtIn
        let description = definition.description?.value
        var specifiedByURL: String?
        var isOneOf = false
        var coercion: any ScalarCoercing = options.scalars[name] ?? CustomScalarCoercion()
        switch definition {
        case .scalar(let node):
            specifiedByURL = Self.stringArgument("url", of: "specifiedBy", in: node.directives)
            if builtIn, options.scalars[name] == nil {
                switch name {
                case "Int": coercion = IntCoercion()
                case "Float": coercion = FloatCoercion()
                case "String": coercion = StringCoercion()
                case "Boolean": coercion = BooleanCoercion()
                case "ID": coercion = IDCoercion()
                default: break
                }
            }
        case .inputObject(let node):
            isOneOf = node.directives.contains { $0.name.value == "oneOf" }
        default: break
        }
        let fields = Self.fields(type).map { node in
            GraphQLField(
                name: node.name.value, description: node.description?.value,
                arguments: node.arguments.map { inputValue($0, builtIn: builtIn) },
                type: resolve(node.type), deprecationReason: Self.deprecationReason(node.directives),
                definition: builtIn ? nil : node)
        }
        let enumValues = Self.values(type).map { node in
            GraphQLEnumValue(
                name: node.name.value, description: node.description?.value,
                deprecationReason: Self.deprecationReason(node.directives), definition: builtIn ? nil : node)
        }
        let possibleTypes = kind == .union ? Self.members(type).map { resolveNamed($0) } : objects
        return GraphQLNamedType(
            id: id, name: name, kind: kind, description: description, fields: fields,
            interfaces: Self.interfaces(type).map { resolveNamed($0) }, possibleTypes: possibleTypes,
            implementingInterfaces: implementing, enumValues: enumValues,
            inputFields: Self.inputFields(type).map { inputValue($0, builtIn: builtIn) }, isOneOf: isOneOf,
            specifiedByURL: specifiedByURL, coercion: coercion, definition: builtIn ? nil : definition,
            extensions: builtIn ? [] : type.extensions)
    }

    mutating func inputValue(_ node: InputValueDefinition, builtIn: Bool) -> GraphQLInputValue {
        GraphQLInputValue(
            name: node.name.value, description: node.description?.value, type: resolve(node.type),
            defaultValue: node.defaultValue, deprecationReason: Self.deprecationReason(node.directives),
            definition: builtIn ? nil : node)
    }

    mutating func resolveNamed(_ node: NamedType) -> TypeID {
        if let id = ids[node.name.value] { return id }
        errors.append(GraphQLError("Unknown type \"\(node.name.value)\".", source: document.source, positions: [node.range.start]))
        return TypeID(0)
    }

    mutating func resolve(_ reference: TypeReference) -> GraphQLType {
        switch reference {
        case .named(let named): .named(resolveNamed(named))
        case .list(let inner, _): .list(resolve(inner))
        case .nonNull(let inner, _): .nonNull(resolve(inner.typeReference))
        }
    }

    func metaFields() -> (GraphQLField, GraphQLField, GraphQLField) {
        let string = ids["String"].map(GraphQLType.named) ?? .named(TypeID(0))
        let schemaType = ids["__Schema"].map(GraphQLType.named) ?? .named(TypeID(0))
        let typeType = ids["__Type"].map(GraphQLType.named) ?? .named(TypeID(0))
        let typename = GraphQLField(
            name: "__typename", description: "The name of the current Object type at runtime.", arguments: [],
            type: .nonNull(string), deprecationReason: nil, definition: nil)
        let schema = GraphQLField(
            name: "__schema", description: "Access the current type schema of this server.", arguments: [],
            type: .nonNull(schemaType), deprecationReason: nil, definition: nil)
        let nameArgument = GraphQLInputValue(
            name: "name", description: nil, type: .nonNull(string), defaultValue: nil, deprecationReason: nil,
            definition: nil)
        let type = GraphQLField(
            name: "__type", description: "Request the type information of a single type.", arguments: [nameArgument],
            type: typeType, deprecationReason: nil, definition: nil)
        return (typename, schema, type)
    }

    /// `@deprecated(reason:)`: the reason, the default reason when none is given, nil when absent.
    static func deprecationReason(_ directives: [Directive]) -> String? {
        guard let directive = directives.first(where: { $0.name.value == "deprecated" }) else { return nil }
        guard let argument = directive.arguments.first(where: { $0.name.value == "reason" }) else {
            return GraphQLDirective.defaultDeprecationReason
        }
        switch argument.value {
        case .string(let string): return string.value
        case .null: return nil
        default: return GraphQLDirective.defaultDeprecationReason
        }
    }

    static func stringArgument(_ argumentName: String, of directiveName: String, in directives: [Directive]) -> String? {
        guard let directive = directives.first(where: { $0.name.value == directiveName }),
            let argument = directive.arguments.first(where: { $0.name.value == argumentName }),
            case .string(let string) = argument.value
        else { return nil }
        return string.value
    }
}
