import Foundation

/// A label's colour: `#RRGGBB` (stored upper-case), or one of the named colours, each mapped
/// to a fixed hex so every client shows the same shade.
public enum LabelColor {
    /// The named colours and their hex values (Apple's system palette, light appearance).
    public static let named: [(name: String, hex: String)] = [
        ("red", "#FF3B30"), ("orange", "#FF9500"), ("yellow", "#FFCC00"), ("green", "#34C759"),
        ("mint", "#00C7BE"), ("teal", "#30B0C7"), ("cyan", "#32ADE6"), ("blue", "#007AFF"),
        ("indigo", "#5856D6"), ("purple", "#AF52DE"), ("pink", "#FF2D55"), ("brown", "#A2845E"),
        ("gray", "#8E8E93"),
    ]

    /// `raw` as `#RRGGBB`; refused (naming `field`) when it is neither a hex colour nor a name.
    public static func parse(_ raw: String, field: String = "color") throws(ServiceError) -> String {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if let hit = named.first(where: { $0.name == text.lowercased() }) { return hit.hex }
        let digits = text.hasPrefix("#") ? text.dropFirst() : ""
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit) else {
            let names = named.map(\.name).joined(separator: ", ")
            throw .invalidInput(field: field, message: "\(field) must be #RRGGBB or one of \(names); \"\(text.prefix(40))\" is neither.")
        }
        return "#" + digits.uppercased()
    }
}
