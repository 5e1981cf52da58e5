/// Spreads name fragments the document defines.
final class KnownFragmentNamesRule: ValidationRule {
    override class var events: ValidationEvents { [.fragmentSpread] }
    override class func applies(to features: DocumentFeatures) -> Bool { features.contains(.spreads) }

    override func enterFragmentSpread(_ node: FragmentSpread) {
        if context.fragment(named: node.name.value) == nil {
            report("Unknown fragment \"\(node.name.value)\".", node.name.range)
        }
    }
}
