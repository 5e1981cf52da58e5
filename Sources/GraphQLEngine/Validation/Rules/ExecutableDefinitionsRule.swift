/// Only operations and fragments may appear in an executable document.
final class ExecutableDefinitionsRule: ValidationRule {
    override class var events: ValidationEvents { [.document] }
    override class func applies(to features: DocumentFeatures) -> Bool { features.contains(.nonExecutableDefinitions) }

    override func enterDocument(_ node: Document) {
        for definition in node.definitions where !definition.isExecutable {
            let name: String
            switch definition {
            case .schema, .schemaExtension: name = "schema"
            case .type(let type): name = "\"\(type.name.value)\""
            case .typeExtension(let type): name = "\"\(type.name.value)\""
            case .directive(let directive): name = "\"\(directive.name.value)\""
            case .operation, .fragment: continue
            }
            report("The \(name) definition is not executable.", definition.range)
        }
        skipChildren()
    }
}
