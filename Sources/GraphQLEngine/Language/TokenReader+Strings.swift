extension TokenReader {
    /// `"…"`: a string on one line, escapes cooked (`\n`, `\uXXXX`, `\u{…}`, surrogate pairs).
    @inline(never)  // kept out of readToken, whose frame stays small for the common tokens
    func readString(from start: Int, value: inout StringContent?) throws(LexicalError) -> Token {
        let count = bytes.count
        var position = start + 1
        var chunkStart = position
        var cooked: [UInt8]? = nil
        while position < count {
            let code = bytes[position]
            if code == 0x22 {  // closing quote
                if var buffer = cooked {
                    buffer.append(contentsOf: bytes[chunkStart..<position])
                    value = .cooked(String(decoding: buffer, as: UTF8.self))
                } else {
                    value = .bytes(SourceRange(start: chunkStart, end: position))
                }
                return Token(kind: .string, start: start, end: position + 1)
            }
            if code == 0x5C {  // backslash
                var buffer = cooked ?? []
                buffer.append(contentsOf: bytes[chunkStart..<position])
                position += try readEscape(at: position, into: &buffer)
                cooked = buffer
                chunkStart = position
                continue
            }
            if code == 0x0A || code == 0x0D { break }
            guard let length = characterLength(at: position) else {
                throw error(at: position, "Invalid character within String: \(printCodePoint(at: position)).")
            }
            position += length
        }
        throw error(at: position, "Unterminated string.")
    }

    /// Cooks the escape sequence at `position` (a backslash) into `buffer`; returns its length.
    private func readEscape(at position: Int, into buffer: inout [UInt8]) throws(LexicalError) -> Int {
        let next = byte(at: position + 1)
        switch next {
        case 0x22: buffer.append(0x22)
        case 0x5C: buffer.append(0x5C)
        case 0x2F: buffer.append(0x2F)
        case 0x62: buffer.append(0x08)  // b
        case 0x66: buffer.append(0x0C)  // f
        case 0x6E: buffer.append(0x0A)  // n
        case 0x72: buffer.append(0x0D)  // r
        case 0x74: buffer.append(0x09)  // t
        case 0x75:  // u
            return byte(at: position + 2) == 0x7B
                ? try readVariableWidthUnicodeEscape(at: position, into: &buffer)
                : try readFixedWidthUnicodeEscape(at: position, into: &buffer)
        default:
            throw error(at: position, "Invalid character escape sequence: \"\(text(from: position, length: 2))\".")
        }
        return 2
    }

    /// `\u{1F600}`: one to eight hex digits naming a Unicode scalar value.
    private func readVariableWidthUnicodeEscape(at position: Int, into buffer: inout [UInt8]) throws(LexicalError) -> Int {
        var point: Int32 = 0
        var size = 3
        while size < 12 {
            let code = byte(at: position + size)
            size += 1
            if code == 0x7D {  // }
                if size < 5 || !Self.isScalarValue(point) { break }
                UTF8Scalar.append(UInt32(point), to: &buffer)
                return size
            }
            point = (point &<< 4) | Self.hexValue(code)
            if point < 0 { break }
        }
        throw error(at: position, "Invalid Unicode escape sequence: \"\(text(from: position, length: size))\".")
    }

    /// `\uXXXX`, or a JSON-style surrogate pair `\uD83D\uDE00` joined into one scalar.
    private func readFixedWidthUnicodeEscape(at position: Int, into buffer: inout [UInt8]) throws(LexicalError) -> Int {
        let code = hex16(at: position + 2)
        if Self.isScalarValue(code) {
            UTF8Scalar.append(UInt32(code), to: &buffer)
            return 6
        }
        if code >= 0xD800 && code <= 0xDBFF && byte(at: position + 6) == 0x5C && byte(at: position + 7) == 0x75 {
            let trailing = hex16(at: position + 8)
            if trailing >= 0xDC00 && trailing <= 0xDFFF {
                let scalar = 0x10000 + ((UInt32(code) - 0xD800) << 10) + (UInt32(trailing) - 0xDC00)
                UTF8Scalar.append(scalar, to: &buffer)
                return 12
            }
        }
        throw error(at: position, "Invalid Unicode escape sequence: \"\(text(from: position, length: 6))\".")
    }

    /// Four hex digits as a number; negative if any is not a hex digit.
    private func hex16(at position: Int) -> Int32 {
        Self.hexValue(byte(at: position)) &<< 12 | Self.hexValue(byte(at: position + 1)) &<< 8
            | Self.hexValue(byte(at: position + 2)) &<< 4 | Self.hexValue(byte(at: position + 3))
    }

    @inline(__always)
    static func hexValue(_ code: Int) -> Int32 {
        switch code {
        case 0x30...0x39: Int32(code - 0x30)
        case 0x41...0x46: Int32(code - 0x37)
        case 0x61...0x66: Int32(code - 0x57)
        default: -1
        }
    }

    @inline(__always)
    static func isScalarValue(_ code: Int32) -> Bool {
        (code >= 0 && code <= 0xD7FF) || (code >= 0xE000 && code <= 0x10FFFF)
    }

    /// The source text of `length` bytes from `position`, widened to whole characters, for
    /// quoting a bad escape.
    private func text(from position: Int, length: Int) -> String {
        var end = min(position + length, bytes.count)
        while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
    }

    /// `"""…"""`: raw text (only `\"""` is an escape), its lines dedented by the spec's
    /// `BlockStringValue()`. The dedent is worked out line by line as the string is scanned
    /// (``BlockString/Dedent``), so the value is copied once, straight from the source (escapes
    /// unescaped on the way), and no line is stored.
    @inline(never)
    func readBlockString(from start: Int, value: inout StringContent?) throws(LexicalError) -> Token {
        let count = bytes.count
        var position = start + 3
        var lineStart = position
        var dedent = BlockString.Dedent()
        var hasEscape = false
        while position < count {
            // Descriptions are mostly plain ASCII: step over it eight bytes at a time.
            position = scanWords(from: position, until: Self.blockStringStops)
            guard position < count else { break }
            let code = bytes[position]
            if code >= 0x80 {
                guard let length = characterLength(at: position) else {
                    throw error(at: position, "Invalid character within String: \(printCodePoint(at: position)).")
                }
                position += length
                continue
            }
            switch code {
            case 0x22 where byte(at: position + 1) == 0x22 && byte(at: position + 2) == 0x22:
                dedent.add(lineStart..<position, of: bytes)
                value = dedent.value(of: bytes, unescaping: hasEscape)
                return Token(kind: .blockString, start: start, end: position + 3)
            case 0x5C where byte(at: position + 1) == 0x22 && byte(at: position + 2) == 0x22 && byte(at: position + 3) == 0x22:
                hasEscape = true
                position += 4
            case 0x0A, 0x0D:
                dedent.add(lineStart..<position, of: bytes)
                position += (code == 0x0D && byte(at: position + 1) == 0x0A) ? 2 : 1
                lineStart = position
            default:
                position += 1
            }
        }
        throw error(at: position, "Unterminated string.")
    }

    /// The bytes of `word` (eight source bytes, first in the low byte) where a block string needs
    /// a closer look — `"`, `\`, a line break, or a non-ASCII byte — as the high bit of each such
    /// byte; zero when there is none. The lowest set bit marks the first such byte exactly.
    @inline(__always)
    static func blockStringStops(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func zeroBytes(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        return zeroBytes(word ^ (ones &* 0x22)) | zeroBytes(word ^ (ones &* 0x5C)) | zeroBytes(word ^ (ones &* 0x0A))
            | zeroBytes(word ^ (ones &* 0x0D)) | (word & highs)
    }
}
