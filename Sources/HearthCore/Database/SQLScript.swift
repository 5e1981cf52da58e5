/// A SQL file split into its statements, because PostgresNIO speaks only the extended query
/// protocol, which runs one statement at a time.
///
/// Splits on `;` outside of quoted text: '…' strings (with `''`, and backslash escapes in
/// E'…'), "…" identifiers, $tag$…$tag$ dollar quotes, `--` comments and nested /* */ comments.
public struct SQLScript: Sendable, Equatable {
    public struct Statement: Sendable, Equatable {
        /// The statement's text without the terminating semicolon.
        public var sql: String
        /// The 1-based line where the statement starts, for error messages.
        public var line: Int
    }

    public var statements: [Statement]

    public init(_ text: String) {
        let bytes = Array(text.utf8)
        var statements: [Statement] = []
        var start = 0
        var startLine = 1
        var line = 1
        var index = 0
        var hasContent = false

        func flush(upTo end: Int) {
            let sql = String(decoding: bytes[start..<end], as: UTF8.self)
            if hasContent {
                statements.append(Statement(sql: sql.trimmingWhitespace(), line: startLine))
            }
            hasContent = false
        }

        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                index += 1
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                var depth = 0
                while index < bytes.count {
                    if bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                        depth += 1
                        index += 2
                    } else if bytes[index] == UInt8(ascii: "*"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                        depth -= 1
                        index += 2
                        if depth == 0 { break }
                    } else {
                        if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                        index += 1
                    }
                }
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                if !hasContent { hasContent = true; startLine = line }
                let backslashEscapes = byte == UInt8(ascii: "'") && index > 0
                    && (bytes[index - 1] == UInt8(ascii: "E") || bytes[index - 1] == UInt8(ascii: "e"))
                index += 1
                while index < bytes.count {
                    let current = bytes[index]
                    if current == UInt8(ascii: "\n") { line += 1 }
                    if backslashEscapes && current == UInt8(ascii: "\\") {
                        index += 2
                        continue
                    }
                    index += 1
                    if current == byte {
                        if index < bytes.count && bytes[index] == byte { index += 1; continue }
                        break
                    }
                }
            case UInt8(ascii: "$"):
                if !hasContent { hasContent = true; startLine = line }
                // A dollar quote is $tag$ where tag is empty or an identifier.
                var tagEnd = index + 1
                while tagEnd < bytes.count, Self.isTagByte(bytes[tagEnd]) { tagEnd += 1 }
                let startsTag = index == 0 || !Self.isTagByte(bytes[index - 1])
                guard startsTag, tagEnd < bytes.count, bytes[tagEnd] == UInt8(ascii: "$"),
                      !(tagEnd > index + 1 && Self.isDigit(bytes[index + 1])) else {
                    index += 1
                    continue
                }
                let tag = Array(bytes[index...tagEnd])
                index = tagEnd + 1
                while index < bytes.count {
                    if bytes[index] == UInt8(ascii: "$"), index + tag.count <= bytes.count,
                       Array(bytes[index..<(index + tag.count)]) == tag {
                        index += tag.count
                        break
                    }
                    if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                    index += 1
                }
            case UInt8(ascii: ";"):
                flush(upTo: index)
                index += 1
                start = index
            default:
                if !hasContent && !Self.isSpace(byte) { hasContent = true; startLine = line }
                index += 1
            }
        }
        flush(upTo: bytes.count)
        self.statements = statements
    }

    private static func isTagByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || isDigit(byte) || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var view = Substring(self)
        while let first = view.first, first.isWhitespace { view.removeFirst() }
        while let last = view.last, last.isWhitespace { view.removeLast() }
        return String(view)
    }
}
