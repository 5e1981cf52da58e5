/// Named types exist: in the schema, or defined by the document itself. Inside a type-system
/// definition the built-in scalars and introspection types count as known (graphql-js's SDL case).
final class KnownTypeNamesRule: ValidationRule {
    override class var events: ValidationEvents { [.namedType] }
    /// Type names appear in variable definitions, type conditions (of fragments, inline or not)
    /// and type-system definitions.
    override class func applies(to features: DocumentFeatures) -> Bool {
        !features.isDisjoint(with: [.variables, .spreads, .fragmentDefinitions, .nonExecutableDefinitions])
    }
    /// graphql-js's `standardTypeNames`: the specified scalars, then the introspection types.
    static let standardTypeNames = [
        "String", "Int", "Float", "Boolean", "ID", "__Schema", "__Directive", "__DirectiveLocation", "__Type", "__Field",
        "__InputValue", "__EnumValue", "__TypeKind",
    ]
    private lazy var allNames: [String] = {
        var names = schema.types.map(\.name)
        for case .type(let type) in context.document.definitions { names.append(type.name.value) }
        return names
    }()

    override func enterNamedType(_ node: NamedType) {
        let name = node.name.value
        if schema.typeID(named: name) != nil { return }
        for case .type(let type) in context.document.definitions where type.name.value == name { return }
        let isSDL = context.isInTypeSystemDefinition
        if isSDL && Self.standardTypeNames.contains(name) { return }
        let suggestions = Suggestions.list(name, isSDL ? Self.standardTypeNames + allNames : allNames)
        report("Unknown type \"\(name)\"." + Suggestions.didYouMean(suggestions), node.range)
    }
}
