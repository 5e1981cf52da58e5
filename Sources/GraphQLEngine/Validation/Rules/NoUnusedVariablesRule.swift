/// Every variable an operation defines is used by it or the fragments it reaches.
final class NoUnusedVariablesRule: ValidationRule {
    override class var events: ValidationEvents { [.leaveOperation] }
    override class func applies(to features: DocumentFeatures) -> Bool { features.contains(.variables) }

    override func leaveOperation(_ node: OperationDefinition) {
        let used = Set(context.recursiveVariableUsages(of: node).map(\.variable.name.value))
        for definition in node.variableDefinitions where !used.contains(definition.variable.name.value) {
            let name = definition.variable.name.value
            let message =
                node.name.map { "Variable \"$\(name)\" is never used in operation \"\($0.value)\"." }
                ?? "Variable \"$\(name)\" is never used."
            report(message, definition.range)
        }
    }
}
