/// Required (non-null, no default) arguments of fields and directives are given.
final class ProvidedRequiredArgumentsRule: ValidationRule {
    override class var events: ValidationEvents { [.leaveFieldWithArguments, .leaveDirective] }

    override func leaveField(_ node: Field) {
        guard let field = typeInfo.fieldDefinition else { return }
        for argument in field.arguments
        where argument.isRequired && !node.arguments.contains(where: { $0.name.value == argument.name }) {
            report(
                "Field \"\(field.name)\" argument \"\(argument.name)\" of type \"\(schema.describe(argument.type))\" is required, but it was not provided.",
                node.range)
        }
    }

    override func leaveDirective(_ node: Directive) {
        let name = node.name.value
        var required: [(String, String)]?
        if let definition = context.documentDirectives[name] {
            required = definition.arguments.filter { $0.type.isNonNullReference && $0.defaultValue == nil }
                .map { ($0.name.value, Printer.print($0.type)) }
        } else if let directive = schema.directive(named: name) {
            required = directive.arguments.filter(\.isRequired).map { ($0.name, schema.describe($0.type)) }
        }
        for (argumentName, type) in required ?? []
        where !node.arguments.contains(where: { $0.name.value == argumentName }) {
            report(
                "Directive \"@\(name)\" argument \"\(argumentName)\" of type \"\(type)\" is required, but it was not provided.",
                node.range)
        }
    }
}
