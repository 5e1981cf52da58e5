@testable import GraphQLEngine

/// Seeded type-system definitions to put into executable documents (schema and type definitions
/// and extensions, directive definitions) carrying directives: known, unknown, misplaced,
/// repeated, with unknown, missing, duplicate or wrongly typed arguments, and type references
/// that exist, are built in, are defined by the document or are misspelled. graphql-js reports
/// each definition as not executable and checks all of this too.
struct TypeSystemDefinitionGenerator: SeededRandom {
    let schema: GraphQLSchema
    var state: UInt64
    private var definedTypes: [String] = []
    private var count = 0

    init(schema: GraphQLSchema, seed: UInt64) {
        self.schema = schema
        self.state = seed
    }

    /// One to three definitions, sometimes with a directive definition the others then use.
    mutating func definitions() -> [String] {
        definedTypes = []
        var result: [String] = []
        if chance(35) { result.append(directiveDefinition()) }
        for _ in 0..<(1 + int(3)) {
            switch int(8) {
            case 0: result.append("schema\(directives(.schema)) { query: \(typeReference(named: true)) }")
            case 1: result.append("extend schema\(directives(.schema))")
            case 2: result.append(objectType(keyword: chance(70) ? "type" : "interface"))
            case 3: result.append(extendExisting())
            case 4:
                let name = newTypeName("S")
                result.append("scalar \(name)\(directives(.scalar))")
            case 5:
                let name = newTypeName("U")
                result.append("union \(name)\(directives(.union)) = \(typeReference(named: true)) | \(typeReference(named: true))")
            case 6:
                let name = newTypeName("E")
                result.append("enum \(name)\(directives(.enumeration)) { A\(directives(.enumValue)) B }")
            default:
                let name = newTypeName("In")
                result.append("input \(name)\(directives(.inputObject)) { \(inputValue(location: .inputFieldDefinition)) }")
            }
        }
        return result
    }

    private mutating func newTypeName(_ prefix: String) -> String {
        count += 1
        let name = "\(prefix)\(count)"
        definedTypes.append(name)
        return name
    }

    private mutating func directiveDefinition() -> String {
        let repeatable = chance(40) ? " repeatable" : ""
        return "directive @local(a: Int!, b: String = \"x\"\(chance(20) ? " @deprecated" : ""))\(repeatable) on OBJECT | FIELD_DEFINITION | ENUM_VALUE | SCHEMA"
    }

    private mutating func objectType(keyword: String) -> String {
        let name = newTypeName(keyword == "type" ? "T" : "I")
        let implements = chance(30) ? " implements \(typeReference(named: true))" : ""
        let location: DirectiveLocation = keyword == "type" ? .object : .interface
        return "\(keyword) \(name)\(implements)\(directives(location)) { \(fieldDefinition()) \(fieldDefinition()) }"
    }

    private mutating func extendExisting() -> String {
        let candidates = schema.types.filter { !$0.name.hasPrefix("__") && $0.kind != .scalar }
        let type = pick(candidates)
        switch type.kind {
        case .object: return "extend type \(type.name)\(directives(.object)) { extra\(int(9)): \(typeReference(named: false)) }"
        case .interface: return "extend interface \(type.name)\(directives(.interface))"
        case .union: return "extend union \(type.name)\(directives(.union))"
        case .enumeration: return "extend enum \(type.name)\(directives(.enumeration)) { EXTRA\(directives(.enumValue)) }"
        default: return "extend input \(type.name)\(directives(.inputObject)) { \(inputValue(location: .inputFieldDefinition)) }"
        }
    }

    private mutating func fieldDefinition() -> String {
        let arguments = chance(40) ? "(\(inputValue(location: .argumentDefinition)))" : ""
        return "f\(int(5))\(arguments): \(typeReference(named: false))\(directives(.fieldDefinition))"
    }

    private mutating func inputValue(location: DirectiveLocation) -> String {
        let defaultValue = chance(40) ? " = " + pick(["1", "\"s\"", "{x: 1, x: 2}", "{a: {b: 1, b: 2}}", "[1, 2]", "null", "RED"]) : ""
        return "v\(int(5)): \(typeReference(named: false))\(defaultValue)\(directives(location))"
    }

    /// A type name: the schema's, built in, this document's, or misspelled; wrapped sometimes.
    private mutating func typeReference(named: Bool) -> String {
        var options = schema.types.filter { !$0.name.hasPrefix("__") }.map(\.name)
        options += ["String", "Int", "Float", "ID", "Boolean", "__Type"]
        options += definedTypes
        var name = pick(options)
        if chance(12) { name = pick(["Strin", "Missing", "Quer", "Ids", "\(name)x"]) }
        if named { return name }
        switch int(4) {
        case 0: return "[\(name)]"
        case 1: return "\(name)!"
        default: return name
        }
    }

    /// Zero to three directives for a node at `location`: right ones, wrong ones, repeats.
    private mutating func directives(_ location: DirectiveLocation) -> String {
        guard chance(75) else { return "" }
        var result: [String] = []
        for _ in 0..<(1 + int(3)) { result.append(directive(location)) }
        if chance(15), let first = result.first { result.append(first) }
        return " " + result.joined(separator: " ")
    }

    private mutating func directive(_ location: DirectiveLocation) -> String {
        let known = schema.directives.filter { $0.name != "oneOf" }
        let fitting = known.filter { $0.locations.contains(location) }.map(\.name)
        let name: String
        if !fitting.isEmpty && chance(40) {
            name = pick(fitting)
        } else {
            name = chance(50) ? pick(["deprecated", "specifiedBy", "local", "local"]) : pick(known.map(\.name) + ["unknownDirective", "deprecate"])
        }
        var arguments: [String] = []
        switch name {
        case "deprecated": if chance(60) { arguments.append("reason: \(pick(["\"old\"", "1", "null", "OLD"]))") }
        case "specifiedBy": if chance(80) { arguments.append("url: \(pick(["\"https://example.com\"", "5", "null"]))") }
        case "local":
            if chance(80) { arguments.append("a: \(pick(["1", "\"one\"", "null", "[1]"]))") }
            if chance(30) { arguments.append("b: \(pick(["\"y\"", "2", "{z: 1, z: 2}"]))") }
        case "cached": if chance(70) { arguments.append("ttl: \(pick(["5", "\"x\""]))") }
        case "tag": arguments.append("name: \"t\"")
        case "skip", "include": if chance(70) { arguments.append("if: true") }
        default: break
        }
        if chance(10) { arguments.append("unknownArg: 1") }
        if chance(8), let first = arguments.first { arguments.append(first) }
        return "@\(name)" + (arguments.isEmpty ? "" : "(" + arguments.joined(separator: ", ") + ")")
    }
}
