/// Generates GraphQL documents for the differential test from a fixed seed: valid documents
/// built from the grammar (executable and type system), with varied ignored tokens between
/// their tokens, and broken variants of them (a token dropped, doubled, replaced; a bad
/// character inserted; the text cut short). Same seed, same documents.
struct DocumentGenerator: SeededRandom {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    /// Draws even for a bound of 1 (the documents were generated this way from the start).
    mutating func int(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    // MARK: - Tokens

    private let names = ["id", "name", "user", "node", "friends", "edges", "first", "after", "on", "type", "query",
                         "fragment", "uni", "a", "_x", "__typename", "input", "true_", "null2", "extend", "schema"]
    private let typeNames = ["User", "Node", "Query", "Mutation", "String", "Int", "Boolean", "ID", "Float", "Episode"]

    mutating func name() -> String { pick(names) }

    mutating func stringLiteral() -> String {
        pick([
            "\"\"", "\"plain\"", "\"with \\\"quotes\\\" and \\\\ slash\"", "\"tab\\tnew\\nline\"", "\"\\u00e9t\\u00E9\"",
            "\"\\u{1F600} emoji\"", "\"\\uD83D\\uDE00 pair\"", "\"ünïcödé ✓ 😀\"", "\"\\b\\f\\r\\/\"", "\"\\u0007 bell\"",
            "\"\\u{0}\"", "\"x\\u{10FFFF}\"",
        ])
    }

    mutating func blockString() -> String {
        pick([
            "\"\"\"block\"\"\"", "\"\"\"\n  indented\n    more\n  back\n\"\"\"", "\"\"\"  leading space\"\"\"",
            "\"\"\"with \\\"\"\" escaped\"\"\"", "\"\"\"\n\n  blank lines around\n\n\"\"\"", "\"\"\"ends with quote\"\"\"\"",
            "\"\"\"\ttab\n\tindent\"\"\"", "\"\"\"a\r\n  b\r  c\"\"\"", "\"\"\"\"\"\"",
            "\"\"\"" + String(repeating: "long words ", count: 8) + "\"\"\"", "\"\"\"ends with slash \\\"\"\"",
        ])
    }

    mutating func value(depth: Int, constant: Bool) -> [String] {
        let roll = int(depth > 2 ? 9 : 12)
        switch roll {
        case 0: return [pick(["0", "-1", "42", "123456789012", "-0"])]
        case 1: return [pick(["1.5", "-0.0", "1e10", "6.02E+23", "1.0e-3", "0.5"])]
        case 2: return [stringLiteral()]
        case 3: return [blockString()]
        case 4: return [pick(["true", "false"])]
        case 5: return ["null"]
        case 6: return [pick(["RED", "GREEN", "on", "BLUE_1"])]
        case 7, 8: return constant ? [pick(["7", "\"c\""])] : ["$", name()]
        case 9:
            var tokens = ["["]
            for _ in 0..<int(4) { tokens += value(depth: depth + 1, constant: constant) }
            return tokens + ["]"]
        default:
            var tokens = ["{"]
            for _ in 0..<int(4) { tokens += [name(), ":"] + value(depth: depth + 1, constant: constant) }
            return tokens + ["}"]
        }
    }

    mutating func typeReference(depth: Int = 0) -> [String] {
        var tokens: [String]
        if depth < 3 && chance(30) {
            tokens = ["["] + typeReference(depth: depth + 1) + ["]"]
        } else {
            tokens = [pick(typeNames)]
        }
        if chance(40) { tokens.append("!") }
        return tokens
    }

    mutating func arguments(constant: Bool) -> [String] {
        guard chance(45) else { return [] }
        var tokens = ["("]
        for _ in 0...int(3) { tokens += [name(), ":"] + value(depth: 0, constant: constant) }
        return tokens + [")"]
    }

    mutating func directives(constant: Bool) -> [String] {
        var tokens: [String] = []
        for _ in 0..<(chance(30) ? 1 + int(2) : 0) {
            tokens += ["@", pick(["include", "skip", "deprecated", "custom", "on"])] + arguments(constant: constant)
        }
        return tokens
    }

    mutating func selectionSet(depth: Int) -> [String] {
        var tokens = ["{"]
        for _ in 0...int(3) {
            switch int(depth > 3 ? 6 : 10) {
            case 0:
                tokens += ["...", pick(["Frag", "other", "UserFields"])] + directives(constant: false)
            case 1:
                tokens += ["..."] + (chance(70) ? ["on", pick(typeNames)] : []) + directives(constant: false)
                    + selectionSet(depth: depth + 1)
            default:
                if chance(25) { tokens += [name(), ":"] }
                tokens += [name()] + arguments(constant: false) + directives(constant: false)
                if depth < 5 && chance(35) { tokens += selectionSet(depth: depth + 1) }
            }
        }
        return tokens + ["}"]
    }

    mutating func executableDefinition() -> [String] {
        switch int(5) {
        case 0:
            return selectionSet(depth: 0)
        case 1:
            return ["fragment", pick(["Frag", "UserFields", "f"]), "on", pick(typeNames)] + directives(constant: false)
                + selectionSet(depth: 0)
        default:
            var tokens = [pick(["query", "mutation", "subscription"])]
            if chance(70) { tokens.append(pick(["Q", "GetUser", "op_1", "query"])) }
            if chance(50) {
                tokens.append("(")
                for _ in 0...int(2) {
                    tokens += ["$", name(), ":"] + typeReference()
                    if chance(40) { tokens += ["="] + value(depth: 0, constant: true) }
                    tokens += directives(constant: true)
                }
                tokens.append(")")
            }
            return tokens + directives(constant: false) + selectionSet(depth: 0)
        }
    }

    mutating func description() -> [String] {
        chance(35) ? [chance(50) ? stringLiteral() : blockString()] : []
    }

    mutating func fieldDefinitions(input: Bool) -> [String] {
        var tokens = ["{"]
        for _ in 0...int(4) {
            tokens += description() + [name()]
            if !input && chance(40) {
                tokens.append("(")
                for _ in 0...int(2) {
                    tokens += description() + [name(), ":"] + typeReference()
                    if chance(30) { tokens += ["="] + value(depth: 0, constant: true) }
                    tokens += directives(constant: true)
                }
                tokens.append(")")
            }
            tokens += [":"] + typeReference()
            if input && chance(30) { tokens += ["="] + value(depth: 0, constant: true) }
            tokens += directives(constant: true)
        }
        return tokens + ["}"]
    }

    mutating func implementsClause() -> [String] {
        guard chance(50) else { return [] }
        var tokens = ["implements"] + (chance(20) ? ["&"] : []) + [pick(typeNames)]
        for _ in 0..<int(3) { tokens += ["&", pick(typeNames)] }
        return tokens
    }

    mutating func typeSystemDefinition() -> [String] {
        switch int(12) {
        case 0:
            return description() + ["schema"] + directives(constant: true) + ["{", "query", ":", "Query"]
                + (chance(50) ? ["mutation", ":", "Mutation"] : []) + ["}"]
        case 1:
            return description() + ["scalar", pick(typeNames)] + directives(constant: true)
        case 2, 3:
            return description() + ["type", pick(typeNames)] + implementsClause() + directives(constant: true)
                + (chance(85) ? fieldDefinitions(input: false) : [])
        case 4:
            return description() + ["interface", pick(typeNames)] + implementsClause() + directives(constant: true)
                + fieldDefinitions(input: false)
        case 5:
            var tokens = description() + ["union", "SearchResult"] + directives(constant: true) + ["="]
            if chance(30) { tokens.append("|") }
            tokens.append(pick(typeNames))
            for _ in 0..<int(3) { tokens += ["|", pick(typeNames)] }
            return tokens
        case 6:
            var tokens = description() + ["enum", "Episode"] + directives(constant: true) + ["{"]
            for _ in 0...int(3) {
                tokens += description() + [pick(["NEWHOPE", "EMPIRE", "JEDI", "on", "type"])] + directives(constant: true)
            }
            return tokens + ["}"]
        case 7:
            return description() + ["input", "UserInput"] + directives(constant: true) + fieldDefinitions(input: true)
        case 8:
            var tokens = description() + ["directive", "@", pick(["custom", "cache", "auth"])]
            if chance(50) { tokens += ["(", name(), ":"] + typeReference() + [")"] }
            if chance(40) { tokens.append("repeatable") }
            tokens += ["on"] + (chance(20) ? ["|"] : [])
            let locations = DirectiveLocationNames.all
            tokens.append(pick(locations))
            for _ in 0..<int(3) { tokens += ["|", pick(locations)] }
            return tokens
        default:
            switch int(7) {
            case 0: return ["extend", "schema"] + ["@", "ext"] + (chance(50) ? ["{", "subscription", ":", "S", "}"] : [])
            case 1: return ["extend", "scalar", "Date", "@", "specifiedBy", "(", "url", ":", "\"https://x\"", ")"]
            case 2: return ["extend", "type", pick(typeNames)] + implementsClause() + fieldDefinitions(input: false)
            case 3: return ["extend", "interface", "Node"] + ["@", "key"] + fieldDefinitions(input: false)
            case 4: return ["extend", "union", "SearchResult", "=", "User", "|", "Node"]
            case 5: return ["extend", "enum", "Episode", "{", "FORCE", "}"]
            default: return ["extend", "input", "UserInput", "@", "oneOf"] + (chance(50) ? fieldDefinitions(input: true) : [])
            }
        }
    }

    /// Joins tokens with varied ignored tokens: spaces, newlines (all three kinds), tabs,
    /// commas, comments; names and numbers always keep a separator.
    mutating func render(_ tokens: [String]) -> String {
        var output = ""
        for token in tokens {
            if !output.isEmpty {
                switch int(14) {
                case 0: output += "\n"
                case 1: output += ", "
                case 2: output += "\t"
                case 3: output += " # a comment ✓\n"
                case 4: output += "\r\n  "
                case 5: output += "\r"
                case 6: output += ","
                default: output += " "
                }
            }
            output += token
        }
        return output
    }

    /// A valid document of one to three definitions.
    mutating func validDocument(typeSystem: Bool) -> [String] {
        var tokens: [String] = []
        for _ in 0...int(2) {
            tokens += typeSystem ? typeSystemDefinition() : executableDefinition()
        }
        return tokens
    }

    /// A document broken in one place (it may by chance still be valid).
    mutating func brokenDocument(from tokens: [String]) -> String {
        var tokens = tokens
        let index = int(tokens.count)
        switch int(8) {
        case 0:
            tokens.remove(at: index)
        case 1:
            tokens.insert(tokens[index], at: index)
        case 2:
            tokens[index] = pick(["{", "}", "(", ")", ":", "=", "@", "$", "[", "]", "|", "&", "!", "...", "0", "\"s\""])
        case 3:
            tokens.insert(
                pick(["?", "'single'", "\u{7}", "é", "..", ".", "00", "1.", "1e", "-", "0x1", "1.2.3", "\u{FEFF}", "~", "1_000",
                      "\"unterminated", "\"\\x\"", "\"\\u12\"", "\"\\uD800\"", "\"\\u{110000}\"", "\"\\u{}\"", "\"\"\"open",
                      "\"a\nb\"", "%", "\\", "`", "😀", "\u{2028}"]),
                at: index)
        case 4:
            tokens.insert(pick(["\"desc\"", "\"\"\"doc\"\"\""]), at: index)
        case 5:
            tokens.insert(pick(["extend", "on", "true", "null", "fragment", "query", "type", "schema", "directive"]), at: index)
        case 6:
            let rendered = render(tokens)
            let characters = Array(rendered)
            return String(characters.prefix(int(max(characters.count, 1))))
        default:
            tokens.insert(pick(["$x", "@", "implements", "repeatable", "&", "|", "="]), at: index)
        }
        return render(tokens)
    }
}

enum DirectiveLocationNames {
    static let all = [
        "QUERY", "MUTATION", "SUBSCRIPTION", "FIELD", "FRAGMENT_DEFINITION", "FRAGMENT_SPREAD", "INLINE_FRAGMENT",
        "VARIABLE_DEFINITION", "SCHEMA", "SCALAR", "OBJECT", "FIELD_DEFINITION", "ARGUMENT_DEFINITION", "INTERFACE",
        "UNION", "ENUM", "ENUM_VALUE", "INPUT_OBJECT", "INPUT_FIELD_DEFINITION",
    ]
}
