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

/// JavaScript's `String(number)`, which graphql-js's messages and `JSON.stringify` use.
enum JavaScriptNumber {
    static func string(_ number: Double) -> String {
        guard number.isFinite else { return number.isNaN ? "NaN" : (number < 0 ? "-Infinity" : "Infinity") }
        if number == number.rounded(.towardZero), abs(number) < 1e15 { return String(Int(number)) }
        return DefaultValue.javaScriptString(number)
    }
}

extension JavaScriptNumber {
    /// JavaScript's `Number(string)` for the forms data carries: decimal (surrounding whitespace
    /// ignored), `Infinity`, hexadecimal; `nil` where JavaScript gives `NaN`.
    static func parse(_ string: String) -> Double? {
        let trimmed = string.trimmingWhitespace()
        if trimmed.isEmpty { return 0 }
        switch trimmed {
        case "Infinity", "+Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: break
        }
        if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X") {
            return UInt64(trimmed.dropFirst(2), radix: 16).map(Double.init)
        }
        // Swift accepts forms JavaScript rejects (nan, inf, hex floats); allow digits, sign, point, exponent only.
        guard trimmed.utf8.allSatisfy({ (48...57).contains($0) || $0 == 43 || $0 == 45 || $0 == 46 || $0 == 101 || $0 == 69 })
        else { return nil }
        return Double(trimmed)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let end = scalars.lastIndex(where: { !$0.properties.isWhitespace }) ?? start
        return String(scalars[start...end])
    }
}
