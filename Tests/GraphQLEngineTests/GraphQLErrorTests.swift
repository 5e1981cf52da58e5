import Testing

@testable import GraphQLEngine

@Suite("GraphQLError")
struct GraphQLErrorTests {
    @Test("syntax errors print the source line with a caret, as graphql-js does")
    func printedWithSource() throws {
        let source = Source("query {\n  a(x: ?)\n  b\n}", name: "schema.graphql")
        let error = try #require(throwing(source))
        #expect(error.code == "GRAPHQL_PARSE_FAILED")
        #expect(error.printed == """
            Syntax Error: Unexpected character: "?".

            schema.graphql:2:8
            1 | query {
            2 |   a(x: ?)
              |        ^
            3 |   b
            """)
    }

    @Test("a first-line error has no line before it; the last line none after")
    func edges() throws {
        let error = try #require(throwing(Source("{ ?", name: "q")))
        #expect(error.printed == "Syntax Error: Unexpected character: \"?\".\n\nq:1:3\n1 | { ?\n  |   ^")
    }

    @Test("long minified lines are shown in 80-column pieces")
    func minified() throws {
        let text = "{ " + String(repeating: "a ", count: 60) + "? }"
        let error = try #require(throwing(Source(text, name: "q")))
        let column = 2 + 120 + 1
        #expect(error.locations.first?.column == column)
        let lines = error.printed.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[2] == "q:1:\(column)")
        #expect(lines[3] == "1 | " + String(Array(text)[0..<80]))
        #expect(lines[4] == "  | " + String(Array(text)[80..<122]) + "? }")
        #expect(lines[5] == "  | " + String(repeating: " ", count: column % 80 - 1) + "^")
    }

    private func throwing(_ source: Source) -> GraphQLError? {
        do {
            _ = try Parser.parse(source)
            return nil
        } catch {
            return error
        }
    }
}
