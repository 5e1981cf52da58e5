/// Fragments do not spread themselves, directly or through others.
final class NoFragmentCyclesRule: ValidationRule {
    override class var events: ValidationEvents { [.fragmentDefinition] }
    override class func applies(to features: DocumentFeatures) -> Bool { features.contains(.fragmentDefinitions) }
    private var visited: Set<String> = []
    private var spreadPath: [FragmentSpread] = []
    private var spreadPathIndex: [String: Int] = [:]

    override func enterFragmentDefinition(_ node: FragmentDefinition) {
        detectCycle(node)
    }

    private func detectCycle(_ fragment: FragmentDefinition) {
        let name = fragment.name.value
        guard visited.insert(name).inserted else { return }
        let spreads = context.fragmentSpreads(of: fragment.selectionSet)
        if spreads.isEmpty { return }
        spreadPathIndex[name] = spreadPath.count
        for spread in spreads {
            let spreadName = spread.name.value
            spreadPath.append(spread)
            if let cycleStart = spreadPathIndex[spreadName] {
                let cycle = spreadPath[cycleStart...]
                let via = cycle.dropLast().map { "\"\($0.name.value)\"" }.joined(separator: ", ")
                context.report(
                    "Cannot spread fragment \"\(spreadName)\" within itself" + (via.isEmpty ? "." : " via \(via)."),
                    cycle.map(\.range))
            } else if let next = context.fragment(named: spreadName) {
                detectCycle(next)
            }
            spreadPath.removeLast()
        }
        spreadPathIndex[name] = nil
    }
}
