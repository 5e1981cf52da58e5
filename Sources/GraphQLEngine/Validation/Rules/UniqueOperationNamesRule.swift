/// No two operations share a name.
final class UniqueOperationNamesRule: ValidationRule {
    override class var events: ValidationEvents { [.operation] }
    override class func applies(to features: DocumentFeatures) -> Bool { features.contains(.severalOperations) }
    private var known: [String: Name] = [:]

    override func enterOperation(_ node: OperationDefinition) {
        guard let name = node.name else { return }
        if let first = known[name.value] {
            report("There can be only one operation named \"\(name.value)\".", first.range, name.range)
        } else {
            known[name.value] = name
        }
    }
}
