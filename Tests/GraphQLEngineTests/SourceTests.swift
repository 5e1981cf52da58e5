import Testing
@testable import GraphQLEngine

@Suite struct SourceTests {
    @Test func firstByteIsLineOneColumnOne() {
        #expect(Source("{ a }").location(ofByte: 0) == SourceLocation(line: 1, column: 1))
        #expect(Source("{ a }").location(ofByte: 2) == SourceLocation(line: 1, column: 3))
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func everyLineTerminatorStartsALine(terminator: String) throws {
        let text = "query\(terminator)  { a }\(terminator)x"
        let source = Source(text)
        let brace = try #require(Array(text.utf8).firstIndex(of: UInt8(ascii: "{")))
        #expect(source.location(ofByte: brace) == SourceLocation(line: 2, column: 3))
        #expect(source.location(ofByte: text.utf8.count - 1) == SourceLocation(line: 3, column: 1))
    }

    @Test func crlfCountsAsOneLineEnd() {
        let source = Source("a\r\nb")
        #expect(source.location(ofByte: 1) == SourceLocation(line: 1, column: 2))
        #expect(source.location(ofByte: 2) == SourceLocation(line: 1, column: 3))
        #expect(source.location(ofByte: 3) == SourceLocation(line: 2, column: 1))
    }

    @Test func columnsCountUTF16CodeUnits() throws {
        // "é" is 2 UTF-8 bytes and 1 UTF-16 unit; "😀" is 4 bytes and 2 units; so before x
        // come 1 + 1 + 2 + 1 + 1 = 6 units in 9 bytes.
        let text = "\"é😀\" x"
        let x = try #require(Array(text.utf8).firstIndex(of: UInt8(ascii: "x")))
        #expect(x == 9)
        #expect(Source(text).location(ofByte: x) == SourceLocation(line: 1, column: 7))
    }

    @Test func offsetsOutsideTheBodyAreClamped() {
        let source = Source("ab\ncd")
        #expect(source.location(ofByte: 99) == SourceLocation(line: 2, column: 3))
        #expect(source.location(ofByte: -4) == SourceLocation(line: 1, column: 1))
    }
}
