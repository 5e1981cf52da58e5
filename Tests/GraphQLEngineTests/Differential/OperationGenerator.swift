@testable import GraphQLEngine

/// Seeded random operations against a schema, mostly valid with deliberate mistakes mixed in
/// (typos, wrong literals, missing or unknown arguments, conflicting aliases, misplaced
/// fragments and directives, unused or undefined variables, fragment cycles), so that every
/// validation rule is exercised on realistic documents.
struct OperationGenerator: SeededRandom {
    let schema: GraphQLSchema
    var state: UInt64
    private var variables: [(name: String, type: String)] = []
    private var fragments: [String] = []
    private var fragmentCount = 0
    private var size = 0

    init(schema: GraphQLSchema, seed: UInt64) {
        self.schema = schema
        self.state = seed
    }


    /// One document: usually one operation, sometimes two, with the fragments it uses.
    mutating func document() -> String {
        fragments = []
        var operations: [String] = []
        let count = chance(15) ? 2 : 1
        for index in 0..<count { operations.append(operation(index: index, of: count)) }
        if chance(5) {
            // A fragment nobody uses.
            let type = pick(schema.types.filter { $0.kind.isComposite && !$0.name.hasPrefix("__") })
            fragmentCount += 1
            fragments.append("fragment Unused\(fragmentCount) on \(type.name) { __typename }")
        }
        if chance(4) {
            fragmentCount += 1
            fragments.append("fragment Loop\(fragmentCount) on Query { ...Loop\(fragmentCount) }")
        }
        return (operations + fragments).joined(separator: "\n\n")
    }

    mutating func operation(index: Int, of count: Int) -> String {
        variables = []
        size = 0
        var kinds: [(OperationType, TypeID)] = []
        if let query = schema.queryType { kinds += Array(repeating: (.query, query), count: 6) }
        if let mutation = schema.mutationType { kinds.append((.mutation, mutation)) }
        if let subscription = schema.subscriptionType { kinds.append((.subscription, subscription)) }
        let (operation, root) = pick(kinds)
        let body = selectionSet(on: root, depth: 0, maxFields: operation == .subscription ? (chance(70) ? 1 : 2) : 4)
        var definitions = variables.map { "$\($0.name): \($0.type)" }
        if chance(5) { definitions.append("$unused: Int") }
        if chance(3), let first = variables.first { definitions.append("$\(first.name): String") }
        let name: String
        if count > 1 && index == 1 && chance(30) {
            name = ""
        } else if count > 1 && chance(20) {
            name = " Same"
        } else {
            name = chance(85) ? " Op\(index)" : ""
        }
        let variablePart = definitions.isEmpty ? "" : "(" + definitions.joined(separator: ", ") + ")"
        let directive = chance(4) ? pick([" @cached(ttl: 5)", " @skip(if: true)", " @unknownDirective"]) : ""
        if name.isEmpty && variablePart.isEmpty && directive.isEmpty && operation == .query && chance(50) {
            return body
        }
        return "\(operation.rawValue)\(name)\(variablePart)\(directive) \(body)"
    }

    mutating func selectionSet(on typeID: TypeID, depth: Int, maxFields: Int = 4) -> String {
        let type = schema[typeID]
        var selections: [String] = []
        let wanted = 1 + int(maxFields)
        for _ in 0..<wanted {
            size += 1
            if size > 60 { break }
            let roll = int(100)
            if type.kind == .union || roll < 8 {
                selections.append(chance(40) ? "__typename" : inlineFragment(on: typeID, depth: depth))
            } else if roll < 14 && depth < 3 {
                selections.append(fragmentSpread(on: typeID, depth: depth))
            } else if let field = type.fields.isEmpty ? nil : pick(type.fields) {
                selections.append(self.field(field, on: typeID, depth: depth))
                if chance(6) {
                    // The same response name again: identical (fine) or different (a conflict).
                    let other = pick(type.fields)
                    selections.append(self.field(chance(50) ? field : other, on: typeID, depth: depth, alias: field.name))
                }
            } else {
                selections.append("__typename")
            }
        }
        if selections.isEmpty { selections.append("__typename") }
        return "{ " + selections.joined(separator: " ") + " }"
    }

    mutating func inlineFragment(on typeID: TypeID, depth: Int) -> String {
        let candidates = schema.possibleTypes(of: typeID) + schema[typeID].interfaces
        var target = candidates.isEmpty ? typeID : pick(candidates)
        if chance(10) { target = pick(schema.types.filter { $0.kind.isComposite && !$0.name.hasPrefix("__") }).id }
        let condition = chance(15) ? "" : " on \(schema[target].name)"
        let actual = condition.isEmpty ? typeID : target
        let directive = chance(8) ? pick([" @include(if: false)", " @tag(name: \"a\")", " @cached(ttl: 1)"]) : ""
        return "...\(condition)\(directive) " + (depth < 3 ? selectionSet(on: actual, depth: depth + 1, maxFields: 2) : "{ __typename }")
    }

