/// Walks a document in graphql-js's visiting order (type-system definitions too, see
/// `DocumentWalker+TypeSystem`), keeping the context's
/// ``TypeInfo`` current and handing each node to the rules that want it.
struct DocumentWalker {
    let context: ValidationContext
    private let ruleSet: Validator.RuleSet
    /// This validation's rule instances, in rule order, each made at the first event it handles
    /// (a rule the document never calls on costs nothing).
    private var rules: [ValidationRule?]
    /// Bit `i` set: rule `i` applies to this document (rules past the 64th always do).
    private let applying: UInt64
    private var depth = 0
    /// How many rules are skipping a subtree now (usually none, so leaving a node costs nothing).
    private var skipping = 0

    init(context: ValidationContext, rules: Validator.RuleSet) {
        self.context = context
        self.ruleSet = rules
        self.rules = Array(repeating: nil, count: rules.types.count)
        var applying: UInt64 = 0
        let features = context.features
        rules.types.withUnsafeBufferPointer { types in
            for index in 0..<min(types.count, 64) where types[index].applies(to: features) {
                applying |= 1 << UInt64(index)
            }
        }
        self.applying = applying
    }

    @inline(__always)
    private func applies(_ index: Int) -> Bool { index >= 64 || applying & (1 << UInt64(index)) != 0 }

    @inline(__always)
    private mutating func rule(at index: Int) -> ValidationRule {
        if let rule = rules[index] { return rule }
        let rule = ruleSet.types[index].init(context: context)
        rules[index] = rule
        return rule
    }

    /// Calls `body` for each rule handling `event` that is not skipping; records skip requests.
    @inline(__always)
    mutating func enter(_ event: ValidationEvents, _ body: (ValidationRule) -> Void) {
        guard !context.aborted else { return }
        for index in ruleSet.byEvent[event.rawValue.trailingZeroBitCount] where applies(index) {
            let rule = rule(at: index)
            guard rule.skipDepth == nil else { continue }
            body(rule)
            if rule.skipRequested {
                rule.skipRequested = false
                rule.skipDepth = depth
                skipping += 1
            }
        }
    }

    @inline(__always)
    private mutating func leave(_ event: ValidationEvents, _ body: (ValidationRule) -> Void) {
        guard !context.aborted else { return }
        for index in ruleSet.byEvent[event.rawValue.trailingZeroBitCount] where applies(index) {
            let rule = rule(at: index)
            if rule.skipDepth == nil { body(rule) }
        }
    }

    @inline(__always)
    mutating func enterNode() { depth += 1 }

    /// Leaves a node: ends the skips that began at it.
    @inline(__always)
    mutating func leaveNode() {
        if skipping > 0 {
            for case let rule? in rules where rule.skipDepth == depth {
                rule.skipDepth = nil
                skipping -= 1
            }
        }
        depth -= 1
    }

    mutating func walk(_ document: Document) {
        enterNode()
        enter(.document) { $0.enterDocument(document) }
        for definition in document.definitions {
            if context.aborted { break }
            switch definition {
            case .operation(let operation): walk(operation)
            case .fragment(let fragment): walk(fragment)
            default: walkTypeSystem(definition)
            }
        }
        leave(.leaveDocument) { $0.leaveDocument(document) }
        leaveNode()
    }

    mutating func walk(_ operation: OperationDefinition) {
        enterNode()
        context.typeInfo.enterOperation(operation)
        context.enter(operation)
        enter(.operation) { $0.enterOperation(operation) }
        for variable in operation.variableDefinitions { walk(variable) }
        walk(operation.directives, location: Self.location(of: operation.operation))
        walk(operation.selectionSet)
        leave(.leaveOperation) { $0.leaveOperation(operation) }
        context.typeInfo.leaveType()
        leaveNode()
    }

    static func location(of operation: OperationType) -> DirectiveLocation {
        switch operation {
        case .query: .query
        case .mutation: .mutation
        case .subscription: .subscription
        }
    }

    mutating func walk(_ fragment: FragmentDefinition) {
        enterNode()
        context.typeInfo.enterFragment(typeCondition: fragment.typeCondition)
        enter(.fragmentDefinition) { $0.enterFragmentDefinition(fragment) }
        walk(fragment.typeCondition)
        walk(fragment.directives, location: .fragmentDefinition)
        walk(fragment.selectionSet)
        context.typeInfo.leaveType()
        leaveNode()
    }

