extension GraphQLError {
    /// The message followed by each location quoted from the source with a caret under the
    /// column, as graphql-js's `printError` lays it out; used by the CLI.
    public var printed: String {
        var output = message
        if let source {
            let lines = Source.lines(of: String(decoding: source.body, as: UTF8.self))
            for location in locations {
                output += "\n\n" + Self.quote(lines, of: source, at: location)
            }
        } else {
            for location in locations {
                output += "\n    at \(location.line):\(location.column)"
            }
        }
        return output
    }

    /// `name:line:column` and the lines around it, the caret under the column.
    static func quote(_ lines: [String], of source: Source, at location: SourceLocation) -> String {
        let lineIndex = location.line - 1
        let header = "\(source.name):\(location.line):\(location.column)\n"
        guard lineIndex >= 0, lineIndex < lines.count else { return header }
        let line = lines[lineIndex]
        let lineUnits = Array(line.utf16)

        // A minified document: show the long line in 80-unit pieces.
        if lineUnits.count > 120 {
            let pieceIndex = location.column / 80
            let pieceColumn = location.column % 80
            var pieces: [String] = []
            var start = 0
            while start < lineUnits.count {
                let end = min(start + 80, lineUnits.count)
                pieces.append(String(decoding: lineUnits[start..<end], as: UTF16.self))
                start = end
            }
            var rows: [(String, String?)] = [("\(location.line) |", pieces.first)]
            for piece in pieces.dropFirst().prefix(pieceIndex) {
                rows.append(("|", piece))
            }
            rows.append(("|", String(repeating: " ", count: max(pieceColumn - 1, 0)) + "^"))
            rows.append(("|", pieceIndex + 1 < pieces.count ? pieces[pieceIndex + 1] : nil))
            return header + prefixed(rows)
        }

        return header + prefixed([
            ("\(location.line - 1) |", lineIndex > 0 ? lines[lineIndex - 1] : nil),
            ("\(location.line) |", line),
            ("|", String(repeating: " ", count: max(location.column - 1, 0)) + "^"),
            ("\(location.line + 1) |", lineIndex + 1 < lines.count ? lines[lineIndex + 1] : nil),
        ])
    }

    private static func prefixed(_ rows: [(String, String?)]) -> String {
        let present = rows.compactMap { row in row.1.map { (row.0, $0) } }
        let width = present.map(\.0.count).max() ?? 0
        return present.map { prefix, line in
            String(repeating: " ", count: width - prefix.count) + prefix + (line.isEmpty ? "" : " " + line)
        }.joined(separator: "\n")
    }
}
