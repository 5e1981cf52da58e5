/// Every variable used (in the operation or the fragments it reaches) is defined by the operation.
final class NoUndefinedVariablesRule: ValidationRule {
    override class var events: ValidationEvents { [.leaveOperation] }
    override class func applies(to features: DocumentFeatures) -> Bool { features.contains(.variables) }

    override func leaveOperation(_ node: OperationDefinition) {
        let defined = Set(node.variableDefinitions.map(\.variable.name.value))
        for usage in context.recursiveVariableUsages(of: node) where !defined.contains(usage.variable.name.value) {
            let name = usage.variable.name.value
            let message =
                node.name.map { "Variable \"$\(name)\" is not defined by operation \"\($0.value)\"." }
                ?? "Variable \"$\(name)\" is not defined."
            report(message, usage.variable.range, node.range)
        }
    }
}
