/// Each variable's type fits every position it is used in (a nullable variable may fill a
/// non-null position only when it or the position has a default).
final class VariablesInAllowedPositionRule: ValidationRule {
    override class var events: ValidationEvents { [.leaveOperation] }
    override class func applies(to features: DocumentFeatures) -> Bool { features.contains(.variables) }

    override func leaveOperation(_ node: OperationDefinition) {
        for usage in context.recursiveVariableUsages(of: node) {
            let name = usage.variable.name.value
            guard let definition = context.operationVariables[name], let locationType = usage.type,
                let variableType = schema.type(of: definition.type)
            else { continue }
            if !allowed(variableType, definition.defaultValue, locationType, usage.hasLocationDefault) {
                report(
                    "Variable \"$\(name)\" of type \"\(schema.describe(variableType))\" used in position expecting type \"\(schema.describe(locationType))\".",
                    definition.range, usage.variable.range)
            }
        }
    }

    private func allowed(_ variableType: GraphQLType, _ variableDefault: Value?, _ locationType: GraphQLType, _ locationDefault: Bool) -> Bool {
        if case .nonNull(let nullableLocation) = locationType, !variableType.isNonNull {
            var hasNonNullDefault = variableDefault != nil
            if case .null = variableDefault { hasNonNullDefault = false }
            if !hasNonNullDefault && !locationDefault { return false }
            return schema.isTypeSubType(variableType, of: nullableLocation)
        }
        return schema.isTypeSubType(variableType, of: locationType)
    }
}