    mutating func fragmentSpread(on typeID: TypeID, depth: Int) -> String {
        fragmentCount += 1
        let name = "F\(fragmentCount)"
        let candidates = [typeID] + schema.possibleTypes(of: typeID) + schema[typeID].interfaces
        var target = pick(candidates)
        if chance(8) { target = pick(schema.types.filter { $0.kind.isComposite && !$0.name.hasPrefix("__") }).id }
        if chance(2) { target = pick(schema.types.filter { $0.kind == .scalar }).id }
        let body = schema[target].kind.isComposite ? selectionSet(on: target, depth: depth + 1, maxFields: 2) : "{ __typename }"
        fragments.append("fragment \(name) on \(schema[target].name) \(body)")
        if chance(3) { return "...Missing\(fragmentCount)" }
        return "...\(name)" + (chance(5) ? " @skip(if: false)" : "")
    }

    mutating func field(_ field: GraphQLField, on typeID: TypeID, depth: Int, alias: String? = nil) -> String {
        var text = alias.map { "\($0): " } ?? (chance(8) ? "a\(int(3)): " : "")
        var name = field.name
        if chance(3) { name = typo(name) }
        text += name
        var arguments: [String] = []
        for argument in field.arguments {
            if argument.isRequired ? chance(94) : chance(30) {
                arguments.append("\(argument.name): \(value(for: argument.type, depth: 0))")
            }
        }
        if chance(3) { arguments.append("\(typo(field.arguments.first?.name ?? "extra")): 1") }
        if chance(2), let first = arguments.first { arguments.append(first) }
        if !arguments.isEmpty { text += "(" + arguments.joined(separator: ", ") + ")" }
        if chance(5) {
            text += pick([
                " @skip(if: \(value(for: .nonNull(.named(schema.typeID(named: "Boolean")!)), depth: 0)))",
                " @include(if: true) @include(if: false)", " @tag(name: \"x\") @tag(name: \"y\")", " @deprecated",
                " @cached(ttl: 1)", " @skip", " @nope",
            ])
        }
        let named = schema[field.type.namedType]
        if named.kind.isComposite {
            if !chance(4) {
                text += " " + (depth < 3 ? selectionSet(on: named.id, depth: depth + 1, maxFields: 3) : "{ __typename }")
            }
        } else if chance(3) {
            text += " { x }"
        }
        return text
    }

    mutating func typo(_ name: String) -> String {
        guard name.count > 2 else { return name + "x" }
        var characters = Array(name)
        switch int(3) {
        case 0: characters.remove(at: int(characters.count))
        case 1: characters.swapAt(0, 1)
        default: characters.append(pick(Array("sxe")))
        }
        return String(characters)
    }

    /// A literal (or variable) for a position of `type`: usually right, sometimes wrong.
    mutating func value(for type: GraphQLType, depth: Int) -> String {
        if depth == 0 && chance(18) { return variable(for: type) }
        switch type {
        case .nonNull(let inner):
            return chance(4) ? "null" : value(for: inner, depth: depth)
        case .list(let inner):
            if chance(30) { return value(for: inner, depth: depth + 1) }
            return "[" + (0..<int(3)).map { _ in value(for: inner, depth: depth + 1) }.joined(separator: ", ") + "]"
        case .named(let id):
            let named = schema[id]
            if chance(6) { return pick(["\"wrong\"", "42", "4.5", "true", "WRONG", "null", "{a: 1}", "[1]"]) }
            switch named.kind {
            case .enumeration:
                let value = pick(named.enumValues).name
                return chance(10) ? typo(value) : value
            case .inputObject:
                guard depth < 3 else { return "{}" }
                var fields: [String] = []
                if named.isOneOf {
                    let chosen = pick(named.inputFields)
                    fields.append("\(chosen.name): \(chance(10) ? "null" : value(for: chosen.type, depth: depth + 1))")
                    if chance(10), let other = named.inputFields.last { fields.append("\(other.name): \(value(for: other.type, depth: depth + 1))") }
                } else {
                    for field in named.inputFields where field.isRequired ? chance(92) : chance(25) {
                        fields.append("\(field.name): \(value(for: field.type, depth: depth + 1))")
                    }
                }
                if chance(4) { fields.append("\(typo(named.inputFields.first?.name ?? "x")): 1") }
                if chance(3), let first = fields.first { fields.append(first) }
                return "{" + fields.joined(separator: ", ") + "}"
            default:
                switch named.name {
                case "Int": return pick(["1", "-7", "0", "2147483648", "\"3\""])
                case "Float": return pick(["1.5", "2", "-0.25e3", "\"x\""])
                case "String": return pick(["\"text\"", "\"\"\"block\"\"\"", "7"])
                case "Boolean": return pick(["true", "false", "0"])
                case "ID": return pick(["\"id1\"", "4", "4.5"])
                default: return pick(["\"2026-11-22T10:00:00Z\"", "\"x\"", "1", "{a: 1}"])
                }
            }
        }
    }

    mutating func variable(for type: GraphQLType) -> String {
        if chance(6) { return "$undefined\(int(3))" }
        let name = "v\(variables.count)"
        var typeText = schema.describe(type)
        if chance(12) { typeText = schema.describe(type.nullable) }
        if chance(5) { typeText = pick(["String", "Int!", "[ID]", "Boolean", "Unknown"]) }
        if chance(8) && !type.isNonNull { typeText += " = " + value(for: type, depth: 1) }
        variables.append((name, typeText))
        return "$" + name
    }
}
