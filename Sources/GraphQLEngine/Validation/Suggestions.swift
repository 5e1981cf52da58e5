/// "Did you mean …?" hints, chosen and worded as graphql-js chooses and words them.
enum Suggestions {
    /// The options within edit distance `⌊0.4 × length⌋ + 1` of `input` (case changes count as one
    /// edit, transpositions as one), closest first, ties in natural order.
    static func list(_ input: String, _ options: some Sequence<String>) -> [String] {
        var measure = LexicalDistance(input)
        let threshold = input.utf16.count * 2 / 5 + 1
        var found: [(option: String, distance: Int)] = []
        var seen: Set<String> = []
        for option in options {
            guard let distance = measure.distance(to: option, threshold: threshold) else { continue }
            if seen.insert(option).inserted {
                found.append((option, distance))
            } else if let index = found.firstIndex(where: { $0.option == option }) {
                found[index].distance = distance
            }
        }
        found.sort { a, b in
            a.distance != b.distance ? a.distance < b.distance : naturalCompare(a.option, b.option) < 0
        }
        return found.map(\.option)
    }

    /// ` Did you mean "a", "b", or "c"?` (at most five), or "" when there is nothing to suggest.
    static func didYouMean(_ suggestions: [String], subMessage: String? = nil) -> String {
        guard !suggestions.isEmpty else { return "" }
        var message = " Did you mean "
        if let subMessage { message += subMessage + " " }
        let quoted = suggestions.prefix(5).map { "\"\($0)\"" }
        switch quoted.count {
        case 1: return message + quoted[0] + "?"
        case 2: return message + quoted[0] + " or " + quoted[1] + "?"
        default: return message + quoted.dropLast().joined(separator: ", ") + ", or " + quoted[quoted.count - 1] + "?"
        }
    }

    /// Compares strings with runs of digits taken as numbers: "a2" < "a10".
    static func naturalCompare(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf16)
        let b = Array(b.utf16)
        var i = 0
        var j = 0
        func isDigit(_ unit: UInt16) -> Bool { unit >= 48 && unit <= 57 }
        while i < a.count && j < b.count {
            if isDigit(a[i]) && isDigit(b[j]) {
                var aNumber = 0
                repeat {
                    aNumber = aNumber &* 10 &+ Int(a[i] - 48)
                    i += 1
                } while i < a.count && isDigit(a[i]) && aNumber > 0
                var bNumber = 0
                repeat {
                    bNumber = bNumber &* 10 &+ Int(b[j] - 48)
                    j += 1
                } while j < b.count && isDigit(b[j]) && bNumber > 0
                if aNumber != bNumber { return aNumber < bNumber ? -1 : 1 }
            } else {
                if a[i] != b[j] { return a[i] < b[j] ? -1 : 1 }
                i += 1
                j += 1
            }
        }
        return a.count - b.count
    }
}

/// Damerau–Levenshtein distance (optimal string alignment) from one input to many options,
/// giving up early past a threshold; three rolling rows are reused between options.
struct LexicalDistance {
    let input: String
    let inputLowercased: [UInt16]
    let inputLowercasedString: String
    var rows: [[Int]]

    init(_ input: String) {
        self.input = input
        self.inputLowercasedString = input.lowercased()
        self.inputLowercased = Array(inputLowercasedString.utf16)
        let width = input.utf16.count + 1
        self.rows = [Array(repeating: 0, count: width), Array(repeating: 0, count: width), Array(repeating: 0, count: width)]
    }

    mutating func distance(to option: String, threshold: Int) -> Int? {
        if option == input { return 0 }
        let optionLowercasedString = option.lowercased()
        if optionLowercasedString == inputLowercasedString { return 1 }
        var a = Array(optionLowercasedString.utf16)
        var b = inputLowercased
        if a.count < b.count { swap(&a, &b) }
        let aLength = a.count
        let bLength = b.count
        if aLength - bLength > threshold { return nil }
        if rows[0].count < bLength + 1 {
            rows = [Array(repeating: 0, count: bLength + 1), Array(repeating: 0, count: bLength + 1),
                    Array(repeating: 0, count: bLength + 1)]
        }
        for j in 0...bLength { rows[0][j] = j }
        if aLength == 0 { return bLength <= threshold ? bLength : nil }
        for i in 1...aLength {
            let up = (i - 1) % 3
            let current = i % 3
            rows[current][0] = i
            var smallest = i
            if bLength > 0 {
                for j in 1...bLength {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var cell = min(rows[up][j] + 1, rows[current][j - 1] + 1, rows[up][j - 1] + cost)
                    if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                        cell = min(cell, rows[(i - 2) % 3][j - 2] + 1)
                    }
                    if cell < smallest { smallest = cell }
                    rows[current][j] = cell
                }
            }
            if smallest > threshold { return nil }
        }
        let distance = rows[aLength % 3][bLength]
        return distance <= threshold ? distance : nil
    }
}
