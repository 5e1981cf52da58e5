@testable import GraphQLEngine

/// Seeded JSON root data and variable values for an operation, shaped by what the operation
/// selects: mostly fitting the schema, with deliberate misfits mixed in (nulls in non-null
/// positions, wrong scalar types, non-lists for lists, unknown or missing `__typename`, invalid
/// variables) so errors, null propagation and coercion messages are compared too.
struct ExecutionDataGenerator: SeededRandom {
    let schema: GraphQLSchema
    let fragments: [String: FragmentDefinition]
    var state: UInt64

    init(schema: GraphQLSchema, document: Document, seed: UInt64) {
        self.schema = schema
        var fragments: [String: FragmentDefinition] = [:]
        for case .fragment(let fragment) in document.definitions { fragments[fragment.name.value] = fragment }
        self.fragments = fragments
        self.state = seed
    }

    // MARK: - Root data

    mutating func rootData(for operation: OperationDefinition) -> GraphQLValue {
        guard let root = schema.rootType(for: operation.operation) else { return .object(GraphQLObject()) }
        return object(schema[root], [operation.selectionSet])
    }

    /// Field name → (type, sub-selections) of everything `selectionSets` select on `type`.
    private func collect(_ selectionSets: [SelectionSet], on type: GraphQLNamedType) -> [(String, GraphQLType, [SelectionSet])] {
        var order: [String] = []
        var found: [String: (GraphQLType, [SelectionSet])] = [:]
        var visited: Set<String> = []
        func walk(_ set: SelectionSet) {
            for selection in set.selections {
                switch selection {
                case .field(let field):
                    let name = field.name.value
                    guard let definition = type.field(named: name) else { continue }
                    if found[name] == nil {
                        order.append(name)
                        found[name] = (definition.type, [])
                    }
                    if let sub = field.selectionSet { found[name]?.1.append(sub) }
                case .inlineFragment(let fragment):
                    if applies(fragment.typeCondition?.name.value, type) { walk(fragment.selectionSet) }
                case .fragmentSpread(let spread):
                    let name = spread.name.value
                    guard !visited.contains(name), let fragment = fragments[name] else { continue }
                    visited.insert(name)
                    if applies(fragment.typeCondition.name.value, type) { walk(fragment.selectionSet) }
                }
            }
        }
        for set in selectionSets { walk(set) }
        return order.compactMap { name in found[name].map { (name, $0.0, $0.1) } }
    }

    private func applies(_ condition: String?, _ type: GraphQLNamedType) -> Bool {
        guard let condition, let conditionType = schema.type(named: condition) else { return true }
        return conditionType.id == type.id || schema.isSubType(conditionType.id, type.id)
    }

    private mutating func object(_ type: GraphQLNamedType, _ selectionSets: [SelectionSet]) -> GraphQLValue {
        var result = GraphQLObject()
        for (name, fieldType, subs) in collect(selectionSets, on: type) {
            if chance(3) { continue }  // a missing key reads as null
            result[name] = value(fieldType, subs)
        }
        return .object(result)
    }

    private mutating func value(_ type: GraphQLType, _ subs: [SelectionSet]) -> GraphQLValue {
        switch type {
        case .nonNull(let inner):
            return chance(7) ? .null : value(inner, subs)
        case .list(let item):
            if chance(4) { return .null }
            if chance(5) { return value(item, subs) }  // not a list
            return .list((0..<int(4)).map { _ in value(item, subs) })
        case .named(let id):
            if chance(3) { return .null }
            let named = schema[id]
            switch named.kind {
            case .object:
                return object(named, subs)
            case .interface, .union:
                let possible = schema.possibleTypes(of: id)
                if possible.isEmpty || chance(5) {
                    var misfit = object(named.kind == .union || possible.isEmpty ? named : schema[possible[0]], subs)
                    if case .object(var fields) = misfit {
                        switch int(4) {
                        case 0: break  // no __typename
                        case 1: fields["__typename"] = "Nope"
                        case 2: fields["__typename"] = .string(named.name)  // not an object type
                        default:
                            let outsider = schema.types.first { $0.kind == .object && !$0.name.hasPrefix("__") && !schema.isSubType(id, $0.id) }
                            fields["__typename"] = .string(outsider?.name ?? "Nope")
                        }
                        misfit = .object(fields)
                    }
                    return misfit
                }
                let concrete = schema[pick(possible)]
                guard case .object(var fields) = object(concrete, subs) else { return .null }
                fields["__typename"] = .string(concrete.name)
                return .object(fields)
            case .enumeration:
                if chance(6) { return pick([.string("NOT_A_VALUE"), .int(1), .bool(true)]) }
                return .string(pick(named.enumValues).name)
            default:
                return scalar(named.name)
            }
        }
    }

