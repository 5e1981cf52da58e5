/// An anonymous operation must be the document's only operation.
final class LoneAnonymousOperationRule: ValidationRule {
    override class var events: ValidationEvents { [.document, .operation] }
    override class func applies(to features: DocumentFeatures) -> Bool { features.contains(.severalOperations) }
    private var operationCount = 0

    override func enterDocument(_ node: Document) {
        operationCount = node.definitions.reduce(0) { count, definition in
            if case .operation = definition { return count + 1 }
            return count
        }
    }

    override func enterOperation(_ node: OperationDefinition) {
        if node.name == nil && operationCount > 1 {
            report("This anonymous operation must be the only defined operation.", node.range)
        }
    }
}
