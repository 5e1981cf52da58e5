/// Fields with the same response name (through fragments too) can be merged: same field, same
/// arguments, compatible types and mergeable sub-selections — graphql-js's algorithm, comparing
/// "within" a selection set once and "between" sets and fragments with memoised fragment pairs.
///
/// Unlike graphql-js, identical copies of a field ("twins": same parent type and same text) are
/// compared once per pair of shapes rather than once per pair of copies, so 250 repeats of a
/// field cost 250 steps instead of 31 125 comparisons. A pair of shapes that does conflict is
/// still compared copy by copy, so errors and their locations are exactly graphql-js's.
///
/// Conflicts past the validation's error limit are never reported, so the search stops once it
/// has found one more than the limit allows (the one that aborts the validation): thousands of
/// conflicting aliases cost as much as the limit, not millions of conflicts.
final class OverlappingFieldsCanBeMergedRule: ValidationRule {
    override class var events: ValidationEvents { [.selectionSetToCompare] }

    struct NodeAndDefinition {
        let parentType: TypeID?
        let field: Field
        let definition: GraphQLField?
    }

    /// Response name → the fields answering to it, in first-seen order.
    final class FieldMap {
        var keys: [String] = []
        var entries: [String: [NodeAndDefinition]] = [:]

        func append(_ key: String, _ item: NodeAndDefinition) {
            if entries[key] == nil { keys.append(key) }
            entries[key, default: []].append(item)
        }
    }

    indirect enum Reason {
        case message(String)
        case subfields([(String, Reason)])

        var text: String {
            switch self {
            case .message(let message): message
            case .subfields(let reasons):
                reasons.map { "subfields \"\($0.0)\" conflict because " + $0.1.text }.joined(separator: " and ")
            }
        }
    }

    struct Conflict {
        let responseName: String
        let reason: Reason
        let fields1: [SourceRange]
        let fields2: [SourceRange]
    }

    private var cachedFields: [Int: (FieldMap, [String])] = [:]
    /// Fragment pairs already compared, with whether they were compared as mutually exclusive.
    private var comparedFragmentPairs: [String: [String: Bool]] = [:]
    /// Shape ("twin") class of each field, by the field's source position.
    private var shapeOfField: [Int: Int] = [:]
    private var shapeIDs: [ShapeKey: Int] = [:]
    /// Conflicts worth finding in one list: the errors the validation may still report, plus one.
    private var budget = Int.max

    struct ShapeKey: Hashable {
        let parentType: TypeID?
        let text: String
    }

    override func enterSelectionSet(_ node: SelectionSet) {
        budget = context.remainingErrors + 1
        for conflict in findConflictsWithin(typeInfo.parentType, node) {
            context.report(
                "Fields \"\(conflict.responseName)\" conflict because \(conflict.reason.text). Use different aliases on the fields to fetch both if this was intentional.",
                conflict.fields1 + conflict.fields2)
        }
    }

    // MARK: - Pair memo

    private func hasComparedPair(_ a: String, _ b: String, _ mutuallyExclusive: Bool) -> Bool {
        let (first, second) = a < b ? (a, b) : (b, a)
        guard let result = comparedFragmentPairs[first]?[second] else { return false }
        return mutuallyExclusive ? true : mutuallyExclusive == result
    }

    private func addComparedPair(_ a: String, _ b: String, _ mutuallyExclusive: Bool) {
        let (first, second) = a < b ? (a, b) : (b, a)
        comparedFragmentPairs[first, default: [:]][second] = mutuallyExclusive
    }

    // MARK: - Collecting fields

    private func fieldsAndFragmentNames(_ parentType: TypeID?, _ selectionSet: SelectionSet) -> (FieldMap, [String]) {
        if let cached = cachedFields[selectionSet.range.start] { return cached }
        let map = FieldMap()
        var fragmentNames: [String] = []
        var seenFragments: Set<String> = []
        collect(parentType, selectionSet, map, &fragmentNames, &seenFragments)
        let result = (map, fragmentNames)
        cachedFields[selectionSet.range.start] = result
        return result
    }

    private func referencedFieldsAndFragmentNames(_ fragment: FragmentDefinition) -> (FieldMap, [String]) {
        if let cached = cachedFields[fragment.selectionSet.range.start] { return cached }
        return fieldsAndFragmentNames(schema.typeID(named: fragment.typeCondition.name.value), fragment.selectionSet)
    }

