/// Fragments condition on objects, interfaces or unions.
final class FragmentsOnCompositeTypesRule: ValidationRule {
    override class var events: ValidationEvents { [.inlineFragment, .fragmentDefinition] }
    override class func applies(to features: DocumentFeatures) -> Bool {
        !features.isDisjoint(with: [.spreads, .fragmentDefinitions])
    }

    override func enterInlineFragment(_ node: InlineFragment) {
        guard let condition = node.typeCondition, let type = schema.type(named: condition.name.value),
            !type.kind.isComposite
        else { return }
        report("Fragment cannot condition on non composite type \"\(condition.name.value)\".", condition.range)
    }

    override func enterFragmentDefinition(_ node: FragmentDefinition) {
        let condition = node.typeCondition
        guard let type = schema.type(named: condition.name.value), !type.kind.isComposite else { return }
        report(
            "Fragment \"\(node.name.value)\" cannot condition on non composite type \"\(condition.name.value)\".",
            condition.range)
    }
}
