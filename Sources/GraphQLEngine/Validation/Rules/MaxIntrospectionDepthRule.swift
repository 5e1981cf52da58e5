/// Introspection queries may not nest `fields`, `interfaces`, `possibleTypes` or `inputFields`
/// three deep (following fragments): such queries cost a lot and no client needs them.
final class MaxIntrospectionDepthRule: ValidationRule {
    override class var events: ValidationEvents { [.field] }
    override class func applies(to features: DocumentFeatures) -> Bool { features.contains(.introspectionFields) }
    static let maxListDepth = 3

    override func enterField(_ node: Field) {
        let name = node.name.value
        guard name == "__schema" || name == "__type" else { return }
        var visited: Set<String> = []
        if tooDeep(.field(node), visited: &visited, depth: 0) {
            report("Maximum introspection depth exceeded", node.range)
            skipChildren()
        }
    }

    private func tooDeep(_ selection: Selection, visited: inout Set<String>, depth: Int) -> Bool {
        var depth = depth
        let selectionSet: SelectionSet?
        switch selection {
        case .fragmentSpread(let spread):
            let name = spread.name.value
            guard !visited.contains(name), let fragment = context.fragment(named: name) else { return false }
            visited.insert(name)
            defer { visited.remove(name) }
            return fragment.selectionSet.selections.contains { tooDeep($0, visited: &visited, depth: depth) }
        case .field(let field):
            switch field.name.value {
            case "fields", "interfaces", "possibleTypes", "inputFields":
                depth += 1
                if depth >= Self.maxListDepth { return true }
            default: break
            }
            selectionSet = field.selectionSet
        case .inlineFragment(let fragment):
            selectionSet = fragment.selectionSet
        }
        guard let selectionSet else { return false }
        for child in selectionSet.selections where tooDeep(child, visited: &visited, depth: depth) { return true }
        return false
    }
}