    private mutating func scalar(_ name: String) -> GraphQLValue {
        let misfit = chance(12)
        switch name {
        case "Int":
            if misfit { return pick([.float(1.5), .string("7"), .string("abc"), .bool(true), .int(3_000_000_000), .list([1]), ["a": 1], .string("")]) }
            return .int(int(2000) - 1000)
        case "Float":
            if misfit { return pick([.string("x"), .string("2.5"), .bool(false), ["a": ["b": ["c": 1]]], .list([])]) }
            return chance(50) ? .float(Double(int(100_000)) / 64) : .int(int(50))
        case "String":
            if misfit { return pick([.int(12), .bool(true), .float(1.5), .float(1e21), .list([1, "a"]), ["a": ["b": ["c": 1]]]]) }
            return .string(pick(["", "plain", "with \"quotes\" and \\ slash", "tab\tnew\nline", "ünïcødé ☃", "\u{1}ctl"]))
        case "Boolean":
            if misfit { return pick([.int(0), .int(2), .string("true"), .float(0.5), .list([true])]) }
            return .bool(chance(50))
        case "ID":
            if misfit { return pick([.float(1.5), .bool(true), ["id": 1], .list(["a"])]) }
            return chance(50) ? .int(int(1000)) : .string("id-\(int(1000))")
        default:
            return pick([.string("2026-11-22T10:00:00Z"), .int(42), .float(0.1), ["k": .list([1, "two"])], .bool(false)])
        }
    }

    // MARK: - Variables

    mutating func variables(for operation: OperationDefinition) -> GraphQLObject {
        var result = GraphQLObject()
        for definition in operation.variableDefinitions {
            guard let type = schema.type(of: definition.type) else { continue }
            if chance(6) { continue }  // not provided
            result[definition.variable.name.value] = chance(6) ? wrongInput(type) : input(type, depth: 0)
        }
        return result
    }

    private mutating func input(_ type: GraphQLType, depth: Int) -> GraphQLValue {
        switch type {
        case .nonNull(let inner):
            return input(inner, depth: depth)
        case .list(let item):
            if chance(25) { return input(item, depth: depth + 1) }
            return .list((0..<int(3)).map { _ in input(item, depth: depth + 1) })
        case .named(let id):
            let named = schema[id]
            switch named.kind {
            case .enumeration: return .string(pick(named.enumValues).name)
            case .inputObject:
                var fields = GraphQLObject()
                if named.isOneOf {
                    let field = pick(named.inputFields)
                    fields[field.name] = input(field.type.nullable, depth: depth + 1)
                    if fields[field.name] == .null { fields[field.name] = "x" }
                    return .object(fields)
                }
                for field in named.inputFields where field.isRequired || (depth < 3 && chance(40)) {
                    fields[field.name] = input(field.type, depth: depth + 1)
                }
                if chance(4) { fields["bogus"] = 1 }
                return .object(fields)
            default:
                switch named.name {
                case "Int": return .int(int(100))
                case "Float": return .float(2.5)
                case "String": return .string("s\(int(10))")
                case "Boolean": return .bool(chance(50))
                case "ID": return chance(50) ? .int(7) : .string("id")
                default: return .string("custom")
                }
            }
        }
    }

    private mutating func wrongInput(_ type: GraphQLType) -> GraphQLValue {
        switch schema[type.namedType].kind {
        case .enumeration: return pick([.string("NOPE"), .int(3)])
        case .inputObject: return pick([.int(5), .string("obj"), .list([.int(1)])])
        default: return pick([.null, .object(["a": 1]), .float(1.5), .string("str"), .bool(true), .float(1e21), .list([.list([1])])])
        }
    }
}
