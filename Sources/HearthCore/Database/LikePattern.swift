/// LIKE patterns built from someone's text, with `%`, `_` and `\` in it taken literally.
enum LikePattern {
    static func escaped(_ text: String) -> String {
        var pattern = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern
    }

    /// Matches text starting with `text`.
    static func prefix(_ text: String) -> String { escaped(text) + "%" }

    /// Matches text containing `text`.
    static func containing(_ text: String) -> String { "%" + escaped(text) + "%" }
}
