/// Reads GraphQL tokens from UTF-8 bytes: each read is a function of the bytes and a
/// position, and all state stays with the ``Lexer``. (When the reads were the lexer's own
/// mutating methods, the whole lexer was copied for every token.)
///
/// Names, punctuators, numbers, whitespace and comments are ASCII and scanned byte by byte (and
/// eight bytes at a time where runs are long); only strings decode UTF-8.
///
/// It holds only the bytes, so that reading a token passes two words, not the source: an error is
/// a ``LexicalError`` (a position and a message), which the lexer places in its source.
struct TokenReader {
    let bytes: UnsafeBufferPointer<UInt8>

    /// The byte at `index`, or -1 past the end.
    @inline(__always)
    func byte(at index: Int) -> Int {
        index < bytes.count ? Int(bytes[index]) : -1
    }

    func error(at position: Int, _ description: String) -> LexicalError {
        LexicalError(position: position, description: description)
    }

    /// Reads the token that starts at or after `start` (past ignored bytes). A string's value
    /// goes to `value`.
    func readToken(from start: Int, value: inout StringContent?) throws(LexicalError) -> Token {
        let count = bytes.count
        var position = start
        while position < count {
            let code = bytes[position]
            // Names are most tokens: tested before the jump through the switch.
            if Self.isNameStart(code) {
                return readName(from: position)
            }
            // Then the spaces between tokens, by a test that usually goes the same way rather than
            // by the jump through a table on the byte below.
            if code == 0x20 || code == 0x0A {  // a run of spaces, or a line break and the next line's indentation
                position = skipSpaces(from: position + 1)
                continue
            }
            switch code {
            case 0x09, 0x2C, 0x0D:  // tab, comma, carriage return
                position += 1
                continue
            case 0xEF where byte(at: position + 1) == 0xBB && byte(at: position + 2) == 0xBF:  // BOM
                position += 3
                continue
            case 0x23:  // # comment, up to the end of the line
                position = skipComment(from: position + 1)
                continue
            case 0x21: return Token(kind: .bang, start: position, end: position + 1)
            case 0x24: return Token(kind: .dollar, start: position, end: position + 1)
            case 0x26: return Token(kind: .amp, start: position, end: position + 1)
            case 0x28: return Token(kind: .parenL, start: position, end: position + 1)
            case 0x29: return Token(kind: .parenR, start: position, end: position + 1)
            case 0x2E:
                if byte(at: position + 1) == 0x2E && byte(at: position + 2) == 0x2E {
                    return Token(kind: .spread, start: position, end: position + 3)
                }
            case 0x3A: return Token(kind: .colon, start: position, end: position + 1)
            case 0x3D: return Token(kind: .equals, start: position, end: position + 1)
            case 0x40: return Token(kind: .at, start: position, end: position + 1)
            case 0x5B: return Token(kind: .bracketL, start: position, end: position + 1)
            case 0x5D: return Token(kind: .bracketR, start: position, end: position + 1)
            case 0x7B: return Token(kind: .braceL, start: position, end: position + 1)
            case 0x7C: return Token(kind: .pipe, start: position, end: position + 1)
            case 0x7D: return Token(kind: .braceR, start: position, end: position + 1)
            case 0x22:
                if byte(at: position + 1) == 0x22 && byte(at: position + 2) == 0x22 {
                    return try readBlockString(from: position, value: &value)
                }
                return try readString(from: position, value: &value)
            default:
                break
            }
            if Self.isDigit(code) || code == 0x2D {
                return try readNumber(from: position)
            }
            throw unexpectedCharacter(at: position)
        }
        return Token(kind: .endOfFile, start: count, end: count)
    }

