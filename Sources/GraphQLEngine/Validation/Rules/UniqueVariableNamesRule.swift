/// No two variables of an operation share a name.
final class UniqueVariableNamesRule: ValidationRule {
    override class var events: ValidationEvents { [.operation] }
    override class func applies(to features: DocumentFeatures) -> Bool { features.contains(.variables) }

    override func enterOperation(_ node: OperationDefinition) {
        for (name, ranges) in node.variableDefinitions.map(\.variable.name).duplicates {
            context.report("There can be only one variable named \"$\(name)\".", ranges)
        }
    }
}
