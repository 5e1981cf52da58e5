/// The fields of one selection set as executed on one object type: graphql-js's `collectFields`
/// (fragments expanded, `@skip`/`@include` applied, fields grouped by response key in order),
/// with each field's resolver, info and argument plan looked up once.
final class SelectionPlan {
    let type: GraphQLNamedType
    let fields: [PlannedField]
    /// `"key":` for each field, with a leading comma after the first, one after the other: written
    /// as-is into the response (each field knows where its own lie).
    let keyBytes: [UInt8]

    init(type: GraphQLNamedType, fields: [PlannedField]) {
        self.type = type
        self.fields = fields
        var writer = JSONWriter(capacity: fields.reduce(0) { $0 + $1.responseKey.utf8.count + 4 })
        for (index, field) in fields.enumerated() {
            field.keyStart = writer.bytes.count
            if index > 0 { writer.append(44) }
            writer.appendString(field.responseKey)
            writer.append(58)
            field.keyEnd = writer.bytes.count
        }
        keyBytes = writer.bytes
    }

    /// Writes the bytes that go before field `index`'s value.
    @inline(__always)
    func writeKey(at index: Int, to writer: inout JSONChunk) {
        let field = fields[index]
        keyBytes.withUnsafeBufferPointer { bytes in
            writer.appendRaw(UnsafeBufferPointer(rebasing: bytes[field.keyStart..<field.keyEnd]))
        }
    }
}

/// One response key of a plan: the field's nodes, definition and how it resolves.
final class PlannedField {
    enum Kind {
        case typename
        case schema
        case type
        case binding(ExecutableSchema.Binding)
    }

    let responseKey: String
    let name: String
    /// The field's nodes (several when the same response key is selected more than once); only
    /// planning adds to them.
    var nodes: [Field]
    /// Where `"key":` (with its leading comma) lies in the plan's key bytes.
    var keyStart = 0
    var keyEnd = 0
    let kind: Kind
    let returnType: GraphQLType
    let definition: GraphQLField
    private let parentType: GraphQLNamedType
    private let schema: GraphQLSchema
    /// What resolvers see of the field; made when the first resolver asks.
    private(set) lazy var info = ResolveInfo(
        fieldName: name, parentType: parentType, returnType: returnType, schema: schema, fieldNodes: nodes)
    /// Arguments, when they hold no variables: coerced once for every call.
    var constantArguments: GraphQLObject?
    /// Whether the field's value holds further positions (a list or a composite type), where a
    /// suspending field below may wait and a null may have to propagate to.
    let holdsPositions: Bool
    /// The plans of the sub-selection per runtime object type, made on first use.
    var subPlans: [TypeID: SelectionPlan] = [:]
    /// The last sub-plan used (most fields only ever meet one object type).
    var lastSubPlan: SelectionPlan?
    /// A built-in scalar return type, whose common values go straight to a result slot.
    let leaf: BuiltInLeaf?
    /// Locations of the field's nodes, computed when an error needs them.
    var cachedLocations: [SourceLocation]?
    /// Part of a plan shared by every execution of its document (``PlanCache``): built in full,
    /// then never written again.
    var isShared = false

    init(
        responseKey: String, nodes: [Field], kind: Kind, definition: GraphQLField, parentType: GraphQLNamedType, schema: GraphQLSchema,
        leaf: BuiltInLeaf?
    ) {
        self.holdsPositions = definition.type.holdsPositions(in: schema)
        self.leaf = leaf
        self.responseKey = responseKey
        self.name = definition.name
        self.nodes = nodes
        self.kind = kind
        self.returnType = definition.type
        self.definition = definition
        self.parentType = parentType
        self.schema = schema
    }

    /// The coerced arguments of this field for a request's `variables`.
    func arguments(variables: GraphQLObject) throws(ArgumentCoercion.ArgumentError) -> GraphQLObject {
        if let constantArguments { return constantArguments }
        guard let node = nodes.first else { return GraphQLObject() }
        return try ArgumentCoercion.values(of: definition, node: node, variables: variables, schema: schema)
    }

    func locations(in source: Source) -> [SourceLocation] {
        if let cachedLocations { return cachedLocations }
        let locations = nodes.map { source.location(ofByte: $0.range.start) }
        if !isShared { cachedLocations = locations }
        return locations
    }
}

/// A field returning one of the specified scalars (possibly non-null): values already of the
/// scalar's own JSON kind serialize to themselves, so they skip completion.
enum BuiltInLeaf {
    case int, float, string, boolean, id

    /// The specified scalar `named` is, if any.
    init?(_ named: GraphQLNamedType) {
        guard named.kind == .scalar else { return nil }
        switch named.coercion {
        case is IntCoercion: self = .int
        case is FloatCoercion: self = .float
        case is StringCoercion: self = .string
        case is BooleanCoercion: self = .boolean
        case is IDCoercion: self = .id
        default: return nil
        }
    }

    /// The slot for `value` when it serializes to itself; nil when completion must decide
    /// (conversions, errors, and null, whose handling depends on nullability).
    @inline(__always)
    func slot(for value: GraphQLValue) -> ResultSlot? {
        switch (self, value) {
        case (.int, .int(let int)): return int >= -2_147_483_648 && int <= 2_147_483_647 ? .int(int) : nil
        case (.float, .int(let int)): return .int(int)
        case (.float, .float(let double)): return double.isFinite ? .double(double) : nil
        case (.string, .string(let string)), (.id, .string(let string)): return .string(string)
        case (.boolean, .bool(let bool)): return .bool(bool)
        default: return nil
        }
    }
}

