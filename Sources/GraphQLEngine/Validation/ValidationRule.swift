/// One validation rule: overrides the visit methods for the nodes it checks and reports errors
/// through its ``ValidationContext``. Rules are made fresh for every validation.
///
/// The walker calls a rule only for the events named in ``events`` and, like graphql-js, stops
/// calling it inside a node after it asked to ``skipChildren()``.
class ValidationRule {
    let context: ValidationContext
    /// Depth at which this rule skips the rest of a subtree; nil while not skipping.
    var skipDepth: Int?
    var skipRequested = false

    required init(context: ValidationContext) { self.context = context }

    /// The events this rule handles.
    class var events: ValidationEvents { [] }

    /// Whether the rule can find anything in a document with these features; when not, the
    /// walker neither makes nor calls it.
    class func applies(to features: DocumentFeatures) -> Bool { true }

    var schema: GraphQLSchema { context.schema }
    var typeInfo: TypeInfo { _read { yield context.typeInfo } }

    /// Called from an enter method: do not visit this node's children (for this rule).
    final func skipChildren() { skipRequested = true }

    func report(_ message: String, _ ranges: SourceRange...) { context.report(message, ranges) }

    func enterDocument(_ node: Document) {}
    func leaveDocument(_ node: Document) {}
    func enterOperation(_ node: OperationDefinition) {}
    func leaveOperation(_ node: OperationDefinition) {}
    func enterFragmentDefinition(_ node: FragmentDefinition) {}
    func enterVariableDefinition(_ node: VariableDefinition) {}
    func enterSelectionSet(_ node: SelectionSet) {}
    func enterField(_ node: Field) {}
    func leaveField(_ node: Field) {}
    func enterFragmentSpread(_ node: FragmentSpread) {}
    func enterInlineFragment(_ node: InlineFragment) {}
    func enterDirective(_ node: Directive, location: DirectiveLocation) {}
    func leaveDirective(_ node: Directive) {}
    func enterArgument(_ node: Argument) {}
    func enterNamedType(_ node: NamedType) {}
    func enterValue(_ node: Value) {}
    func leaveValue(_ node: Value) {}
    func enterObjectField(_ node: ObjectField) {}
    /// A type-system node with these directives (schema, type, field, argument, enum value…).
    func enterTypeSystemDirectives(_ directives: [Directive], owner: DocumentWalker.DirectiveOwner) {}
}

/// The kinds of visit a rule asks for.
struct ValidationEvents: OptionSet {
    let rawValue: UInt32
    static let document = ValidationEvents(rawValue: 1 << 0)
    static let leaveDocument = ValidationEvents(rawValue: 1 << 1)
    static let operation = ValidationEvents(rawValue: 1 << 2)
    static let leaveOperation = ValidationEvents(rawValue: 1 << 3)
    static let fragmentDefinition = ValidationEvents(rawValue: 1 << 4)
    static let variableDefinition = ValidationEvents(rawValue: 1 << 5)
    /// Entering a selection set in which two fields can meet: it has a fragment or a response key
    /// used twice. (The others cannot conflict within themselves.)
    static let selectionSetToCompare = ValidationEvents(rawValue: 1 << 6)
    static let field = ValidationEvents(rawValue: 1 << 7)
    /// Leaving a field whose definition declares arguments.
    static let leaveFieldWithArguments = ValidationEvents(rawValue: 1 << 8)
    static let fragmentSpread = ValidationEvents(rawValue: 1 << 9)
    static let inlineFragment = ValidationEvents(rawValue: 1 << 10)
    static let directive = ValidationEvents(rawValue: 1 << 11)
    static let leaveDirective = ValidationEvents(rawValue: 1 << 12)
    static let argument = ValidationEvents(rawValue: 1 << 13)
    static let namedType = ValidationEvents(rawValue: 1 << 14)
    static let value = ValidationEvents(rawValue: 1 << 15)
    static let leaveValue = ValidationEvents(rawValue: 1 << 16)
    static let objectField = ValidationEvents(rawValue: 1 << 17)
    /// Entering a type-system definition, or a part of one, that carries directives.
    static let typeSystemDirectives = ValidationEvents(rawValue: 1 << 18)
}
