import Foundation

extension RecurrenceRule {
    /// The most dates one preview answers.
    public static let maximumPreview = 100

    /// The first `first` occurrences (1–100) of `rule` for a series starting at `start`, repeating
    /// at the wall time `start` shows in `zone`: what a client's repeat picker shows, with no
    /// household needed.
    public static func preview(_ rule: String, start: Date, zone: TimeZone, first: Int) throws(ServiceError) -> [Date] {
        guard (1...maximumPreview).contains(first) else {
            throw .invalidInput(field: "first", message: "first must be from 1 to \(maximumPreview), not \(first).")
        }
        return try RecurrenceRule(parsing: rule).occurrences(start: start, in: zone, limit: first)
    }
}
