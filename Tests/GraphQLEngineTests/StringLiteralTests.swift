import Testing

@testable import GraphQLEngine

@Suite("String literals and escapes")
struct StringLiteralTests {
    @Test("escapes are cooked")
    func escapes() throws {
        #expect(try stringValue(#""\" \\ \/ \b \f \n \r \t""#) == "\" \\ / \u{8} \u{C} \n \r \t")
        #expect(try stringValue(#""\u00e9\u00C9""#) == "éÉ")
        #expect(try stringValue(#""\u{1F600}\u{0}\u{10FFFF}""#) == "😀\u{0}\u{10FFFF}")
        #expect(try stringValue(#""\u{00000041}""#) == "A")
        #expect(try stringValue(#""\uD83D\uDE00""#) == "😀")
        #expect(try stringValue(#""""#) == "")
        #expect(try stringValue("\"tab\there ünï 😀\"") == "tab\there ünï 😀")
    }

    @Test("bad escapes and unterminated strings are errors at the right place", arguments: [
        (#"{ a(x: "\x") }"#, #"Syntax Error: Invalid character escape sequence: "\x". @ 1:9"#),
        (#"{ a(x: "\é") }"#, #"Syntax Error: Invalid character escape sequence: "\é". @ 1:9"#),
        (#"{ a(x: "\u12") }"#, #"Syntax Error: Invalid Unicode escape sequence: "\u12")". @ 1:9"#),
        (#"{ a(x: "\u12G4") }"#, #"Syntax Error: Invalid Unicode escape sequence: "\u12G4". @ 1:9"#),
        (#"{ a(x: "\uD83D") }"#, #"Syntax Error: Invalid Unicode escape sequence: "\uD83D". @ 1:9"#),
        (#"{ a(x: "\uD83D\u0041") }"#, #"Syntax Error: Invalid Unicode escape sequence: "\uD83D". @ 1:9"#),
        (#"{ a(x: "\uDE00") }"#, #"Syntax Error: Invalid Unicode escape sequence: "\uDE00". @ 1:9"#),
        (#"{ a(x: "\u{}") }"#, #"Syntax Error: Invalid Unicode escape sequence: "\u{}". @ 1:9"#),
        (#"{ a(x: "\u{110000}") }"#, #"Syntax Error: Invalid Unicode escape sequence: "\u{110000}". @ 1:9"#),
        (#"{ a(x: "\u{D800}") }"#, #"Syntax Error: Invalid Unicode escape sequence: "\u{D800}". @ 1:9"#),
        (#"{ a(x: "\u{G}") }"#, #"Syntax Error: Invalid Unicode escape sequence: "\u{G". @ 1:9"#),
        (#"{ a(x: "\u{000000041}") }"#, #"Syntax Error: Invalid Unicode escape sequence: "\u{000000041". @ 1:9"#),
        (#"{ a(x: "\u{80000000}") }"#, #"Syntax Error: Invalid Unicode escape sequence: "\u{80000000". @ 1:9"#),
        (#"{ a(x: "open) }"#, "Syntax Error: Unterminated string. @ 1:16"),
        ("{ a(x: \"line\nbreak\") }", "Syntax Error: Unterminated string. @ 1:13"),
        (#"{ a(x: """open) }"#, "Syntax Error: Unterminated string. @ 1:18"),
    ])
    func errors(text: String, expected: String) {
        #expect(syntaxError(text) == expected)
    }

    @Test("block strings: raw text, only \\\"\"\" escaped, common indentation removed")
    func blockStrings() throws {
        #expect(try stringValue("\"\"\"\n    first\n      second\n    third\n  \"\"\"") == "first\n  second\nthird")
        #expect(try stringValue("\"\"\"first line\n   indented\n      more\"\"\"") == "first line\nindented\n   more")
        #expect(try stringValue(#""""a \""" b \n \u0041""""#) == #"a """ b \n \u0041"#)
        #expect(try stringValue("\"\"\"  \n\n  x\n  \n \"\"\"") == "x")
        #expect(try stringValue("\"\"\"a\r\n  b\r  c\"\"\"") == "a\nb\nc")
        #expect(try stringValue("\"\"\"\t\ttabs\n\t\tand\n\t\t\tmore\"\"\"") == "\t\ttabs\nand\n\tmore")
        #expect(try stringValue("\"\"\"\n\n\"\"\"") == "")
        #expect(try stringValue("\"\"\"\"\"\"") == "")
    }

    @Test("block strings as scanned agree with BlockStringValue() on their lines, for every layout of up to three lines")
    func blockStringLayouts() throws {
        // Escaped triple quotes are unescaped before the dedent (they change no indentation).
        let pieces = ["", "  ", "\t", "    a", "  b c", "x", "  é😀", " \t y", #"  q \""" r"#]
        let terminators = ["\n", "\r\n", "\r"]
        var layouts: [[String]] = pieces.map { [$0] }
        for _ in 0..<2 { layouts += layouts.filter { $0.count == layouts.last?.count }.flatMap { lines in pieces.map { lines + [$0] } } }
        #expect(layouts.count == 9 + 81 + 729)
        for (number, lines) in layouts.enumerated() {
            let terminator = terminators[number % terminators.count]
            let text = "\"\"\"" + lines.joined(separator: terminator) + "\"\"\""
            let unescaped = lines.map { $0.replacingAll(#"\""""#, with: #"""""#) }
            #expect(try stringValue(text) == BlockString.dedent(lines: unescaped), "\(lines)")
        }
    }

    @Test("a value that is its source's bytes as they stand is the same node as one cooked: value, kind, equality, hash")
    func borrowedValues() throws {
        let text = "type T {\n  \"\"\"\n  One line, é 😀.\n  \"\"\"\n  a: Int\n  \"plain\" b: Int\n  \"\"\"\n  two\n    lines\n  \"\"\"\n  c: Int\n}"
        let document = try Parser.parse(text, options: .trusted)
        guard case .type(.object(let type)) = document.definitions.first else {
            Issue.record("expected an object type")
            return
        }
        let descriptions = type.fields.map(\.description)
        #expect(descriptions.map { $0?.value } == ["One line, é 😀.", "plain", "two\n  lines"])
        #expect(descriptions.map { $0?.block } == [true, false, true])
        for case let description? in descriptions {
            let cooked = StringValue(value: description.value, block: description.block, range: description.range)
            #expect(description == cooked)
            #expect(description.hashValue == cooked.hashValue)
            var renamed = description
            renamed.value = "changed"
            #expect(renamed.value == "changed" && renamed.block == description.block && renamed != description)
            var flipped = description
            flipped.block.toggle()
            #expect(flipped.value == description.value && flipped.block != description.block && flipped != description)
        }
    }

    @Test("BlockStringValue() on raw lines")
    func dedentLines() {
        #expect(BlockString.dedent(lines: ["", "  Hello,", "    World!", "", "  Yours,", "    GraphQL.", ""]) == "Hello,\n  World!\n\nYours,\n  GraphQL.")
        #expect(BlockString.dedent(lines: ["  first", "  second"]) == "  first\nsecond")
        #expect(BlockString.dedent(lines: ["   ", "  ", " "]) == "")
        #expect(BlockString.dedent(lines: ["", "    a", "  b", ""]) == "  a\nb")
    }

    @Test("printing block strings as graphql-js does", arguments: [
        ("", #""""""""#),
        ("short", #""""short""""#),
        ("  leading space", #""""  leading space""""#),
        ("two\nlines", "\"\"\"\ntwo\nlines\n\"\"\""),
        ("ends with \"", "\"\"\"\nends with \"\n\"\"\""),
        ("ends with \\", "\"\"\"\nends with \\\n\"\"\""),
        ("has \"\"\" inside", "\"\"\"has \\\"\"\" inside\"\"\""),
        ("first\n  indented rest", "\"\"\"\nfirst\n  indented rest\n\"\"\""),
        (String(repeating: "x", count: 71), "\"\"\"\n" + String(repeating: "x", count: 71) + "\n\"\"\""),
    ])
    func printBlockString(value: String, expected: String) {
        #expect(BlockString.print(value) == expected)
    }

    @Test("printing strings escapes quotes, backslashes and control characters")
    func printString() {
        #expect(Printer.printString("a\"b\\c") == #""a\"b\\c""#)
        #expect(Printer.printString("\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1F}") == #""\b\t\n\u000B\f\r\u001F""#)
        #expect(Printer.printString("\u{7F}\u{9F}\u{A0}é😀") == "\"\\u007F\\u009F\u{A0}é😀\"")
    }
}
