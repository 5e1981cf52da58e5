/// Block strings (`"""…"""`): the spec's `BlockStringValue()` dedent, and printing a value
/// back as a block string the way graphql-js's `printBlockString` does.
public enum BlockString {
    /// The spec's `BlockStringValue()` over raw lines: removes the common indentation of all
    /// lines but the first, then leading and trailing blank lines.
    public static func dedent(lines: [String]) -> String {
        var content: [UInt8] = []
        var ranges: [Range<Int>] = []
        for line in lines {
            let start = content.count
            content.append(contentsOf: line.utf8)
            ranges.append(start..<content.count)
        }
        return content.withUnsafeBufferPointer { dedentedValue(of: $0, lines: ranges) }
    }

    /// The dedent over lines given as ranges of a byte buffer, written straight into the result.
    static func dedentedValue(of bytes: UnsafeBufferPointer<UInt8>, lines: [Range<Int>]) -> String {
        var commonIndent = Int.max
        var firstNonBlank: Int? = nil
        var lastNonBlank = -1
        for (index, line) in lines.enumerated() {
            var indent = 0
            while indent < line.count {
                let code = bytes[line.lowerBound + indent]
                if code != 0x20 && code != 0x09 { break }
                indent += 1
            }
            if indent == line.count { continue }  // blank line
            if firstNonBlank == nil { firstNonBlank = index }
            lastNonBlank = index
            if index != 0 && indent < commonIndent { commonIndent = indent }
        }
        let first = firstNonBlank ?? 0
        guard first <= lastNonBlank else { return "" }
        var size = lastNonBlank - first  // newlines
        for index in first...lastNonBlank {
            let line = lines[index]
            size += line.count - (index == 0 ? 0 : min(commonIndent, line.count))
        }
        return String(unsafeUninitializedCapacity: size) { output in
            var written = 0
            for index in first...lastNonBlank {
                if index > first {
                    output[written] = 0x0A
                    written += 1
                }
                let line = lines[index]
                let from = line.lowerBound + (index == 0 ? 0 : min(commonIndent, line.count))
                let length = line.upperBound - from
                if length > 0, let target = output.baseAddress, let origin = bytes.baseAddress {
                    (target + written).update(from: origin + from, count: length)
                    written += length
                }
            }
            return written
        }
    }

    /// The spec's `BlockStringValue()` worked out as a block string's lines are scanned: each line
    /// adds its indentation to the common one and may move the first or last non-blank line, so
    /// no line is stored, and the value is then copied from the source in one pass (one slice
    /// when, as in most descriptions, a single line is not blank).
    struct Dedent {
        private var lineCount = 0
        private var commonIndent = Int.max
        /// The first and last lines that are not blank (-1 while none is), and where they lie.
        private var firstLine = -1
        private var lastLine = -1
        private var contentStart = 0
        private var contentEnd = 0

        /// Adds the next line (without its line terminator).
        @inline(__always)
        mutating func add(_ line: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>) {
            defer { lineCount += 1 }
            var index = line.lowerBound
            while index < line.upperBound && (bytes[index] == 0x20 || bytes[index] == 0x09) { index += 1 }
            guard index < line.upperBound else { return }  // blank
            if firstLine < 0 {
                firstLine = lineCount
                contentStart = line.lowerBound
            }
            lastLine = lineCount
            contentEnd = line.upperBound
            if lineCount != 0 { commonIndent = min(commonIndent, index - line.lowerBound) }
        }

        /// The value (the source's bytes when it is one line as it stands there): the lines from the
        /// first to the last non-blank one, each but the block's first line without the common
        /// indentation (or all its own, when shorter), joined by `\n`; with `\"""` written as `"""`
        /// when `unescaping` (an escape changes no indentation).
        func value(of bytes: UnsafeBufferPointer<UInt8>, unescaping: Bool) -> StringContent {
            guard firstLine >= 0 else { return .cooked("") }
            if firstLine == lastLine && !unescaping {
                // A lone non-blank line after the first is the only one setting the common indentation.
                let from = firstLine == 0 ? contentStart : contentStart + commonIndent
                return .bytes(SourceRange(start: from, end: contentEnd))
            }
            // Line terminators become one `\n` each, and indentation and escapes only remove bytes:
            // the value is never longer than its lines in the source.
            return .cooked(String(unsafeUninitializedCapacity: contentEnd - contentStart) { output in
                guard let target = output.baseAddress else { return 0 }
                var written = 0
                var position = contentStart
                var line = firstLine
                while true {
                    var end = position
                    while end < contentEnd && bytes[end] != 0x0A && bytes[end] != 0x0D { end += 1 }
                    let from = line == 0 ? position : position + min(commonIndent, end - position)
                    written += Self.copy(from..<end, of: bytes, to: target + written, unescaping: unescaping)
                    if end == contentEnd { return written }
                    target[written] = 0x0A
                    written += 1
                    position = end + (bytes[end] == 0x0D && bytes[end + 1] == 0x0A ? 2 : 1)
                    line += 1
                }
            })
        }

