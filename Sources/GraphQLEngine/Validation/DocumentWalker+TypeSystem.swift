/// Type-system definitions inside an executable document: graphql-js reports each as "not
/// executable" and still visits it with every rule, so a directive, argument, type name or input
/// value in it is checked as it would be anywhere else. The visiting order is graphql-js's
/// (`QueryDocumentKeys`); descriptions are skipped (no rule finds anything in them).
extension DocumentWalker {
    /// Whose directives a type-system node carries: graphql-js's UniqueDirectivesPerLocation
    /// counts a schema's and a named type's directives across their definition and extensions.
    enum DirectiveOwner {
        case schema
        case type(String)
        case node
    }

    mutating func walkTypeSystem(_ definition: Definition) {
        context.isInTypeSystemDefinition = true
        defer { context.isInTypeSystemDefinition = false }
        enterNode()
        defer { leaveNode() }
        switch definition {
        case .schema(let schema):
            walk(directives: schema.directives, location: .schema, owner: .schema)
            for operationType in schema.operationTypes { walk(operationType.type) }
        case .schemaExtension(let schema):
            walk(directives: schema.directives, location: .schema, owner: .schema)
            for operationType in schema.operationTypes { walk(operationType.type) }
        case .type(let type):
            walkType(
                directives: type.directives, location: type.directiveLocation, owner: .type(type.name.value),
                interfaces: type.interfaces, fields: type.fields, members: type.members, values: type.values,
                inputFields: type.inputFields)
        case .typeExtension(let type):
            // graphql-js (16 and its main line) places the fields of `extend input` at
            // ARGUMENT_DEFINITION: only an input object's definition makes them input fields.
            walkType(
                directives: type.directives, location: type.directiveLocation, owner: .type(type.name.value),
                interfaces: type.interfaces, fields: type.fields, members: type.members, values: type.values,
                inputFields: type.inputFields, inputFieldLocation: .argumentDefinition)
        case .directive(let directive):
            for argument in directive.arguments { walk(argument, location: .argumentDefinition) }
        case .operation, .fragment:
            break
        }
    }

    /// A type definition or extension; each kind has only some of these parts, and they come in
    /// graphql-js's order for every kind.
    private mutating func walkType(
        directives: [Directive], location: DirectiveLocation, owner: DirectiveOwner, interfaces: [NamedType],
        fields: [FieldDefinition], members: [NamedType], values: [EnumValueDefinition], inputFields: [InputValueDefinition],
        inputFieldLocation: DirectiveLocation = .inputFieldDefinition
    ) {
        enterDirectiveOwner(directives, owner)
        for interface in interfaces { walk(interface) }
        walk(directives, location: location)
        for field in fields {
            enterNode()
            enterDirectiveOwner(field.directives, .node)
            for argument in field.arguments { walk(argument, location: .argumentDefinition) }
            walk(field.type.namedType)
            walk(field.directives, location: .fieldDefinition)
            leaveNode()
        }
        for member in members { walk(member) }
        for value in values {
            enterNode()
            walk(directives: value.directives, location: .enumValue, owner: .node)
            leaveNode()
        }
        for field in inputFields { walk(field, location: inputFieldLocation) }
    }

    /// An argument or input field definition: its type, default value and directives.
    private mutating func walk(_ definition: InputValueDefinition, location: DirectiveLocation) {
        enterNode()
        enterDirectiveOwner(definition.directives, .node)
        walk(definition.type.namedType)
        if let defaultValue = definition.defaultValue { walk(defaultValue) }
        walk(definition.directives, location: location)
        leaveNode()
    }

    private mutating func walk(directives: [Directive], location: DirectiveLocation, owner: DirectiveOwner) {
        enterDirectiveOwner(directives, owner)
        walk(directives, location: location)
    }

    /// Entering a type-system node that carries directives (before its children, as graphql-js).
    private mutating func enterDirectiveOwner(_ directives: [Directive], _ owner: DirectiveOwner) {
        guard !directives.isEmpty else { return }
        enter(.typeSystemDirectives) { $0.enterTypeSystemDirectives(directives, owner: owner) }
    }
}