    /// Scans eight bytes at a time from `start`: the position of the first byte `stops` marks (it
    /// maps a little-endian word of source bytes to a mask whose lowest set bit lies in that byte),
    /// or, when none does, the first position with fewer than eight bytes left, from where the
    /// caller goes on byte by byte.
    @inline(__always)
    func scanWords(from start: Int, until stops: (UInt64) -> UInt64) -> Int {
        var position = start
        guard let base = bytes.baseAddress else { return position }
        while position &+ 8 <= bytes.count {
            let mask = stops(UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)))
            if mask != 0 { return position + mask.trailingZeroBitCount >> 3 }
            position += 8
        }
        return position
    }

    /// The first position from `start` that is not a space. Indentation is most of a pretty-printed
    /// document's bytes: eight are compared at once (the lowest byte that differs ends the run).
    @inline(__always)
    private func skipSpaces(from start: Int) -> Int {
        var position = scanWords(from: start) { $0 ^ 0x2020_2020_2020_2020 }
        while position < bytes.count && bytes[position] == 0x20 { position += 1 }
        return position
    }

    @inline(never)
    private func skipComment(from start: Int) -> Int {
        var position = start
        let count = bytes.count
        while position < count {
            let code = bytes[position]
            if code == 0x0A || code == 0x0D { break }
            // Bytes that are not UTF-8 end the comment and are reported by the next read.
            guard let length = characterLength(at: position) else { break }
            position += length
        }
        return position
    }

    /// The length in bytes of the character at `position`: 1 for ASCII, 2 to 4 for other
    /// UTF-8, nil when the bytes there are not UTF-8.
    @inline(__always)
    func characterLength(at position: Int) -> Int? {
        bytes[position] < 0x80 ? 1 : UTF8Scalar.decode(bytes, at: position)?.length
    }

    @inline(never)
    private func unexpectedCharacter(at position: Int) -> LexicalError {
        if bytes[position] == 0x27 {
            return error(at: position, "Unexpected single quote character ('), did you mean to use a double quote (\")?")
        }
        if characterLength(at: position) == nil {
            return error(at: position, "Invalid character: \(printCodePoint(at: position)).")
        }
        return error(at: position, "Unexpected character: \(printCodePoint(at: position)).")
    }

    /// How graphql-js names the character at a position in messages: `"a"`, `'"'`, `U+00E9`,
    /// `<EOF>`; bytes that are not UTF-8 are named as such.
    func printCodePoint(at position: Int) -> String {
        guard position < bytes.count else { return TokenKind.endOfFile.description }
        guard let (scalar, _) = UTF8Scalar.decode(bytes, at: position) else {
            return "byte 0x" + Self.hex(UInt32(bytes[position]), digits: 2) + " (not UTF-8)"
        }
        if scalar >= 0x20 && scalar <= 0x7E {
            return scalar == 0x22 ? "'\"'" : "\"\(Character(Unicode.Scalar(UInt8(scalar))))\""
        }
        return "U+" + Self.hex(scalar, digits: 4)
    }

    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return text.count >= digits ? text : String(repeating: "0", count: digits - text.count) + text
    }

    @inline(__always)
    private func readName(from start: Int) -> Token {
        // Eight bytes at a time: the lowest that cannot continue a name ends it.
        var position = scanWords(from: start + 1) { ~Self.nameBytes($0) & 0x8080_8080_8080_8080 }
        let count = bytes.count
        while position < count && Self.isNameContinue(bytes[position]) {
            position += 1
        }
        return Token(kind: .name, start: start, end: position)
    }

    /// The bytes of `word` (eight source bytes, first in the low byte) that may continue a name
    /// (`[A-Za-z0-9_]`), as the high bit of each such byte. Exact per byte: no borrow crosses bytes.
    @inline(__always)
    static func nameBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let low = word & ~highs
        // For bytes below 0x80, adding 0x80 - bound sets the high bit exactly when byte ≥ bound.
        @inline(__always) func atLeast(_ value: UInt64, _ bound: UInt64) -> UInt64 { (value &+ ones &* (0x80 &- bound)) & highs }
        let folded = low | ones &* 0x20  // letters folded to lower case
        let letters = atLeast(folded, 0x61) & ~atLeast(folded, 0x7B)
        let digits = atLeast(low, 0x30) & ~atLeast(low, 0x3A)
        let notUnderscore = low ^ ones &* 0x5F
        let underscores = ~((notUnderscore &+ ones &* 0x7F) | notUnderscore) & highs
        return (letters | digits | underscores) & ~word
    }

    // MARK: - Numbers

    @inline(never)
    private func readNumber(from start: Int) throws(LexicalError) -> Token {
        var position = start
        var code = byte(at: position)
        var isFloat = false
        if code == 0x2D {  // -
            position += 1
            code = byte(at: position)
        }
        if code == 0x30 {  // 0
            position += 1
            code = byte(at: position)
            if code >= 0x30 && code <= 0x39 {
                throw error(at: position, "Invalid number, unexpected digit after 0: \(printCodePoint(at: position)).")
            }
        } else {
            position = try readDigits(from: position)
            code = byte(at: position)
        }
        if code == 0x2E {  // .
            isFloat = true
            position = try readDigits(from: position + 1)
            code = byte(at: position)
        }
        if code == 0x45 || code == 0x65 {  // E e
            isFloat = true
            position += 1
            code = byte(at: position)
            if code == 0x2B || code == 0x2D {  // + -
                position += 1
            }
            position = try readDigits(from: position)
            code = byte(at: position)
        }
        // A number may not run straight into a `.` or a name.
        if code == 0x2E || (code >= 0 && Self.isNameStart(UInt8(code))) {
            throw error(at: position, "Invalid number, expected digit but got: \(printCodePoint(at: position)).")
        }
        return Token(kind: isFloat ? .float : .int, start: start, end: position)
    }

    private func readDigits(from start: Int) throws(LexicalError) -> Int {
        let code = byte(at: start)
        guard code >= 0x30 && code <= 0x39 else {
            throw error(at: start, "Invalid number, expected digit but got: \(printCodePoint(at: start)).")
        }
        var position = start + 1
        let count = bytes.count
        while position < count && Self.isDigit(bytes[position]) {
            position += 1
        }
        return position
    }

    // MARK: - Character classes

    @inline(__always)
    static func isDigit(_ code: UInt8) -> Bool { code &- 0x30 < 10 }

    @inline(__always)
    static func isNameStart(_ code: UInt8) -> Bool {
        (code | 0x20) &- 0x61 < 26 || code == 0x5F
    }

    @inline(__always)
    static func isNameContinue(_ code: UInt8) -> Bool {
        (code | 0x20) &- 0x61 < 26 || code &- 0x30 < 10 || code == 0x5F
    }
}

/// A syntax error the ``TokenReader`` found: where, and graphql-js's message for it.
struct LexicalError: Error {
    let position: Int
    let description: String

    /// The error as reported, located in `source`.
    func located(in source: Source) -> GraphQLError {
        GraphQLError.syntax(source, at: position, description)
    }
}
