/// Arguments are defined by their field or directive.
final class KnownArgumentNamesRule: ValidationRule {
    override class var events: ValidationEvents { [.directive, .argument] }
    override class func applies(to features: DocumentFeatures) -> Bool { features.contains(.arguments) }

    override func enterDirective(_ node: Directive, location: DirectiveLocation) {
        defer { skipChildren() }
        let name = node.name.value
        guard
            let known = context.documentDirectives[name].map({ $0.arguments.map(\.name.value) })
                ?? schema.directive(named: name).map({ $0.arguments.map(\.name) })
        else { return }
        for argument in node.arguments where !known.contains(argument.name.value) {
            let suggestions = Suggestions.list(argument.name.value, known)
            report(
                "Unknown argument \"\(argument.name.value)\" on directive \"@\(name)\"." + Suggestions.didYouMean(suggestions),
                argument.range)
        }
    }

    override func enterArgument(_ node: Argument) {
        guard typeInfo.argument == nil, let field = typeInfo.fieldDefinition, let parent = typeInfo.parentType else {
            return
        }
        let suggestions = Suggestions.list(node.name.value, field.arguments.map(\.name))
        report(
            "Unknown argument \"\(node.name.value)\" on field \"\(schema[parent].name).\(field.name)\"."
                + Suggestions.didYouMean(suggestions), node.range)
    }
}
