/// What rules share while validating one document against one schema: the schema, the
/// document's fragments, the walker's ``TypeInfo``, cached fragment spreads and variable
/// usages, and the errors found so far (up to a limit).
final class ValidationContext {
    let schema: GraphQLSchema
    let document: Document
    let maxErrors: Int
    var typeInfo: TypeInfo
    private(set) var errors: [GraphQLError] = []
    /// Set when the error limit is reached; the walk stops.
    private(set) var aborted = false
    /// Whether the walk is inside a type-system definition (graphql-js's "SDL node" for KnownTypeNames).
    var isInTypeSystemDefinition = false

    private var fragments: [String: FragmentDefinition] = [:]
    /// Directives the document itself defines (rare in executable documents), by name; as in
    /// graphql-js they take precedence over the schema's, and the last of a name wins.
    let documentDirectives: [String: DirectiveDefinition]
    private var spreadsCache: [Int: [FragmentSpread]] = [:]
    private var referencedFragmentsCache: [Int: [FragmentDefinition]] = [:]
    private var usagesCache: [Int: [VariableUsage]] = [:]
    private var recursiveUsagesCache: [Int: [VariableUsage]] = [:]
    /// What the document may contain (without variables, usages are known empty without a walk).
    let features: DocumentFeatures
    private var mayUseVariables: Bool { features.contains(.variables) }

    /// A variable used somewhere, with the type its position expects.
    struct VariableUsage {
        let variable: Variable
        let type: GraphQLType?
        let hasLocationDefault: Bool
    }

    init(schema: GraphQLSchema, document: Document, maxErrors: Int) {
        self.schema = schema
        self.document = document
        self.maxErrors = maxErrors
        self.typeInfo = TypeInfo(schema: schema)
        self.features = DocumentFeatures(of: document)
        // As graphql-js: with duplicate names (an error of its own), the last definition wins.
        var directives: [String: DirectiveDefinition] = [:]
        for definition in document.definitions {
            switch definition {
            case .fragment(let fragment): fragments[fragment.name.value] = fragment
            case .directive(let directive): directives[directive.name.value] = directive
            default: break
            }
        }
        documentDirectives = directives
    }

    /// How many more errors may be reported before the walk stops (the next one past them aborts).
    var remainingErrors: Int { max(0, maxErrors - errors.count) }

    func report(_ message: String, _ ranges: [SourceRange]) {
        guard !aborted else { return }
        if errors.count >= maxErrors {
            errors.append(GraphQLError(
                "Too many validation errors, error limit reached. Validation aborted.",
                extensions: [("code", .string("GRAPHQL_VALIDATION_FAILED"))]))
            aborted = true
            return
        }
        errors.append(GraphQLError(
            message, source: document.source, positions: ranges.map(\.start),
            extensions: [("code", .string("GRAPHQL_VALIDATION_FAILED"))]))
    }

    /// The variables of the operation the walk entered last, by name (the last of a name wins):
    /// graphql-js's rules keep them for the rest of the walk, fragments after it included.
    private(set) var operationVariables: [String: VariableDefinition] = [:]

    /// The walker entered `operation`.
    func enter(_ operation: OperationDefinition) {
        operationVariables = Dictionary(
            operation.variableDefinitions.map { ($0.variable.name.value, $0) }, uniquingKeysWith: { $1 })
    }

    func fragment(named name: String) -> FragmentDefinition? { fragments[name] }

    /// The fragment spreads in a selection set, nested ones included, not following fragments.
    func fragmentSpreads(of selectionSet: SelectionSet) -> [FragmentSpread] {
        if let cached = spreadsCache[selectionSet.range.start] { return cached }
        var spreads: [FragmentSpread] = []
        var setsToVisit = [selectionSet]
        while let set = setsToVisit.popLast() {
            for selection in set.selections {
                switch selection {
                case .fragmentSpread(let spread): spreads.append(spread)
                case .field(let field): if let nested = field.selectionSet { setsToVisit.append(nested) }
                case .inlineFragment(let fragment): setsToVisit.append(fragment.selectionSet)
                }
            }
        }
        spreadsCache[selectionSet.range.start] = spreads
        return spreads
    }

    /// Every fragment an operation reaches, directly or through other fragments.
    func recursivelyReferencedFragments(of operation: OperationDefinition) -> [FragmentDefinition] {
        if fragments.isEmpty { return [] }
        if let cached = referencedFragmentsCache[operation.range.start] { return cached }
        var result: [FragmentDefinition] = []
        var collected: Set<String> = []
        var setsToVisit = [operation.selectionSet]
        while let set = setsToVisit.popLast() {
            for spread in fragmentSpreads(of: set) where collected.insert(spread.name.value).inserted {
                if let fragment = fragment(named: spread.name.value) {
                    result.append(fragment)
                    setsToVisit.append(fragment.selectionSet)
                }
            }
        }
        referencedFragmentsCache[operation.range.start] = result
        return result
    }

