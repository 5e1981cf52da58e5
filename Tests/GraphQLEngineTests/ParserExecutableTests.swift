import Testing

@testable import GraphQLEngine

@Suite("Parser: executable documents")
struct ParserExecutableTests {
    @Test("operations with variables, defaults, directives and every kind of selection")
    func operation() throws {
        let text = """
            query Q($id: ID!, $n: [Int!] = [1, 2] @var, $o: In = {a: {b: null}}) @op(x: 1) {
              user: node(id: $id) @include(if: true) {
                ...F @spread
                ... on User @inline { name }
                ... @skip(if: false) { id }
                ... { id }
              }
            }
            """
        let document = try parsed(text)
        guard case .operation(let operation) = try #require(document.definitions.first) else {
            Issue.record("not an operation")
            return
        }
        #expect(operation.operation == .query)
        #expect(operation.name?.value == "Q")
        #expect(operation.variableDefinitions.map(\.variable.name.value) == ["id", "n", "o"])
        #expect(Printer.print(operation.variableDefinitions[0].type) == "ID!")
        #expect(Printer.print(operation.variableDefinitions[1].type) == "[Int!]")
        #expect(operation.variableDefinitions[1].defaultValue.map(Printer.print) == "[1, 2]")
        #expect(operation.variableDefinitions[1].directives.map(\.name.value) == ["var"])
        #expect(operation.variableDefinitions[2].defaultValue.map(Printer.print) == "{a: {b: null}}")
        #expect(operation.directives.map(\.name.value) == ["op"])

