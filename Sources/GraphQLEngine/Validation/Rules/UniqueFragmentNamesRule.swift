/// No two fragments share a name.
final class UniqueFragmentNamesRule: ValidationRule {
    override class var events: ValidationEvents { [.fragmentDefinition] }
    override class func applies(to features: DocumentFeatures) -> Bool { features.contains(.fragmentDefinitions) }
    private var known: [String: Name] = [:]

    override func enterFragmentDefinition(_ node: FragmentDefinition) {
        if let first = known[node.name.value] {
            report("There can be only one fragment named \"\(node.name.value)\".", first.range, node.name.range)
        } else {
            known[node.name.value] = node.name
        }
    }
}