    /// Variables used in an operation and every fragment it reaches (three rules ask; computed once).
    func recursiveVariableUsages(of operation: OperationDefinition) -> [VariableUsage] {
        guard mayUseVariables else { return [] }
        if let cached = recursiveUsagesCache[operation.range.start] { return cached }
        var usages = variableUsages(
            key: operation.range.start, directives: operation.directives,
            selectionSet: operation.selectionSet,
            parentType: schema.rootType(for: operation.operation).flatMap { schema[$0].kind == .object ? $0 : nil })
        for fragment in recursivelyReferencedFragments(of: operation) {
            usages += variableUsages(of: fragment)
        }
        recursiveUsagesCache[operation.range.start] = usages
        return usages
    }

    func variableUsages(of fragment: FragmentDefinition) -> [VariableUsage] {
        let typeID = schema.typeID(named: fragment.typeCondition.name.value)
        return variableUsages(
            key: fragment.range.start, directives: fragment.directives, selectionSet: fragment.selectionSet,
            parentType: typeID.flatMap { schema[$0].kind.isComposite ? $0 : nil })
    }

    private func variableUsages(key: Int, directives: [Directive], selectionSet: SelectionSet, parentType: TypeID?)
        -> [VariableUsage]
    {
        guard mayUseVariables else { return [] }
        if let cached = usagesCache[key] { return cached }
        var collector = VariableUsageCollector(schema: schema)
        collector.collect(directives, fieldDefinition: nil)
        collector.collect(selectionSet, parentType: parentType, fieldDefinition: nil)
        usagesCache[key] = collector.usages
        return collector.usages
    }
}

/// Finds the variables in a definition and the type expected where each is used, following
/// the same rules as ``TypeInfo`` (including its lookup of an unknown directive's arguments on
/// the enclosing field).
struct VariableUsageCollector {
    let schema: GraphQLSchema
    var usages: [ValidationContext.VariableUsage] = []

    init(schema: GraphQLSchema) { self.schema = schema }

    mutating func collect(_ selectionSet: SelectionSet, parentType: TypeID?, fieldDefinition: GraphQLField?) {
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                let definition = parentType.flatMap { schema.fieldDefinition(on: $0, named: field.name.value) }
                for argument in field.arguments {
                    let argumentDefinition = definition?.argument(named: argument.name.value)
                    collect(argument.value, type: argumentDefinition?.type, hasDefault: argumentDefinition?.defaultValue != nil)
                }
                collect(field.directives, fieldDefinition: definition)
                if let nested = field.selectionSet {
                    let outputType = definition.flatMap { schema.kind(of: $0.type).isOutput ? $0.type : nil }
                    let nestedParent = outputType.flatMap { schema[$0.namedType].kind.isComposite ? $0.namedType : nil }
                    collect(nested, parentType: nestedParent, fieldDefinition: definition)
                }
            case .fragmentSpread(let spread):
                collect(spread.directives, fieldDefinition: fieldDefinition)
            case .inlineFragment(let fragment):
                collect(fragment.directives, fieldDefinition: fieldDefinition)
                var nestedParent = parentType
                if let condition = fragment.typeCondition {
                    nestedParent = schema.typeID(named: condition.name.value).flatMap {
                        schema[$0].kind.isComposite ? $0 : nil
                    }
                }
                collect(fragment.selectionSet, parentType: nestedParent, fieldDefinition: fieldDefinition)
            }
        }
    }

    mutating func collect(_ directives: [Directive], fieldDefinition: GraphQLField?) {
        for directive in directives {
            let known = schema.directive(named: directive.name.value)
            for argument in directive.arguments {
                let definition = known.map { $0.argument(named: argument.name.value) }
                    ?? fieldDefinition?.argument(named: argument.name.value)
                collect(argument.value, type: definition?.type, hasDefault: definition?.defaultValue != nil)
            }
        }
    }

    mutating func collect(_ value: Value, type: GraphQLType?, hasDefault: Bool) {
        switch value {
        case .variable(let variable):
            usages.append(.init(variable: variable, type: type, hasLocationDefault: hasDefault))
        case .list(let list):
            for item in list.values { collect(item, type: type?.listItemType, hasDefault: false) }
        case .object(let object):
            let inputObject = type.flatMap { schema[$0.namedType].kind == .inputObject ? schema[$0.namedType] : nil }
            for field in object.fields {
                let definition = inputObject?.inputField(named: field.name.value)
                collect(field.value, type: definition?.type, hasDefault: definition?.defaultValue != nil)
            }
        default:
            break
        }
    }
}