        guard case .field(let field) = try #require(operation.selectionSet.selections.first) else {
            Issue.record("not a field")
            return
        }
        #expect(field.alias?.value == "user")
        #expect(field.name.value == "node")
        #expect(field.responseKey == "user")
        #expect(field.arguments.map(\.name.value) == ["id"])
        guard case .variable(let variable) = field.arguments[0].value else {
            Issue.record("not a variable")
            return
        }
        #expect(variable.name.value == "id")
        #expect(field.directives.first?.name.value == "include")
        let selections = try #require(field.selectionSet?.selections)
        #expect(selections.count == 4)
        if case .fragmentSpread(let spread) = selections[0] {
            #expect(spread.name.value == "F")
            #expect(spread.directives.map(\.name.value) == ["spread"])
        } else {
            Issue.record("first selection is not a spread")
        }
        if case .inlineFragment(let inline) = selections[1] {
            #expect(inline.typeCondition?.name.value == "User")
            #expect(inline.directives.map(\.name.value) == ["inline"])
        } else {
            Issue.record("second selection is not an inline fragment")
        }
        if case .inlineFragment(let inline) = selections[2] {
            #expect(inline.typeCondition == nil)
            #expect(inline.directives.map(\.name.value) == ["skip"])
        } else {
            Issue.record("third selection is not an inline fragment")
        }
        if case .inlineFragment(let inline) = selections[3] {
            #expect(inline.typeCondition == nil && inline.directives.isEmpty)
        } else {
            Issue.record("fourth selection is not an inline fragment")
        }
    }

    @Test("a selection set's selections stay together and in order whatever their own sets hold")
    func nestedSelectionSets() throws {
        let text = """
            { a { b { c d(x: 1) { e } f } g(y: 2, z: 3) } h ... on T { i { j } k } l: m(w: 4) fragment_ }
            fragment F on T { n { o } ...G p }
            """
        let document = try parsed(text)
        /// Each set as "name(arguments){children}", read back through the views.
        func shape(_ selections: Selections) -> String {
            selections.map { selection -> String in
                switch selection {
                case .field(let field):
                    let arguments = field.arguments.isEmpty ? "" : "(" + field.arguments.map(\.name.value).joined(separator: ",") + ")"
                    let key = field.alias.map { $0.value + ":" } ?? ""
                    return key + field.name.value + arguments + (field.selectionSet.map { "{" + shape($0.selections) + "}" } ?? "")
                case .fragmentSpread(let spread):
                    return "..." + spread.name.value
                case .inlineFragment(let inline):
                    return "...on " + (inline.typeCondition?.name.value ?? "") + "{" + shape(inline.selectionSet.selections) + "}"
                }
            }.joined(separator: " ")
        }
        guard case .operation(let operation) = document.definitions[0], case .fragment(let fragment) = document.definitions[1] else {
            Issue.record("not an operation and a fragment")
            return
        }
        #expect(shape(operation.selectionSet.selections) == "a{b{c d(x){e} f} g(y,z)} h ...on T{i{j} k} l:m(w) fragment_")
        #expect(shape(fragment.selectionSet.selections) == "n{o} ...G p")
        #expect(operation.selectionSet.selections.count == 5)
        #expect(operation.selectionSet.selections.map(\.range.start) == [2, 46, 48, 71, 82])
    }

    @Test("node ranges cover their text, descriptions included")
    func ranges() throws {
        let text = "\"d\" query Q { a(x: [1]) }"
        let document = try parsed(text)
        guard case .operation(let operation) = document.definitions[0],
            case .field(let field) = operation.selectionSet.selections[0]
        else {
            Issue.record("unexpected shape")
            return
        }
        let bytes = Array(text.utf8)
        func slice(_ range: SourceRange) -> String { String(decoding: bytes[range.start..<range.end], as: UTF8.self) }
        #expect(slice(operation.range) == text)
        #expect(slice(field.range) == "a(x: [1])")
        #expect(slice(field.arguments[0].value.range) == "[1]")
        #expect(slice(operation.selectionSet.range) == "{ a(x: [1]) }")
        #expect(document.source.location(ofByte: field.range.start) == GraphQLEngine.SourceLocation(line: 1, column: 15))
    }

    @Test("shorthand query, mutation, subscription and fragment definitions")
    func definitions() throws {
        let document = try parsed("{ a } mutation { b } subscription S { c } fragment F on T @d { e }")
        #expect(document.definitions.count == 4)
        guard case .operation(let shorthand) = document.definitions[0],
            case .operation(let mutation) = document.definitions[1],
            case .operation(let subscription) = document.definitions[2],
            case .fragment(let fragment) = document.definitions[3]
        else {
            Issue.record("unexpected definitions")
            return
        }
        #expect(shorthand.operation == .query && shorthand.name == nil)
        #expect(mutation.operation == .mutation && mutation.name == nil)
        #expect(subscription.operation == .subscription && subscription.name?.value == "S")
        #expect(fragment.name.value == "F" && fragment.typeCondition.name.value == "T")
        #expect(fragment.directives.map(\.name.value) == ["d"])
    }

    @Test("every kind of value literal")
    func values() throws {
        let document = try parsed(#"{ a(i: -12, f: 1.5e3, s: "x", b: """y""", t: true, n: null, e: RED, l: [], o: {k: $v}) }"#)
        guard case .operation(let operation) = document.definitions[0],
            case .field(let field) = operation.selectionSet.selections[0]
        else {
            Issue.record("unexpected shape")
            return
        }
        let values = field.arguments.map(\.value)
        guard case .int(let int) = values[0], case .float(let float) = values[1], case .string(let string) = values[2],
            case .string(let block) = values[3], case .boolean(let boolean) = values[4], case .null = values[5],
            case .enumValue(let enumValue) = values[6], case .list(let list) = values[7],
            case .object(let object) = values[8]
        else {
            Issue.record("values of the wrong kinds")
            return
        }
        #expect(int.value == "-12" && float.value == "1.5e3")
        #expect(string.value == "x" && !string.block && block.value == "y" && block.block)
        #expect(boolean.value && enumValue.value == "RED" && list.values.isEmpty)
        #expect(object.fields.map(\.name.value) == ["k"])
        #expect(throws: GraphQLError.self) { try Parser.parseValue(Source("$v"), constant: true) }
        #expect(try Printer.print(Parser.parseValue(Source("[1, {a: $v}]"))) == "[1, {a: $v}]")
        #expect(try Printer.print(Parser.parseType(Source("[[String!]]!"))) == "[[String!]]!")
    }

    @Test("descriptions on operations, fragments and variables (September 2025)")
    func executableDescriptions() throws {
        let document = try parsed(#""op" query Q("the id" $id: ID) { a } """frag""" fragment F on T { b }"#)
        guard case .operation(let operation) = document.definitions[0], case .fragment(let fragment) = document.definitions[1] else {
            Issue.record("unexpected shape")
            return
        }
        #expect(operation.description?.value == "op")
        #expect(operation.variableDefinitions[0].description?.value == "the id")
        #expect(fragment.description?.value == "frag" && fragment.description?.block == true)
        #expect(Printer.print(document) == "\"op\"\nquery Q(\"the id\" $id: ID) {\n  a\n}\n\n\"\"\"frag\"\"\"\nfragment F on T {\n  b\n}")
        // Not on the shorthand form, nor on extensions.
        #expect(syntaxError("\"d\" { a }") == "Syntax Error: Unexpected \"{\". @ 1:5")
        #expect(syntaxError("\"d\" extend type T @k") == "Syntax Error: Unexpected description, descriptions are supported only on type definitions. @ 1:1")
    }

    @Test("syntax errors name what was expected and what was found", arguments: [
        ("", "Syntax Error: Unexpected <EOF>. @ 1:1"),
        ("{", "Syntax Error: Expected Name, found <EOF>. @ 1:2"),
        ("{}", "Syntax Error: Expected Name, found \"}\". @ 1:2"),
        ("{ a(x) }", "Syntax Error: Expected \":\", found \")\". @ 1:6"),
        ("{ a(x: ) }", "Syntax Error: Unexpected \")\". @ 1:8"),
        ("{ a() }", "Syntax Error: Expected Name, found \")\". @ 1:5"),
        ("{ \"s\" }", "Syntax Error: Expected Name, found String \"s\". @ 1:3"),
        ("{ a } b", "Syntax Error: Unexpected Name \"b\". @ 1:7"),
        ("{ a } 12", "Syntax Error: Unexpected Int \"12\". @ 1:7"),
        ("queryx { a }", "Syntax Error: Unexpected Name \"queryx\". @ 1:1"),
        ("query Q() { a }", "Syntax Error: Expected \"$\", found \")\". @ 1:9"),
        ("query Q($a: Int = $b) { a }", "Syntax Error: Unexpected variable \"$b\" in constant value. @ 1:19"),
        ("query Q($a: Int = $) { a }", "Syntax Error: Unexpected \"$\". @ 1:19"),
        ("fragment on on T { a }", "Syntax Error: Unexpected Name \"on\". @ 1:10"),
        ("fragment F T { a }", "Syntax Error: Expected \"on\", found Name \"T\". @ 1:12"),
        ("{ ...on }", "Syntax Error: Expected Name, found \"}\". @ 1:9"),
        ("{ a(x: [1 }) }", "Syntax Error: Unexpected \"}\". @ 1:11"),
        ("{ a(x: {b}) }", "Syntax Error: Expected \":\", found \"}\". @ 1:10"),
        ("{ a(x: \"\"\"b\"\"\" c) }", "Syntax Error: Expected \":\", found \")\". @ 1:17"),
        ("\"d\" foo", "Syntax Error: Unexpected description, descriptions are supported only on type definitions. @ 1:1"),
    ])
    func errors(text: String, expected: String) {
        #expect(syntaxError(text) == expected)
    }
}
