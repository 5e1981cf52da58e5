/// Where the validator is in the schema while it walks a document: the type of the current
/// field or fragment, the parent type of the current selection set, the field, directive and
/// argument being visited and the input type a value must have — graphql-js's `TypeInfo`.
public struct TypeInfo {
    public let schema: GraphQLSchema
    var typeStack: [GraphQLType?] = []
    var parentTypeStack: [TypeID?] = []
    var fieldDefinitionStack: [GraphQLField?] = []
    var inputTypeStack: [GraphQLType?] = []
    /// The directive being visited, if the schema knows it.
    public internal(set) var directive: GraphQLDirective?
    /// Whether the walk is inside a directive (known or not).
    public internal(set) var isInDirective = false
    /// The argument being visited, if its field or directive defines it.
    public internal(set) var argument: GraphQLInputValue?

    public init(schema: GraphQLSchema) {
        self.schema = schema
        typeStack.reserveCapacity(16)
        parentTypeStack.reserveCapacity(16)
        fieldDefinitionStack.reserveCapacity(16)
    }

    /// The output type of the current field, fragment or operation.
    public var type: GraphQLType? { typeStack.last ?? nil }
    /// The composite type the current selection set selects from.
    public var parentType: TypeID? { parentTypeStack.last ?? nil }
    /// The definition of the current field.
    public var fieldDefinition: GraphQLField? { fieldDefinitionStack.last ?? nil }
    /// The type the current value must have.
    public var inputType: GraphQLType? { inputTypeStack.last ?? nil }
    /// The type of the value enclosing the current one.
    public var parentInputType: GraphQLType? {
        inputTypeStack.count >= 2 ? inputTypeStack[inputTypeStack.count - 2] : nil
    }

    func isOutput(_ type: GraphQLType?) -> GraphQLType? {
        guard let type, schema.kind(of: type).isOutput else { return nil }
        return type
    }

    func isInput(_ type: GraphQLType?) -> GraphQLType? {
        guard let type, schema.kind(of: type).isInput else { return nil }
        return type
    }

    func composite(_ type: GraphQLType?) -> TypeID? {
        guard let id = type?.namedType, schema[id].kind.isComposite else { return nil }
        return id
    }

    // MARK: Entering and leaving nodes

    mutating func enterOperation(_ node: OperationDefinition) {
        let root = schema.rootType(for: node.operation)
        typeStack.append(root.flatMap { schema[$0].kind == .object ? GraphQLType.named($0) : nil })
    }

    mutating func enterSelectionSet() { parentTypeStack.append(composite(type)) }
    mutating func leaveSelectionSet() { parentTypeStack.removeLast() }

    mutating func enterField(_ node: Field) {
        var definition: GraphQLField?
        if let parent = parentType { definition = schema.fieldDefinition(on: parent, named: node.name.value) }
        fieldDefinitionStack.append(definition)
        typeStack.append(isOutput(definition?.type))
    }

    mutating func leaveField() {
        fieldDefinitionStack.removeLast()
        typeStack.removeLast()
    }

    /// Inline fragments and fragment definitions: the type condition, else the current type.
    mutating func enterFragment(typeCondition: NamedType?) {
        let type: GraphQLType?
        if let typeCondition {
            type = schema.typeID(named: typeCondition.name.value).map(GraphQLType.named)
        } else {
            type = self.type.map { .named($0.namedType) }
        }
        typeStack.append(isOutput(type))
    }

    mutating func leaveType() { typeStack.removeLast() }

    mutating func enterDirective(_ node: Directive) {
        directive = schema.directive(named: node.name.value)
        isInDirective = true
    }

    mutating func leaveDirective() {
        directive = nil
        isInDirective = false
    }

    mutating func enterVariableDefinition(_ node: VariableDefinition) {
        inputTypeStack.append(isInput(schema.type(of: node.type)))
    }

    mutating func enterArgument(_ node: Argument) {
        // As graphql-js: an unknown directive's arguments are looked up on the enclosing field.
        let definition =
            directive.map { $0.argument(named: node.name.value) } ?? fieldDefinition?.argument(named: node.name.value)
        argument = definition
        inputTypeStack.append(isInput(definition?.type))
    }

    mutating func leaveArgument() {
        argument = nil
        inputTypeStack.removeLast()
    }

    mutating func enterListValue() {
        inputTypeStack.append(isInput(inputType?.listItemType))
    }

    mutating func enterObjectField(_ node: ObjectField) {
        var fieldType: GraphQLType?
        if let id = inputType?.namedType, schema[id].kind == .inputObject {
            fieldType = schema[id].inputField(named: node.name.value)?.type
        }
        inputTypeStack.append(isInput(fieldType))
    }

    mutating func leaveInputType() { inputTypeStack.removeLast() }
}
