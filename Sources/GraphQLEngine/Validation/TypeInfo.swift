/// Where the validator is in the schema while it walks a document: the type of the current
/// field or fragment, the parent type of the current selection set, the field, directive and
/// argument being visited and the input type a value must have — graphql-js's `TypeInfo`.
public struct TypeInfo {
    public let schema: GraphQLSchema
    /// Where the walk is on the output side: every node entered pushes one frame, changing
    /// what it sets and keeping the rest from the frame below.
    struct OutputFrame {
        var type: GraphQLType?
        var parentType: TypeID?
        var fieldDefinition: GraphQLField?
    }

    var outputStack: [OutputFrame] = []
    var inputTypeStack: [GraphQLType?] = []
    /// The directive being visited, if the schema knows it.
    public internal(set) var directive: GraphQLDirective?
    /// Whether the walk is inside a directive (known or not).
    public internal(set) var isInDirective = false
    /// The argument being visited, if its field or directive defines it.
    public internal(set) var argument: GraphQLInputValue?

    public init(schema: GraphQLSchema) {
        self.schema = schema
        outputStack.reserveCapacity(16)
    }

    /// The output type of the current field, fragment or operation.
    public var type: GraphQLType? { outputStack.last?.type ?? nil }
    /// The composite type the current selection set selects from.
    public var parentType: TypeID? { outputStack.last?.parentType ?? nil }
    /// The definition of the current field.
    public var fieldDefinition: GraphQLField? { outputStack.last?.fieldDefinition ?? nil }

    private var top: OutputFrame { outputStack.last ?? OutputFrame() }
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
        var frame = top
        frame.type = root.flatMap { schema[$0].kind == .object ? GraphQLType.named($0) : nil }
        outputStack.append(frame)
    }

    mutating func enterSelectionSet() {
        var frame = top
        frame.parentType = composite(type)
        outputStack.append(frame)
    }

    mutating func leaveSelectionSet() { outputStack.removeLast() }

    mutating func enterField(_ node: Field) {
        var definition: GraphQLField?
        if let parent = parentType { definition = schema.fieldDefinition(on: parent, named: node.name.value) }
        var frame = top
        frame.fieldDefinition = definition
        frame.type = isOutput(definition?.type)
        outputStack.append(frame)
    }

    mutating func leaveField() { outputStack.removeLast() }

    /// Inline fragments and fragment definitions: the type condition, else the current type.
    mutating func enterFragment(typeCondition: NamedType?) {
        let type: GraphQLType?
        if let typeCondition {
            type = schema.typeID(named: typeCondition.name.value).map(GraphQLType.named)
        } else {
            type = self.type.map { .named($0.namedType) }
        }
        var frame = top
        frame.type = isOutput(type)
        outputStack.append(frame)
    }

    mutating func leaveType() { outputStack.removeLast() }

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
