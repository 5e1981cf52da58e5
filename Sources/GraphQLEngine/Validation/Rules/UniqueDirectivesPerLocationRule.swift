/// A non-repeatable directive appears at most once on a node; on a schema or a named type, at
/// most once across its definition and extensions (as graphql-js counts them).
final class UniqueDirectivesPerLocationRule: ValidationRule {
    override class var events: ValidationEvents {
        [.operation, .fragmentDefinition, .variableDefinition, .field, .fragmentSpread, .inlineFragment, .typeSystemDirectives]
    }
    override class func applies(to features: DocumentFeatures) -> Bool { features.contains(.directives) }
    private var schemaDirectives: [String: Directive] = [:]
    private var typeDirectives: [String: [String: Directive]] = [:]

    override func enterOperation(_ node: OperationDefinition) { check(node.directives) }
    override func enterFragmentDefinition(_ node: FragmentDefinition) { check(node.directives) }
    override func enterVariableDefinition(_ node: VariableDefinition) { check(node.directives) }
    override func enterField(_ node: Field) { check(node.directives) }
    override func enterFragmentSpread(_ node: FragmentSpread) { check(node.directives) }
    override func enterInlineFragment(_ node: InlineFragment) { check(node.directives) }

    override func enterTypeSystemDirectives(_ directives: [Directive], owner: DocumentWalker.DirectiveOwner) {
        switch owner {
        case .schema: check(directives, seen: &schemaDirectives)
        case .type(let name): check(directives, seen: &typeDirectives[name, default: [:]])
        case .node: check(directives)
        }
    }

    private func isUnique(_ name: String) -> Bool {
        if let definition = context.documentDirectives[name] { return !definition.repeatable }
        return schema.directive(named: name).map { !$0.isRepeatable } ?? false
    }

    private func check(_ directives: [Directive]) {
        guard directives.count > 1 else { return }
        var seen: [String: Directive] = [:]
        check(directives, seen: &seen)
    }

    private func check(_ directives: [Directive], seen: inout [String: Directive]) {
        for directive in directives where isUnique(directive.name.value) {
            if let first = seen[directive.name.value] {
                report("The directive \"@\(directive.name.value)\" can only be used once at this location.", first.range, directive.range)
            } else {
                seen[directive.name.value] = directive
            }
        }
    }
}
