/// The fields of one selection set as executed on one object type: graphql-js's `collectFields`
/// (fragments expanded, `@skip`/`@include` applied, fields grouped by response key in order),
/// with each field's resolver, info and argument plan looked up once.
final class SelectionPlan {
    let type: GraphQLNamedType
    let fields: [PlannedField]
    /// `"key":` for each field, with a leading comma after the first, one after the other: written
    /// as-is into the response (field `i`'s bytes end at `keyEnds[i]`).
    let keyBytes: [UInt8]
    let keyEnds: [Int]

    init(type: GraphQLNamedType, fields: [PlannedField]) {
        self.type = type
        self.fields = fields
        var writer = JSONWriter(capacity: fields.reduce(0) { $0 + $1.responseKey.utf8.count + 4 })
        var ends: [Int] = []
        ends.reserveCapacity(fields.count)
        for (index, field) in fields.enumerated() {
            if index > 0 { writer.append(44) }
            writer.appendString(field.responseKey)
            writer.append(58)
            ends.append(writer.bytes.count)
        }
        keyBytes = writer.bytes
        keyEnds = ends
    }

    /// The bytes written before field `index`'s value.
    @inline(__always)
    func key(at index: Int) -> ArraySlice<UInt8> {
        keyBytes[(index == 0 ? 0 : keyEnds[index - 1])..<keyEnds[index]]
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
    let nodes: [Field]
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

    init(responseKey: String, nodes: [Field], kind: Kind, definition: GraphQLField, parentType: GraphQLNamedType, schema: GraphQLSchema) {
        self.holdsPositions = definition.type.holdsPositions(in: schema)
        self.leaf = BuiltInLeaf(definition.type, in: schema)
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
        cachedLocations = locations
        return locations
    }
}

/// A field returning one of the specified scalars (possibly non-null): values already of the
/// scalar's own JSON kind serialize to themselves, so they skip completion.
enum BuiltInLeaf {
    case int, float, string, boolean, id

    /// `nullable` is false for a non-null type (whose null must go through completion's error).
    init?(_ type: GraphQLType, in schema: GraphQLSchema) {
        guard case .named(let id) = type.nullable else { return nil }
        let named = schema[id]
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
        var groups = FieldGroups()
        var visitedFragments: Set<String> = []
        for selectionSet in selectionSets {
            collect(selectionSet, on: type, into: &groups, visitedFragments: &visitedFragments)
        }
        let graph = schema.schema
        var planned: [PlannedField] = []
        planned.reserveCapacity(groups.entries.count)
        for (key, nodes) in groups.entries {
            guard let first = nodes.first else { continue }
            let name = first.name.value
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
                guard let index = type.fieldIndex[name] else { continue }  // validation rules this out
                kind = .binding(schema.fieldBindings[type.id.index][index])
                definition = type.fields[index]
            }
            let field = PlannedField(responseKey: key, nodes: nodes, kind: kind, definition: definition, parentType: type, schema: graph)
            if first.arguments.isEmpty, definition.arguments.isEmpty {
                field.constantArguments = GraphQLObject()
            } else if !first.arguments.contains(where: { Self.containsVariable($0.value) }) {
                field.constantArguments = try? ArgumentCoercion.values(of: definition, node: first, variables: variables, schema: graph)
            }
            planned.append(field)
        }
        return SelectionPlan(type: type, fields: planned)
    }

    /// Fields by response key in first-seen order: searched linearly while few (most selection
    /// sets), through a hash index past 8 keys.
    private struct FieldGroups {
        var entries: [(key: String, nodes: [Field])] = []
        var index: [String: Int]?

        mutating func add(_ field: Field) {
            let key = field.responseKey
            if let index {
                if let position = index[key] { return entries[position].nodes.append(field) }
            } else if let position = entries.firstIndex(where: { $0.key == key }) {
                return entries[position].nodes.append(field)
            }
            entries.append((key, [field]))
            if index != nil {
                index?[key] = entries.count - 1
            } else if entries.count > 8 {
                index = Dictionary(uniqueKeysWithValues: entries.indices.map { (entries[$0].key, $0) })
            }
        }
    }

    private func collect(
        _ selectionSet: SelectionSet, on type: GraphQLNamedType, into groups: inout FieldGroups, visitedFragments: inout Set<String>
    ) {
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                guard included(field.directives) else { continue }
                groups.add(field)
            case .inlineFragment(let fragment):
                guard included(fragment.directives), applies(fragment.typeCondition, to: type) else { continue }
                collect(fragment.selectionSet, on: type, into: &groups, visitedFragments: &visitedFragments)
            case .fragmentSpread(let spread):
                let name = spread.name.value
                guard !visitedFragments.contains(name), included(spread.directives) else { continue }
                visitedFragments.insert(name)
                guard let fragment = fragments[name], applies(fragment.typeCondition, to: type) else { continue }
                collect(fragment.selectionSet, on: type, into: &groups, visitedFragments: &visitedFragments)
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