    private func collect(
        _ parentType: TypeID?, _ selectionSet: SelectionSet, _ map: FieldMap, _ fragmentNames: inout [String],
        _ seenFragments: inout Set<String>
    ) {
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                var definition: GraphQLField?
                if let parentType, schema[parentType].kind == .object || schema[parentType].kind == .interface {
                    definition = schema[parentType].field(named: field.name.value)
                }
                map.append(field.responseKey, NodeAndDefinition(parentType: parentType, field: field, definition: definition))
            case .fragmentSpread(let spread):
                if seenFragments.insert(spread.name.value).inserted { fragmentNames.append(spread.name.value) }
            case .inlineFragment(let fragment):
                let type = fragment.typeCondition.map { schema.typeID(named: $0.name.value) } ?? parentType
                collect(type, fragment.selectionSet, map, &fragmentNames, &seenFragments)
            }
        }
    }

    // MARK: - The comparisons

    private func findConflictsWithin(_ parentType: TypeID?, _ selectionSet: SelectionSet) -> [Conflict] {
        var conflicts: [Conflict] = []
        let (fieldMap, fragmentNames) = fieldsAndFragmentNames(parentType, selectionSet)
        collectConflictsWithin(&conflicts, fieldMap)
        for i in fragmentNames.indices {
            collectConflictsBetweenFieldsAndFragment(&conflicts, false, fieldMap, fragmentNames[i])
            for j in (i + 1)..<fragmentNames.count {
                collectConflictsBetweenFragments(&conflicts, false, fragmentNames[i], fragmentNames[j])
            }
        }
        return conflicts
    }

    private func collectConflictsBetweenFieldsAndFragment(
        _ conflicts: inout [Conflict], _ mutuallyExclusive: Bool, _ fieldMap: FieldMap, _ fragmentName: String
    ) {
        guard let fragment = context.fragment(named: fragmentName) else { return }
        let (fieldMap2, referencedFragmentNames) = referencedFieldsAndFragmentNames(fragment)
        if fieldMap === fieldMap2 { return }
        collectConflictsBetween(&conflicts, mutuallyExclusive, fieldMap, fieldMap2)
        for referenced in referencedFragmentNames {
            if hasComparedPair(referenced, fragmentName, mutuallyExclusive) { continue }
            addComparedPair(referenced, fragmentName, mutuallyExclusive)
            collectConflictsBetweenFieldsAndFragment(&conflicts, mutuallyExclusive, fieldMap, referenced)
        }
    }

    private func collectConflictsBetweenFragments(
        _ conflicts: inout [Conflict], _ mutuallyExclusive: Bool, _ name1: String, _ name2: String
    ) {
        if name1 == name2 { return }
        if hasComparedPair(name1, name2, mutuallyExclusive) { return }
        addComparedPair(name1, name2, mutuallyExclusive)
        guard let fragment1 = context.fragment(named: name1), let fragment2 = context.fragment(named: name2) else {
            return
        }
        let (fieldMap1, referenced1) = referencedFieldsAndFragmentNames(fragment1)
        let (fieldMap2, referenced2) = referencedFieldsAndFragmentNames(fragment2)
        collectConflictsBetween(&conflicts, mutuallyExclusive, fieldMap1, fieldMap2)
        for name in referenced2 { collectConflictsBetweenFragments(&conflicts, mutuallyExclusive, name1, name) }
        for name in referenced1 { collectConflictsBetweenFragments(&conflicts, mutuallyExclusive, name, name2) }
    }

    private func findConflictsBetweenSubSelectionSets(
        _ mutuallyExclusive: Bool, _ parentType1: TypeID?, _ selectionSet1: SelectionSet, _ parentType2: TypeID?,
        _ selectionSet2: SelectionSet
    ) -> [Conflict] {
        var conflicts: [Conflict] = []
        let (fieldMap1, fragmentNames1) = fieldsAndFragmentNames(parentType1, selectionSet1)
        let (fieldMap2, fragmentNames2) = fieldsAndFragmentNames(parentType2, selectionSet2)
        collectConflictsBetween(&conflicts, mutuallyExclusive, fieldMap1, fieldMap2)
        for name in fragmentNames2 {
            collectConflictsBetweenFieldsAndFragment(&conflicts, mutuallyExclusive, fieldMap1, name)
        }
        for name in fragmentNames1 {
            collectConflictsBetweenFieldsAndFragment(&conflicts, mutuallyExclusive, fieldMap2, name)
        }
        for name1 in fragmentNames1 {
            for name2 in fragmentNames2 {
                collectConflictsBetweenFragments(&conflicts, mutuallyExclusive, name1, name2)
            }
        }
        return conflicts
    }

    /// Every pair of same-named fields in one map.
    private func collectConflictsWithin(_ conflicts: inout [Conflict], _ fieldMap: FieldMap) {
        for key in fieldMap.keys {
            guard conflicts.count < budget else { return }
            guard let fields = fieldMap.entries[key], fields.count > 1 else { continue }
            if fields.count <= 4 {
                for i in fields.indices {
                    for j in (i + 1)..<fields.count {
                        if let conflict = findConflict(false, key, fields[i], fields[j]) { conflicts.append(conflict) }
                    }
                }
                continue
            }
            comparePairs(&conflicts, false, key, fields, fields, within: true)
        }
    }

    /// Every pair of same-named fields across two maps.
    private func collectConflictsBetween(
        _ conflicts: inout [Conflict], _ mutuallyExclusive: Bool, _ fieldMap1: FieldMap, _ fieldMap2: FieldMap
    ) {
        for key in fieldMap1.keys {
            guard conflicts.count < budget else { return }
            guard let fields1 = fieldMap1.entries[key], let fields2 = fieldMap2.entries[key] else { continue }
            if fields1.count * fields2.count <= 16 {
                for field1 in fields1 {
                    for field2 in fields2 {
                        if let conflict = findConflict(mutuallyExclusive, key, field1, field2) { conflicts.append(conflict) }
                    }
                }
                continue
            }
            comparePairs(&conflicts, mutuallyExclusive, key, fields1, fields2, within: false)
        }
    }

    /// The pairs of `fields1 × fields2` (or of `fields1` among themselves when `within`), compared
    /// once per pair of shapes. Only when a pair of shapes conflicts are its copies compared one
    /// by one, in graphql-js's order, so the errors and their locations are the same.
    private func comparePairs(
        _ conflicts: inout [Conflict], _ mutuallyExclusive: Bool, _ key: String, _ fields1: [NodeAndDefinition],
        _ fields2: [NodeAndDefinition], within: Bool
    ) {
        let shapes1 = fields1.map(shape)
        let shapes2 = within ? shapes1 : fields2.map(shape)
        // First occurrence of each shape (and, within one list, its second occurrence).
        var first1: [Int: Int] = [:]
        var second1: [Int: Int] = [:]
        for (index, shape) in shapes1.enumerated() {
            if first1[shape] == nil { first1[shape] = index } else if second1[shape] == nil { second1[shape] = index }
        }
        var first2: [Int: Int] = [:]
        if within { first2 = first1 } else { for (index, shape) in shapes2.enumerated() where first2[shape] == nil { first2[shape] = index } }
        // One representative pair per pair of shapes, taken in the order graphql-js meets them.
        var representatives: [(i: Int, j: Int)] = []
        for (shape1, i) in first1 {
            for (shape2, j) in first2 {
                if within {
                    if shape1 == shape2 {
                        if let k = second1[shape1] { representatives.append((i, k)) }
                    } else if i < j {
                        representatives.append((i, j))
                    }
                } else {
                    representatives.append((i, j))
                }
            }
        }
        representatives.sort { $0.i != $1.i ? $0.i < $1.i : $0.j < $1.j }
        var found: [Int64: Conflict] = [:]
        for (i, j) in representatives {
            if let conflict = findConflict(mutuallyExclusive, key, fields1[i], fields2[j]) {
                found[Int64(i) << 32 | Int64(j)] = conflict
            }
        }
        if found.isEmpty { return }
        var dirty: Set<Int64> = []
        for position in found.keys {
            let i = Int(position >> 32)
            let j = Int(position & 0xFFFF_FFFF)
            dirty.insert(Self.pairKey(shapes1[i], shapes2[j]))
        }
        for i in fields1.indices {
            for j in (within ? i + 1 : 0)..<fields2.count where dirty.contains(Self.pairKey(shapes1[i], shapes2[j])) {
                guard conflicts.count < budget else { return }
                if let conflict = found[Int64(i) << 32 | Int64(j)] {
                    conflicts.append(conflict)
                } else if let conflict = findConflict(mutuallyExclusive, key, fields1[i], fields2[j]) {
                    conflicts.append(conflict)
                }
            }
        }
    }

    static func pairKey(_ a: Int, _ b: Int) -> Int64 { Int64(min(a, b)) << 32 | Int64(max(a, b)) }

    /// The twin class of a field: fields with the same parent type and the same printed text.
    private func shape(_ item: NodeAndDefinition) -> Int {
        let position = item.field.range.start
        if let known = shapeOfField[position] { return known }
        let field = item.field
        // A plain field is its name; anything with arguments, directives or a selection set is
        // its printed text (which always contains more than a name).
        let plain = field.arguments.isEmpty && field.directives.isEmpty && field.selectionSet == nil
        let text = ShapeKey(parentType: item.parentType, text: plain ? field.name.value : Printer.print(.field(field)))
        let id: Int
        if let existing = shapeIDs[text] {
            id = existing
        } else {
            id = shapeIDs.count
            shapeIDs[text] = id
        }
        shapeOfField[position] = id
        return id
    }

    private func findConflict(
        _ parentFieldsAreMutuallyExclusive: Bool, _ responseName: String, _ item1: NodeAndDefinition,
        _ item2: NodeAndDefinition
    ) -> Conflict? {
        let node1 = item1.field
        let node2 = item2.field
        var mutuallyExclusive = parentFieldsAreMutuallyExclusive
        if !mutuallyExclusive, let parent1 = item1.parentType, let parent2 = item2.parentType, parent1 != parent2,
            schema[parent1].kind == .object, schema[parent2].kind == .object
        {
            mutuallyExclusive = true
        }
        if !mutuallyExclusive {
            if node1.name.value != node2.name.value {
                return Conflict(
                    responseName: responseName,
                    reason: .message("\"\(node1.name.value)\" and \"\(node2.name.value)\" are different fields"),
                    fields1: [node1.range], fields2: [node2.range])
            }
            if Self.argumentsText(node1.arguments) != Self.argumentsText(node2.arguments) {
                return Conflict(
                    responseName: responseName, reason: .message("they have differing arguments"),
                    fields1: [node1.range], fields2: [node2.range])
            }
        }
        let type1 = item1.definition?.type
        let type2 = item2.definition?.type
        if let type1, let type2, doTypesConflict(type1, type2) {
            return Conflict(
                responseName: responseName,
                reason: .message(
                    "they return conflicting types \"\(schema.describe(type1))\" and \"\(schema.describe(type2))\""),
                fields1: [node1.range], fields2: [node2.range])
        }
        if let selectionSet1 = node1.selectionSet, let selectionSet2 = node2.selectionSet {
            let conflicts = findConflictsBetweenSubSelectionSets(
                mutuallyExclusive, type1?.namedType, selectionSet1, type2?.namedType, selectionSet2)
            guard !conflicts.isEmpty else { return nil }
            return Conflict(
                responseName: responseName,
                reason: .subfields(conflicts.map { ($0.responseName, $0.reason) }),
                fields1: [node1.range] + conflicts.flatMap(\.fields1),
                fields2: [node2.range] + conflicts.flatMap(\.fields2))
        }
        return nil
    }

    private func doTypesConflict(_ type1: GraphQLType, _ type2: GraphQLType) -> Bool {
        switch (type1, type2) {
        case (.list(let inner1), .list(let inner2)): return doTypesConflict(inner1, inner2)
        case (.list, _), (_, .list): return true
        case (.nonNull(let inner1), .nonNull(let inner2)): return doTypesConflict(inner1, inner2)
        case (.nonNull, _), (_, .nonNull): return true
        case (.named(let id1), .named(let id2)):
            if schema[id1].kind.isLeaf || schema[id2].kind.isLeaf { return id1 != id2 }
            return false
        }
    }

    /// graphql-js's `stringifyArguments`: the arguments as one object value, fields sorted by name.
    static func argumentsText(_ arguments: ArraySlice<Argument>) -> String {
        if arguments.isEmpty { return "{}" }
        let sorted = arguments.enumerated().sorted { a, b in
            let order = Suggestions.naturalCompare(a.element.name.value, b.element.name.value)
            return order != 0 ? order < 0 : a.offset < b.offset
        }
        return "{" + sorted.map { $0.element.name.value + ": " + Printer.print(sortedValue($0.element.value)) }
            .joined(separator: ", ") + "}"
    }

    static func sortedValue(_ value: Value) -> Value {
        switch value {
        case .object(var object):
            let fields = object.fields.enumerated().sorted { a, b in
                let order = Suggestions.naturalCompare(a.element.name.value, b.element.name.value)
                return order != 0 ? order < 0 : a.offset < b.offset
            }
            object.fields = fields.map { item in
                var field = item.element
                field.value = sortedValue(field.value)
                return field
            }
            return .object(object)
        case .list(var list):
            list.values = list.values.map(sortedValue)
            return .list(list)
        default:
            return value
        }
    }
}
