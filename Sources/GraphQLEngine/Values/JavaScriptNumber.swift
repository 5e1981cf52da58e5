/// Numbers as JavaScript writes and reads them, so Hearth's output matches graphql-js's.
enum JavaScriptNumber {
    /// `String(number)` in JavaScript (graphql-js's messages, `JSON.stringify`, printed defaults):
    /// the shortest round-trip digits, in positional notation for exponents from -7 to 20, else
    /// `1e+21` style.
    static func string(_ number: Double) -> String {
        guard number.isFinite else { return number.isNaN ? "NaN" : (number < 0 ? "-Infinity" : "Infinity") }
        if number == number.rounded(.towardZero), abs(number) < 1e15 { return String(Int(number)) }
        let negative = number < 0
        // Swift's description is also the shortest round-trip form; take its digits and exponent.
        var text = "\(abs(number))"
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = String(text[..<e])
        }
        var digits = text
        var pointPosition = digits.count
        if let point = digits.firstIndex(of: ".") {
            pointPosition = digits.distance(from: digits.startIndex, to: point)
            digits.remove(at: point)
        }
        // Strip leading zeros (moving the point) and trailing zeros.
        while digits.count > 1 && digits.first == "0" {
            digits.removeFirst()
            pointPosition -= 1
        }
        while digits.count > 1 && digits.last == "0" { digits.removeLast() }
        let k = digits.count
        let n = pointPosition + exponent
        var result: String
        if k <= n && n <= 21 {
            result = digits + String(repeating: "0", count: n - k)
        } else if 0 < n && n <= 21 {
            result = String(digits.prefix(n)) + "." + String(digits.dropFirst(n))
        } else if -6 < n && n <= 0 {
            result = "0." + String(repeating: "0", count: -n) + digits
        } else {
            let e = n - 1
            result = String(digits.prefix(1)) + (k > 1 ? "." + String(digits.dropFirst()) : "") + "e"
                + (e >= 0 ? "+" : "-") + String(abs(e))
        }
        return negative ? "-" + result : result
    }

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
    fileprivate func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let end = scalars.lastIndex(where: { !$0.properties.isWhitespace }) ?? start
        return String(scalars[start...end])
    }
}
