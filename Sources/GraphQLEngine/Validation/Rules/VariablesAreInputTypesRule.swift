/// Variables are of input types: scalars, enums or input objects.
final class VariablesAreInputTypesRule: ValidationRule {
    override class var events: ValidationEvents { [.variableDefinition] }
    override class func applies(to features: DocumentFeatures) -> Bool { features.contains(.variables) }

    override func enterVariableDefinition(_ node: VariableDefinition) {
        guard let type = schema.type(of: node.type), !schema.kind(of: type).isInput else { return }
        report(
            "Variable \"$\(node.variable.name.value)\" cannot be non-input type \"\(Printer.print(node.type))\".",
            node.type.range)
    }
}
