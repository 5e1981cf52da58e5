/// No field is given twice in an input object value.
final class UniqueInputFieldNamesRule: ValidationRule {
    override class var events: ValidationEvents { [.value, .leaveValue, .objectField] }
    /// Object values stand in arguments, and in the default values of type-system definitions.
    override class func applies(to features: DocumentFeatures) -> Bool {
        !features.isDisjoint(with: [.arguments, .nonExecutableDefinitions])
    }
    private var knownStack: [[String: Name]] = []
    private var known: [String: Name] = [:]

    override func enterValue(_ node: Value) {
        guard case .object = node else { return }
        knownStack.append(known)
        known = [:]
    }

    override func leaveValue(_ node: Value) {
        guard case .object = node, let previous = knownStack.popLast() else { return }
        known = previous
    }

    override func enterObjectField(_ node: ObjectField) {
        if let first = known[node.name.value] {
            report("There can be only one input field named \"\(node.name.value)\".", first.range, node.name.range)
        } else {
            known[node.name.value] = node.name
        }
    }
}
