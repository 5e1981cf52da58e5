/// Every fragment is used by some operation.
final class NoUnusedFragmentsRule: ValidationRule {
    override class var events: ValidationEvents { [.leaveDocument] }
    override class func applies(to features: DocumentFeatures) -> Bool { features.contains(.fragmentDefinitions) }

    override func leaveDocument(_ node: Document) {
        var used: Set<String> = []
        for case .operation(let operation) in node.definitions {
            for fragment in context.recursivelyReferencedFragments(of: operation) { used.insert(fragment.name.value) }
        }
        for case .fragment(let fragment) in node.definitions where !used.contains(fragment.name.value) {
            report("Fragment \"\(fragment.name.value)\" is never used.", fragment.range)
        }
    }
}
