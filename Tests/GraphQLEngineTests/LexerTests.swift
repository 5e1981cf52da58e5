import Testing

@testable import GraphQLEngine

@Suite("Lexer")
struct LexerTests {
    @Test("punctuators, names and numbers, with ignored tokens skipped")
    func tokenKinds() throws {
        let tokens = try lexed("\u{FEFF}! $ & ( ) ... : = @ [ ] { | } , # comment\n name _x1 -12 0 3.5 1e3 -0.5E-2\t\"s\" \"\"\"b\"\"\"")
        #expect(tokens.map(\.0) == [
            .bang, .dollar, .amp, .parenL, .parenR, .spread, .colon, .equals, .at, .bracketL, .bracketR, .braceL, .pipe,
            .braceR, .name, .name, .int, .int, .float, .float, .float, .string, .blockString,
        ])
        #expect(tokens.map(\.1).suffix(9) == ["name", "_x1", "-12", "0", "3.5", "1e3", "-0.5E-2", "s", "b"])
    }

    @Test("tokens carry their byte ranges")
    func ranges() throws {
        let source = Source("  query Q { a(x: \"ü\") }")
        let tokens = try Lexer.tokens(of: source).map(\.token)
        #expect(tokens[0].start == 2 && tokens[0].end == 7)  // query
        // ü is two bytes: the string spans bytes 17..<21 and the closing brace starts at 23.
        let string = try #require(tokens.first { $0.kind == .string })
        #expect(string.start == 17 && string.end == 21)
        #expect(tokens.first { $0.kind == .braceR }?.start == 23)
        #expect(tokens.last?.kind == .endOfFile && tokens.last?.start == source.body.count)
    }

    @Test("a name ends at the first byte that cannot continue it, whatever its length and wherever the source ends")
    func nameEnds() throws {
        // Names and runs of spaces are scanned eight bytes at a time: every byte value after a name
        // of every length from 1 to 19, at the end of the source and with more bytes after it.
        let continuing = Set(Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_".utf8))
        for length in 1...19 {
            let name = Array(("x" + String(repeating: "aZ_9q", count: 4).prefix(length - 1)).utf8)
            for byte in UInt8(0)...UInt8(255) {
                for tail in ["", "          }"] {
                    let body = name + [byte] + Array(tail.utf8)
                    let token = body.withUnsafeBufferPointer { buffer in
                        var lexer = Lexer(source: Source(bytes: body), bytes: buffer)
                        try? lexer.advance()
                        return lexer.token
                    }
                    #expect(token.kind == .name && token.start == 0, "byte \(byte) after \(length)")
                    #expect(token.end == (continuing.contains(byte) ? length + 1 : length), "byte \(byte) after \(length)")
                }
            }
        }
        for spaces in 0...20 {
            let gap = String(repeating: " ", count: spaces)
            let tokens = try Lexer.tokens(of: Source("{" + gap + "a" + gap + "}")).map(\.token)
            #expect(tokens.map(\.kind) == [TokenKind.braceL, .name, .braceR, .endOfFile])
            #expect(tokens.map(\.start) == [0, 1 + spaces, 2 + 2 * spaces, 3 + 2 * spaces])
        }
    }

    @Test("invalid and unexpected characters are reported where they are", arguments: [
        ("{ a ? }", "Syntax Error: Unexpected character: \"?\". @ 1:5"),
        ("{ a }\n  ~", "Syntax Error: Unexpected character: \"~\". @ 2:3"),
        ("{ 'a' }", "Syntax Error: Unexpected single quote character ('), did you mean to use a double quote (\")? @ 1:3"),
        ("{ \u{7} }", "Syntax Error: Unexpected character: U+0007. @ 1:3"),
        ("{ é }", "Syntax Error: Unexpected character: U+00E9. @ 1:3"),
        ("{ 😀 }", "Syntax Error: Unexpected character: U+1F600. @ 1:3"),
        ("{ 😀 ? }", "Syntax Error: Unexpected character: U+1F600. @ 1:3"),
        ("{ ..a }", "Syntax Error: Unexpected character: \".\". @ 1:3"),
        ("{ a\u{0B} }", "Syntax Error: Unexpected character: U+000B. @ 1:4"),
        ("{ a } \\", "Syntax Error: Unexpected character: \"\\\". @ 1:7"),
    ])
    func characters(text: String, expected: String) {
        #expect(syntaxError(text) == expected)
    }

    @Test("columns count UTF-16 units, as graphql-js does")
    func utf16Columns() {
        // 😀 is two UTF-16 units inside the string, so `?` is at column 14, not 13.
        #expect(syntaxError("{ a(x: \"😀\") ? }") == "Syntax Error: Unexpected character: \"?\". @ 1:14")
        #expect(syntaxError("\"é\" ?") == "Syntax Error: Unexpected character: \"?\". @ 1:5")
    }

    @Test("bytes that are not UTF-8 are rejected with their value")
    func invalidUTF8() {
        func error(_ bytes: [UInt8]) -> String? {
            do {
                _ = try Parser.parse(Source(bytes: bytes))
                return nil
            } catch {
                return "\(error.message) @ \(error.locations.first.map { "\($0.line):\($0.column)" } ?? "-")"
            }
        }
        #expect(error(Array("{ a ".utf8) + [0xFF] + Array(" }".utf8)) == "Syntax Error: Invalid character: byte 0xFF (not UTF-8). @ 1:5")
        #expect(error(Array("{ a(x: \"".utf8) + [0xC3, 0x28] + Array("\") }".utf8)) == "Syntax Error: Invalid character within String: byte 0xC3 (not UTF-8). @ 1:9")
        // An encoded surrogate (ED A0 80) and an overlong form (C0 AF) are not UTF-8 either.
        #expect(error(Array("{ a(x: \"\"\"".utf8) + [0xED, 0xA0, 0x80] + Array("\"\"\") }".utf8)) == "Syntax Error: Invalid character within String: byte 0xED (not UTF-8). @ 1:11")
        #expect(error(Array("# c ".utf8) + [0xC0, 0xAF] + Array("\n{ a }".utf8)) == "Syntax Error: Invalid character: byte 0xC0 (not UTF-8). @ 1:5")
    }

    @Test("numbers follow the spec: no leading zeros, no name or dot straight after", arguments: [
        ("{ a(x: 00) }", "Syntax Error: Invalid number, unexpected digit after 0: \"0\". @ 1:9"),
        ("{ a(x: -01) }", "Syntax Error: Invalid number, unexpected digit after 0: \"1\". @ 1:10"),
        ("{ a(x: 1.) }", "Syntax Error: Invalid number, expected digit but got: \")\". @ 1:10"),
        ("{ a(x: .5) }", "Syntax Error: Unexpected character: \".\". @ 1:8"),
        ("{ a(x: 1e) }", "Syntax Error: Invalid number, expected digit but got: \")\". @ 1:10"),
        ("{ a(x: 1e+) }", "Syntax Error: Invalid number, expected digit but got: \")\". @ 1:11"),
        ("{ a(x: -) }", "Syntax Error: Invalid number, expected digit but got: \")\". @ 1:9"),
        ("{ a(x: 1a) }", "Syntax Error: Invalid number, expected digit but got: \"a\". @ 1:9"),
        ("{ a(x: 0x1) }", "Syntax Error: Invalid number, expected digit but got: \"x\". @ 1:9"),
        ("{ a(x: 1.2.3) }", "Syntax Error: Invalid number, expected digit but got: \".\". @ 1:11"),
        ("{ a(x: 1_0) }", "Syntax Error: Invalid number, expected digit but got: \"_\". @ 1:9"),
        ("{ a(x: 1.5", "Syntax Error: Expected Name, found <EOF>. @ 1:11"),
        ("{ a(x: 1.", "Syntax Error: Invalid number, expected digit but got: <EOF>. @ 1:10"),
    ])
    func numbers(text: String, expected: String) {
        #expect(syntaxError(text) == expected)
    }

    @Test("valid numbers keep their text and kind")
    func numberValues() throws {
        let tokens = try lexed("0 -0 1 -1 123 0.0 -0.5 1e10 1E+10 1e-10 6.02e23")
        #expect(tokens.map(\.0) == [.int, .int, .int, .int, .int, .float, .float, .float, .float, .float, .float])
        #expect(tokens.map(\.1) == ["0", "-0", "1", "-1", "123", "0.0", "-0.5", "1e10", "1E+10", "1e-10", "6.02e23"])
    }

    @Test("comments run to the end of the line, whatever they contain")
    func comments() throws {
        #expect(try lexed("# one ✓ \u{7}\r{ # two\n a }").map(\.0) == [.braceL, .name, .braceR])
    }
}
