import Testing

@testable import GraphQLEngine

@Suite("Parser limits")
struct ParseLimitsTests {
    @Test("more tokens than allowed fails at the first token over the limit")
    func tokenLimit() {
        // `{ a b c }` is five tokens.
        #expect(syntaxError("{ a b c }", options: ParseOptions(maxTokens: 5)) == nil)
        #expect(
            syntaxError("{ a b c d }", options: ParseOptions(maxTokens: 5))
                == "Syntax Error: Document contains more than 5 tokens. Parsing aborted. @ 1:11")
        // Comments and ignored tokens do not count.
        #expect(syntaxError("# many words here\n{ a,,, b c }", options: ParseOptions(maxTokens: 5)) == nil)
    }

    @Test("the request default is 10 000 tokens")
    func defaultTokenLimit() {
        let fields = String(repeating: "a ", count: 9_998)
        #expect(syntaxError("{ " + fields + "}", options: .request) == nil)
        #expect(
            syntaxError("{ " + fields + "b }", options: .request)
                == "Syntax Error: Document contains more than 10000 tokens. Parsing aborted. @ 1:\(2 + 9_998 * 2 + 3)")
    }

    @Test("nesting deeper than allowed fails at the opening token", arguments: [
        ("{a{b{c}}}", nil as String?),
        ("{a{b{c{d}}}}", "Syntax Error: Document nesting is deeper than 3 levels. Parsing aborted. @ 1:7"),
        ("{a(x: [[[1]]])}", "Syntax Error: Document nesting is deeper than 3 levels. Parsing aborted. @ 1:9"),
        ("{a(x: {b: {c: {d: 1}}})}", "Syntax Error: Document nesting is deeper than 3 levels. Parsing aborted. @ 1:15"),
        ("query Q($v: [[[[Int]]]]) {a}", "Syntax Error: Document nesting is deeper than 3 levels. Parsing aborted. @ 1:16"),
        ("type T { f: [[[[Int]]]] }", "Syntax Error: Document nesting is deeper than 3 levels. Parsing aborted. @ 1:16"),
    ])
    func depthLimit(text: String, expected: String?) {
        #expect(syntaxError(text, options: ParseOptions(maxTokens: nil, maxDepth: 3)) == expected)
    }

    @Test("a hostile document a million levels deep is refused, not a stack overflow")
    func hostileDepth() {
        let depth = 1_000_000
        let selections = String(repeating: "{a", count: depth) + String(repeating: "}", count: depth)
        #expect(
            syntaxError(selections, options: ParseOptions(maxTokens: nil))
                == "Syntax Error: Document nesting is deeper than 100 levels. Parsing aborted. @ 1:201")
        let lists = "{a(x: " + String(repeating: "[", count: depth) + ")}"
        #expect(syntaxError(lists, options: .trusted)?.hasPrefix("Syntax Error: Document nesting is deeper than 100 levels.") == true)
        let types = "type T { f: " + String(repeating: "[", count: depth) + " }"
        #expect(syntaxError(types, options: .trusted)?.hasPrefix("Syntax Error: Document nesting is deeper than 100 levels.") == true)
    }

    @Test("the depth limit cannot be raised past its ceiling")
    func depthCeiling() {
        var options = ParseOptions(maxTokens: nil, maxDepth: 10_000_000)
        #expect(options.maxDepth == ParseOptions.depthCeiling)
        options.maxDepth = 0
        #expect(options.maxDepth == 1)
        let deep = String(repeating: "{a", count: 5_000) + String(repeating: "}", count: 5_000)
        #expect(syntaxError(deep, options: ParseOptions(maxTokens: nil, maxDepth: 10_000_000))?.contains("deeper than 1000 levels") == true)
    }
}