        /// Copies `range` of `bytes` to `target`, each `\"""` as `"""` when `unescaping`; answers
        /// how many bytes it wrote.
        private static func copy(
            _ range: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, unescaping: Bool
        ) -> Int {
            guard unescaping else {
                if let origin = bytes.baseAddress { target.update(from: origin + range.lowerBound, count: range.count) }
                return range.count
            }
            var written = 0
            for index in range {
                // The backslash of an escape is dropped; its quotes are copied as they come.
                if bytes[index] == 0x5C && index + 3 < range.upperBound
                    && bytes[index + 1] == 0x22 && bytes[index + 2] == 0x22 && bytes[index + 3] == 0x22
                {
                    continue
                }
                target[written] = bytes[index]
                written += 1
            }
            return written
        }
    }

    /// A value as a block string literal, laid out as graphql-js prints it: on its own lines
    /// when that reads better or is needed to keep the value intact.
    public static func print(_ value: String, minimize: Bool = false) -> String {
        let escaped = value.replacingAll("\"\"\"", with: "\\\"\"\"")
        let lines = Source.lines(of: escaped)
        let isSingleLine = lines.count == 1
        let forceLeadingNewLine =
            lines.count > 1
            && lines.dropFirst().allSatisfy { line in line.isEmpty || line.utf8.first == 0x20 || line.utf8.first == 0x09 }
        let hasTrailingTripleQuotes = escaped.hasSuffix("\\\"\"\"")
        let hasTrailingQuote = value.hasSuffix("\"") && !hasTrailingTripleQuotes
        let hasTrailingSlash = value.hasSuffix("\\")
        let forceTrailingNewLine = hasTrailingQuote || hasTrailingSlash
        let printAsMultipleLines =
            !minimize
            && (!isSingleLine || value.utf16.count > 70 || forceTrailingNewLine || forceLeadingNewLine
                || hasTrailingTripleQuotes)
        var result = ""
        let firstUnit = value.utf8.first
        let skipLeadingNewLine = isSingleLine && (firstUnit == 0x20 || firstUnit == 0x09)
        if (printAsMultipleLines && !skipLeadingNewLine) || forceLeadingNewLine { result += "\n" }
        result += escaped
        if printAsMultipleLines || forceTrailingNewLine { result += "\n" }
        return "\"\"\"" + result + "\"\"\""
    }
}

extension BlockString {
    /// Whether `value` survives a round trip as a block string (graphql-js's
    /// `isPrintableAsBlockString`): no control characters or `\r`, no leading or trailing blank
    /// lines, and no indentation common to every line after the first.
    public static func isPrintable(_ value: String) -> Bool {
        if value.isEmpty { return true }
        var isEmptyLine = true
        var hasIndent = false
        var hasCommonIndent = true
        var seenNonEmptyLine = false
        for unit in value.utf8 {
            switch unit {
            case 0x00...0x08, 0x0B, 0x0C, 0x0E, 0x0F: return false
            case 0x0D: return false
            case 0x0A:
                if isEmptyLine && !seenNonEmptyLine { return false }
                seenNonEmptyLine = true
                isEmptyLine = true
                hasIndent = false
            case 0x09, 0x20:
                hasIndent = hasIndent || isEmptyLine
            default:
                hasCommonIndent = hasCommonIndent && hasIndent
                isEmptyLine = false
            }
        }
        if isEmptyLine { return false }
        if hasCommonIndent && seenNonEmptyLine { return false }
        return true
    }
}
