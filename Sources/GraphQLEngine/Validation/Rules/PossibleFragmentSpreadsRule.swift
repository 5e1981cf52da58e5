/// A fragment is spread only where its type could apply.
final class PossibleFragmentSpreadsRule: ValidationRule {
    override class var events: ValidationEvents { [.inlineFragment, .fragmentSpread] }
    override class func applies(to features: DocumentFeatures) -> Bool { features.contains(.spreads) }

    override func enterInlineFragment(_ node: InlineFragment) {
        guard let fragmentType = typeInfo.type?.namedType, schema[fragmentType].kind.isComposite,
            let parent = typeInfo.parentType, !schema.doTypesOverlap(fragmentType, parent)
        else { return }
        report(
            "Fragment cannot be spread here as objects of type \"\(schema[parent].name)\" can never be of type \"\(schema[fragmentType].name)\".",
            node.range)
    }

    override func enterFragmentSpread(_ node: FragmentSpread) {
        let name = node.name.value
        guard let fragment = context.fragment(named: name),
            let fragmentType = schema.typeID(named: fragment.typeCondition.name.value),
            schema[fragmentType].kind.isComposite,
            let parent = typeInfo.parentType, !schema.doTypesOverlap(fragmentType, parent)
        else { return }
        report(
            "Fragment \"\(name)\" cannot be spread here as objects of type \"\(schema[parent].name)\" can never be of type \"\(schema[fragmentType].name)\".",
            node.range)
    }
}
