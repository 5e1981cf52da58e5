extension GraphQLValue {
    /// The value as graphql-js's `inspect` shows it in error messages: strings quoted as JSON,
    /// objects as `{ key: value }`, at most 10 list items, nesting beyond two levels abbreviated.
    public var inspected: String {
        var output = ""
        inspect(into: &output, depth: 0)
        return output
    }

    private func inspect(into output: inout String, depth: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let bool): output += bool ? "true" : "false"
        case .int(let int): output += String(int)
        case .float(let double): output += JavaScriptNumber.string(double)
        case .string(let string): JSONWriter.appendQuoted(string, to: &output)
        case .list(let items):
            if items.isEmpty { output += "[]"; return }
            if depth >= 2 { output += "[Array]"; return }
            output += "["
            for (index, item) in items.prefix(10).enumerated() {
                if index > 0 { output += ", " }
                item.inspect(into: &output, depth: depth + 1)
            }
            let remaining = items.count - 10
            if remaining == 1 { output += ", ... 1 more item" }
            if remaining > 1 { output += ", ... \(remaining) more items" }
            output += "]"
        case .object(let object):
            if object.isEmpty { output += "{}"; return }
            if depth >= 2 { output += "[Object]"; return }
            output += "{ "
            for (index, entry) in object.entries.enumerated() {
                if index > 0 { output += ", " }
                output += entry.key + ": "
                entry.value.inspect(into: &output, depth: depth + 1)
            }
            output += " }"
        }
    }
}
