/// Every selected field exists on the type it is selected from.
final class FieldsOnCorrectTypeRule: ValidationRule {
    override class var events: ValidationEvents { [.field] }

    override func enterField(_ node: Field) {
        guard let parent = typeInfo.parentType, typeInfo.fieldDefinition == nil else { return }
        let name = node.name.value
        var suggestion = Suggestions.didYouMean(suggestedTypes(parent, name), subMessage: "to use an inline fragment on")
        if suggestion.isEmpty {
            let type = schema[parent]
            let fieldNames = type.kind == .object || type.kind == .interface ? type.fieldNames : []
            suggestion = Suggestions.didYouMean(Suggestions.list(name, fieldNames))
        }
        report("Cannot query field \"\(name)\" on type \"\(schema[parent].name)\"." + suggestion, node.range)
    }

    /// For an abstract type: the possible types (and their interfaces) that do have the field,
    /// the most used first, interfaces before the types implementing them.
    func suggestedTypes(_ parent: TypeID, _ fieldName: String) -> [String] {
        guard schema[parent].kind.isAbstract else { return [] }
        var suggested: [TypeID] = []
        var usage: [TypeID: Int] = [:]
        for possible in schema.possibleTypes(of: parent) where schema[possible].field(named: fieldName) != nil {
            if usage[possible] == nil { suggested.append(possible) }
            usage[possible] = 1
            for interface in schema[possible].interfaces where schema[interface].field(named: fieldName) != nil {
                if usage[interface] == nil { suggested.append(interface) }
                usage[interface, default: 0] += 1
            }
        }
        return suggested.sorted { a, b in
            let difference = (usage[b] ?? 0) - (usage[a] ?? 0)
            if difference != 0 { return difference < 0 }
            if schema[a].kind == .interface && schema.isSubType(a, b) { return true }
            if schema[b].kind == .interface && schema.isSubType(b, a) { return false }
            return Suggestions.naturalCompare(schema[a].name, schema[b].name) < 0
        }.map { schema[$0].name }
    }
}
