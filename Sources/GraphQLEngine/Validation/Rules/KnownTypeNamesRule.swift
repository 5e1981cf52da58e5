/// Variable types and type conditions name types the schema has.
final class KnownTypeNamesRule: ValidationRule {
    override class var events: ValidationEvents { [.namedType] }
    /// Type names appear in variable definitions and type conditions (of fragments, inline or not).
    override class func applies(to features: DocumentFeatures) -> Bool {
        !features.isDisjoint(with: [.variables, .spreads, .fragmentDefinitions])
    }
    private lazy var allNames: [String] = {
        var names = schema.types.map(\.name)
        for case .type(let type) in context.document.definitions { names.append(type.name.value) }
        return names
    }()

    override func enterNamedType(_ node: NamedType) {
        let name = node.name.value
        if schema.typeID(named: name) != nil { return }
        for case .type(let type) in context.document.definitions where type.name.value == name { return }
        report("Unknown type \"\(name)\"." + Suggestions.didYouMean(Suggestions.list(name, allNames)), node.range)
    }
}