    mutating func walk(_ variable: VariableDefinition) {
        enterNode()
        context.typeInfo.enterVariableDefinition(variable)
        enter(.variableDefinition) { $0.enterVariableDefinition(variable) }
        walk(variable.type.namedType)
        if let defaultValue = variable.defaultValue { walk(defaultValue) }
        walk(variable.directives, location: .variableDefinition)
        context.typeInfo.leaveInputType()
        leaveNode()
    }

    mutating func walk(_ namedType: NamedType) {
        enterNode()
        enter(.namedType) { $0.enterNamedType(namedType) }
        leaveNode()
    }

    mutating func walk(_ selectionSet: SelectionSet) {
        enterNode()
        context.typeInfo.enterSelectionSet()
        if Self.fieldsCanMeet(in: selectionSet) { enter(.selectionSetToCompare) { $0.enterSelectionSet(selectionSet) } }
        for selection in selectionSet.selections {
            if context.aborted { break }
            switch selection {
            case .field(let field): walk(field)
            case .fragmentSpread(let spread):
                enterNode()
                enter(.fragmentSpread) { $0.enterFragmentSpread(spread) }
                walk(spread.directives, location: .fragmentSpread)
                leaveNode()
            case .inlineFragment(let fragment):
                enterNode()
                context.typeInfo.enterFragment(typeCondition: fragment.typeCondition)
                enter(.inlineFragment) { $0.enterInlineFragment(fragment) }
                if let condition = fragment.typeCondition { walk(condition) }
                walk(fragment.directives, location: .inlineFragment)
                walk(fragment.selectionSet)
                context.typeInfo.leaveType()
                leaveNode()
            }
        }
        context.typeInfo.leaveSelectionSet()
        leaveNode()
    }

    mutating func walk(_ field: Field) {
        enterNode()
        context.typeInfo.enterField(field)
        enter(.field) { $0.enterField(field) }
        for argument in field.arguments { walk(argument) }
        walk(field.directives, location: .field)
        if let selectionSet = field.selectionSet { walk(selectionSet) }
        if context.typeInfo.fieldDefinition?.arguments.isEmpty == false {
            leave(.leaveFieldWithArguments) { $0.leaveField(field) }
        }
        context.typeInfo.leaveField()
        leaveNode()
    }

    mutating func walk(_ directives: [Directive], location: DirectiveLocation) {
        for directive in directives {
            enterNode()
            context.typeInfo.enterDirective(directive)
            enter(.directive) { $0.enterDirective(directive, location: location) }
            for argument in directive.arguments { walk(argument) }
            leave(.leaveDirective) { $0.leaveDirective(directive) }
            context.typeInfo.leaveDirective()
            leaveNode()
        }
    }

    mutating func walk(_ argument: Argument) {
        enterNode()
        context.typeInfo.enterArgument(argument)
        enter(.argument) { $0.enterArgument(argument) }
        walk(argument.value)
        context.typeInfo.leaveArgument()
        leaveNode()
    }

    mutating func walk(_ value: Value) {
        enterNode()
        let isList: Bool
        if case .list = value { isList = true } else { isList = false }
        if isList { context.typeInfo.enterListValue() }
        enter(.value) { $0.enterValue(value) }
        switch value {
        case .list(let list):
            for item in list.values { walk(item) }
        case .object(let object):
            for field in object.fields {
                enterNode()
                context.typeInfo.enterObjectField(field)
                enter(.objectField) { $0.enterObjectField(field) }
                walk(field.value)
                context.typeInfo.leaveInputType()
                leaveNode()
            }
        default:
            break
        }
        leave(.leaveValue) { $0.leaveValue(value) }
        if isList { context.typeInfo.leaveInputType() }
        leaveNode()
    }

    /// Whether two fields of `selectionSet` itself can meet: not when it holds only plain fields
    /// under distinct response keys (its nested sets are visited on their own).
    static func fieldsCanMeet(in selectionSet: SelectionSet) -> Bool {
        let selections = selectionSet.selections
        guard selections.count <= 16 else { return true }
        for index in selections.indices {
            guard case .field(let field) = selections[index] else { return true }
            let key = field.responseKey
            for earlier in selections[..<index] {
                if case .field(let other) = earlier, other.responseKey == key { return true }
            }
        }
        return false
    }
}
