import Foundation

/// A rule's `fields`, with CASL's wildcards: `*` stands for one level of a dotted field name and
/// `**` for any depth; `author.*` covers `author` and `author.name` but not `author.address.city`,
/// `author.**` covers all three, `*.name` needs one level before `.name`, `street*` covers
/// `street` and `street1`. A checked field that itself holds `*` matches only literally.
struct FieldPattern: @unchecked Sendable {
    // NSRegularExpression is immutable and thread-safe for matching.
    let fields: [String]
    private let expression: NSRegularExpression?

    init(_ fields: [String]) {
        self.fields = fields
        guard fields.contains(where: { $0.contains("*") }) else {
            expression = nil
            return
        }
        let alternatives = fields.map(Self.regex(for:))
        let body = alternatives.count > 1 ? "(?:" + alternatives.joined(separator: "|") + ")" : alternatives[0]
        expression = try? NSRegularExpression(pattern: "^" + body + "$")
    }

    func matches(_ field: String) -> Bool {
        guard let expression, !field.contains("*") else { return fields.contains(field) }
        return expression.firstMatch(in: field, range: NSRange(field.startIndex..., in: field)) != nil
    }

    /// The regular expression for one field pattern. Runs of `*` (with a dot on either side)
    /// become `[^.]` (one star) or `.` (two or more) repeated: at least once when the pattern starts
    /// with a star or the run sits between two dots, else any number of times; a run that ends the
    /// pattern is optional as a whole, so `author.*` also covers `author`.
    static func regex(for field: String) -> String {
        let characters = Array(field)
        var output = ""
        var index = 0
        let startsWithStar = characters.first == "*"
        while index < characters.count {
            // Find a wildcard run: optional dot, stars, optional dot.
            var end = index
            var leadingDot = false
            if characters[end] == ".", end + 1 < characters.count, characters[end + 1] == "*" {
                leadingDot = true
                end += 1
            }
            if characters[end] == "*" {
                var stars = 0
                while end < characters.count, characters[end] == "*" {
                    stars += 1
                    end += 1
                }
                var trailingDot = false
                if end < characters.count, characters[end] == "." {
                    trailingDot = true
                    end += 1
                }
                let quantifier = startsWithStar || (leadingDot && trailingDot) ? "+" : "*"
                let matcher = stars > 1 ? "." : "[^.]"
                let piece = (leadingDot ? "\\." : "") + matcher + quantifier + (trailingDot ? "\\." : "")
                output += end == characters.count ? "(?:" + piece + ")?" : piece
                index = end
                continue
            }
            let character = characters[index]
            if "-/\\^$+?.()|[]{}".contains(character) { output += "\\" }
            output.append(character)
            index += 1
        }
        return output
    }
}
