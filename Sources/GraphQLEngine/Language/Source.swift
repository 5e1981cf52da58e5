/// A GraphQL document's text as UTF-8 bytes, with a name for error messages.
///
/// Tokens and AST nodes refer to it by byte offset; line and column are computed only when an
/// error needs them, the way graphql-js reports them: 1-based, lines ended by `\n`, `\r\n` or
/// `\r`, columns counted in UTF-16 code units.
public struct Source: Sendable {
    public let body: [UInt8]
    public let name: String

    public init(_ text: String, name: String = "GraphQL request") {
        self.body = Array(text.utf8)
        self.name = name
    }

    public init(bytes: [UInt8], name: String = "GraphQL request") {
        self.body = bytes
        self.name = name
    }

    /// The line and column of the byte at `offset` (an offset at the end is allowed).
    public func location(ofByte offset: Int) -> SourceLocation {
        let end = min(max(offset, 0), body.count)
        var line = 1
        var lineStart = 0
        var index = 0
        while index < end {
            let byte = body[index]
            if byte == 0x0A {
                line += 1
                lineStart = index + 1
            } else if byte == 0x0D {
                if index + 1 < body.count && body[index + 1] == 0x0A {
                    if index + 1 >= end { break }
                    index += 1
                }
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        return SourceLocation(line: line, column: Self.utf16Length(body[lineStart..<end]) + 1)
    }

    /// A text split into lines at `\r\n`, `\n` and `\r`, as GraphQL counts them.
    static func lines(of text: String) -> [String] {
        var lines: [String] = []
        var current: [UInt8] = []
        var bytes = text.utf8.makeIterator()
        var pendingCR = false
        while let byte = bytes.next() {
            if pendingCR {
                pendingCR = false
                if byte == 0x0A { continue }
            }
            if byte == 0x0A || byte == 0x0D {
                lines.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
                pendingCR = byte == 0x0D
            } else {
                current.append(byte)
            }
        }
        lines.append(String(decoding: current, as: UTF8.self))
        return lines
    }

    /// UTF-16 code units in a run of UTF-8 bytes: one per scalar, two for scalars above U+FFFF
    /// (4-byte sequences). Continuation bytes count nothing.
    static func utf16Length(_ bytes: ArraySlice<UInt8>) -> Int {
        var units = 0
        for byte in bytes {
            if byte & 0xC0 != 0x80 { units += 1 }
            if byte >= 0xF0 { units += 1 }
        }
        return units
    }
}

/// A 1-based line and column in a ``Source``.
public struct SourceLocation: Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}
