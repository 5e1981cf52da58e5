/// Leaf fields (scalars, enums) have no selection set; other fields must have one.
final class ScalarLeafsRule: ValidationRule {
    override class var events: ValidationEvents { [.field] }

    override func enterField(_ node: Field) {
        guard let type = typeInfo.type else { return }
        let name = node.name.value
        if schema.kind(of: type).isLeaf {
            if let selectionSet = node.selectionSet {
                report(
                    "Field \"\(name)\" must not have a selection since type \"\(schema.describe(type))\" has no subfields.",
                    selectionSet.range)
            }
        } else if node.selectionSet == nil {
            report(
                "Field \"\(name)\" of type \"\(schema.describe(type))\" must have a selection of subfields. Did you mean \"\(name) { ... }\"?",
                node.range)
        }
    }
}
