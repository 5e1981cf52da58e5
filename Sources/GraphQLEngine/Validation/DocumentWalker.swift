/// Walks an executable document in graphql-js's visiting order, keeping the context's
/// ``TypeInfo`` current and handing each node to the rules that want it.
struct DocumentWalker {
    let context: ValidationContext
    let rules: [ValidationRule]
    /// Rules by event, in rule order.
    private var byEvent: [UInt32: [ValidationRule]] = [:]
    private var depth = 0

    init(context: ValidationContext, rules: [ValidationRule]) {
        self.context = context
        self.rules = rules
        for bit in 0..<32 {
            let event = ValidationEvents(rawValue: 1 << bit)
            let interested = rules.filter { type(of: $0).events.contains(event) }
            if !interested.isEmpty { byEvent[event.rawValue] = interested }
        }
    }

    /// Calls `body` for each rule handling `event` that is not skipping; records skip requests.
    @inline(__always)
    private func enter(_ event: ValidationEvents, _ body: (ValidationRule) -> Void) {
        guard let list = byEvent[event.rawValue], !context.aborted else { return }
        for rule in list where rule.skipDepth == nil {
            body(rule)
            if rule.skipRequested {
                rule.skipRequested = false
                rule.skipDepth = depth
            }
        }
    }

    @inline(__always)
    private func leave(_ event: ValidationEvents, _ body: (ValidationRule) -> Void) {
        guard let list = byEvent[event.rawValue], !context.aborted else { return }
        for rule in list where rule.skipDepth == nil { body(rule) }
    }

    /// Ends the skips that began at the node being left.
    @inline(__always)
    private func endSkips() {
        for rule in rules where rule.skipDepth == depth { rule.skipDepth = nil }
    }

    mutating func walk(_ document: Document) {
        depth += 1
        enter(.document) { $0.enterDocument(document) }
        for definition in document.definitions {
            if context.aborted { break }
            switch definition {
            case .operation(let operation): walk(operation)
            case .fragment(let fragment): walk(fragment)
            default: break
            }
        }
        leave(.leaveDocument) { $0.leaveDocument(document) }
        endSkips()
        depth -= 1
    }

    mutating func walk(_ operation: OperationDefinition) {
        depth += 1
        context.typeInfo.enterOperation(operation)
        enter(.operation) { $0.enterOperation(operation) }
        for variable in operation.variableDefinitions { walk(variable) }
        walk(operation.directives, location: Self.location(of: operation.operation))
        walk(operation.selectionSet)
        leave(.leaveOperation) { $0.leaveOperation(operation) }
        endSkips()
        context.typeInfo.leaveType()
        depth -= 1
    }

    static func location(of operation: OperationType) -> DirectiveLocation {
        switch operation {
        case .query: .query
        case .mutation: .mutation
        case .subscription: .subscription
        }
    }

    mutating func walk(_ fragment: FragmentDefinition) {
        depth += 1
        context.typeInfo.enterFragment(typeCondition: fragment.typeCondition)
        enter(.fragmentDefinition) { $0.enterFragmentDefinition(fragment) }
        walk(fragment.typeCondition)
        walk(fragment.directives, location: .fragmentDefinition)
        walk(fragment.selectionSet)
        endSkips()
        context.typeInfo.leaveType()
        depth -= 1
    }

    mutating func walk(_ variable: VariableDefinition) {
        depth += 1
        context.typeInfo.enterVariableDefinition(variable)
        enter(.variableDefinition) { $0.enterVariableDefinition(variable) }
        walk(variable.type.namedType)
        if let defaultValue = variable.defaultValue { walk(defaultValue) }
        walk(variable.directives, location: .variableDefinition)
        endSkips()
        context.typeInfo.leaveInputType()
        depth -= 1
    }

    mutating func walk(_ namedType: NamedType) {
        depth += 1
        enter(.namedType) { $0.enterNamedType(namedType) }
        endSkips()
        depth -= 1
    }

    mutating func walk(_ selectionSet: SelectionSet) {
        depth += 1
        context.typeInfo.enterSelectionSet()
        enter(.selectionSet) { $0.enterSelectionSet(selectionSet) }
        for selection in selectionSet.selections {
            if context.aborted { break }
            switch selection {
            case .field(let field): walk(field)
            case .fragmentSpread(let spread):
                depth += 1
                enter(.fragmentSpread) { $0.enterFragmentSpread(spread) }
                walk(spread.directives, location: .fragmentSpread)
                endSkips()
                depth -= 1
            case .inlineFragment(let fragment):
                depth += 1
                context.typeInfo.enterFragment(typeCondition: fragment.typeCondition)
                enter(.inlineFragment) { $0.enterInlineFragment(fragment) }
                if let condition = fragment.typeCondition { walk(condition) }
                walk(fragment.directives, location: .inlineFragment)
                walk(fragment.selectionSet)
                endSkips()
                context.typeInfo.leaveType()
                depth -= 1
            }
        }
        endSkips()
        context.typeInfo.leaveSelectionSet()
        depth -= 1
    }

    mutating func walk(_ field: Field) {
        depth += 1
        context.typeInfo.enterField(field)
        enter(.field) { $0.enterField(field) }
        for argument in field.arguments { walk(argument) }
        walk(field.directives, location: .field)
        if let selectionSet = field.selectionSet { walk(selectionSet) }
        leave(.leaveField) { $0.leaveField(field) }
        endSkips()
        context.typeInfo.leaveField()
        depth -= 1
    }

    mutating func walk(_ directives: [Directive], location: DirectiveLocation) {
        for directive in directives {
            depth += 1
            context.typeInfo.enterDirective(directive)
            enter(.directive) { $0.enterDirective(directive, location: location) }
            for argument in directive.arguments { walk(argument) }
            leave(.leaveDirective) { $0.leaveDirective(directive) }
            endSkips()
            context.typeInfo.leaveDirective()
            depth -= 1
        }
    }

    mutating func walk(_ argument: Argument) {
        depth += 1
        context.typeInfo.enterArgument(argument)
        enter(.argument) { $0.enterArgument(argument) }
        walk(argument.value)
        endSkips()
        context.typeInfo.leaveArgument()
        depth -= 1
    }

    mutating func walk(_ value: Value) {
        depth += 1
        let isList: Bool
        if case .list = value { isList = true } else { isList = false }
        if isList { context.typeInfo.enterListValue() }
        enter(.value) { $0.enterValue(value) }
        switch value {
        case .list(let list):
            for item in list.values { walk(item) }
        case .object(let object):
            for field in object.fields {
                depth += 1
                context.typeInfo.enterObjectField(field)
                enter(.objectField) { $0.enterObjectField(field) }
                walk(field.value)
                endSkips()
                context.typeInfo.leaveInputType()
                depth -= 1
            }
        default:
            break
        }
        leave(.leaveValue) { $0.leaveValue(value) }
        endSkips()
        if isList { context.typeInfo.leaveInputType() }
        depth -= 1
    }
}
