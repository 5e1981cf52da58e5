/// Refuses fields that return introspection types (`__schema`, `__type`) when introspection is
/// switched off; graphql-js's optional rule of the same name, with its message.
final class NoSchemaIntrospectionCustomRule: ValidationRule {
    override class var events: ValidationEvents { [.field] }
    override class func applies(to features: DocumentFeatures) -> Bool { features.contains(.introspectionFields) }

    override func enterField(_ node: Field) {
        guard let type = typeInfo.type else { return }
        if BuiltInDefinitions.introspectionTypeNames.contains(schema[type.namedType].name) {
            report(
                "GraphQL introspection has been disabled, but the requested query contained the field \"\(node.name.value)\".",
                node.range)
        }
    }
}