extension GraphQLType {
    /// Lists and composite types hold further positions of a response.
    func holdsPositions(in schema: GraphQLSchema) -> Bool {
        switch self {
        case .list: true
        case .nonNull(let inner): inner.holdsPositions(in: schema)
        case .named(let id): schema[id].kind.isComposite
        }
    }
}

/// Collects fields of selection sets (graphql-js's `collectFields` and `collectSubfields`).
struct FieldCollector {
    let schema: ExecutableSchema
    let fragments: [String: FragmentDefinition]
    let variables: GraphQLObject

    /// The plan for `selectionSets` (the sub-selections of one field's nodes, or the operation's) on `type`.
    func plan(_ selectionSets: [SelectionSet], on type: GraphQLNamedType) -> SelectionPlan {
        var fields = PlannedFields()
        var visitedFragments: Set<String> = []
        for selectionSet in selectionSets {
            collect(selectionSet, on: type, into: &fields, visitedFragments: &visitedFragments)
        }
        return SelectionPlan(type: type, fields: fields.fields)
    }

    /// A plan's fields by response key in first-seen order: searched linearly while few (most
    /// selection sets), through a hash index past 8 keys.
    private struct PlannedFields {
        var fields: [PlannedField] = []
        var index: [String: Int]?

        func position(of key: String) -> Int? {
            if let index { return index[key] }
            return fields.firstIndex { $0.responseKey == key }
        }

        mutating func append(_ field: PlannedField) {
            fields.append(field)
            if index != nil {
                index?[field.responseKey] = fields.count - 1
            } else if fields.count > 8 {
                index = Dictionary(uniqueKeysWithValues: fields.indices.map { (fields[$0].responseKey, $0) })
            }
        }
    }

    /// Adds a field node to its response key's planned field, planning the field at its first node.
    private func add(_ node: Field, on type: GraphQLNamedType, to fields: inout PlannedFields) {
        let key = node.responseKey
        if let position = fields.position(of: key) { return fields.fields[position].nodes.append(node) }
        let graph = schema.schema
        let name = node.name.value
        let kind: PlannedField.Kind
        let definition: GraphQLField
        switch name {
        case "__typename":
            kind = .typename
            definition = graph.typenameField
        case "__schema" where type.id == graph.queryType:
            kind = .schema
            definition = graph.schemaField
        case "__type" where type.id == graph.queryType:
            kind = .type
            definition = graph.typeField
        default:
            guard let index = type.fieldIndex[name] else { return }  // validation rules this out
            kind = .binding(schema.fieldBindings[type.id.index][index])
            definition = type.fields[index]
        }
        let leaf: BuiltInLeaf?
        if case .named(let id) = definition.type.nullable { leaf = schema.builtInLeaves[id.index] } else { leaf = nil }
        let field = PlannedField(
            responseKey: key, nodes: [node], kind: kind, definition: definition, parentType: type, schema: graph, leaf: leaf)
        if node.arguments.isEmpty, definition.arguments.isEmpty {
            field.constantArguments = GraphQLObject()
        } else if !node.arguments.contains(where: { Self.containsVariable($0.value) }) {
            field.constantArguments = try? ArgumentCoercion.values(of: definition, node: node, variables: variables, schema: graph)
        }
        fields.append(field)
    }

    private func collect(
        _ selectionSet: SelectionSet, on type: GraphQLNamedType, into fields: inout PlannedFields, visitedFragments: inout Set<String>
    ) {
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                guard included(field.directives) else { continue }
                add(field, on: type, to: &fields)
            case .inlineFragment(let fragment):
                guard included(fragment.directives), applies(fragment.typeCondition, to: type) else { continue }
                collect(fragment.selectionSet, on: type, into: &fields, visitedFragments: &visitedFragments)
            case .fragmentSpread(let spread):
                let name = spread.name.value
                guard !visitedFragments.contains(name), included(spread.directives) else { continue }
                visitedFragments.insert(name)
                guard let fragment = fragments[name], applies(fragment.typeCondition, to: type) else { continue }
                collect(fragment.selectionSet, on: type, into: &fields, visitedFragments: &visitedFragments)
            }
        }
    }

    private func applies(_ condition: NamedType?, to type: GraphQLNamedType) -> Bool {
        guard let condition else { return true }
        guard let conditionType = schema.schema.type(named: condition.name.value) else { return false }
        if conditionType.id == type.id { return true }
        if conditionType.kind == .interface || conditionType.kind == .union {
            return schema.schema.isSubType(conditionType.id, type.id)
        }
        return false
    }

    /// `@skip(if:)` and `@include(if:)`: graphql-js's `shouldIncludeNode`.
    private func included(_ directives: [Directive]) -> Bool {
        if directives.isEmpty { return true }
        for directive in directives {
            let name = directive.name.value
            guard name == "skip" || name == "include", let argument = directive.arguments.first(where: { $0.name.value == "if" })
            else { continue }
            let value: GraphQLValue?
            switch argument.value {
            case .boolean(let boolean): value = .bool(boolean.value)
            case .variable(let variable): value = variables[variable.name.value]
            default: value = nil
            }
            if name == "skip", case .bool(true) = value { return false }
            if name == "include", case .bool(false) = value { return false }
        }
        return true
    }

    static func containsVariable(_ value: Value) -> Bool {
        switch value {
        case .variable: true
        case .list(let list): list.values.contains(where: containsVariable)
        case .object(let object): object.fields.contains { containsVariable($0.value) }
        default: false
        }
    }
}
