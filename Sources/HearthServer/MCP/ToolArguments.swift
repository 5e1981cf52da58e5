import Foundation
import HearthCore
import MCP

/// A tool call's arguments, read forgivingly: small models send numbers as strings, lists as
/// comma-separated text and empty strings for "not given", so each reader accepts those; what
/// cannot be read is refused naming the argument.
struct ToolArguments: Sendable {
    let values: [String: Value]

    init(_ values: [String: Value]?) {
        self.values = values ?? [:]
    }

    /// Text, trimmed; nil when absent, null or empty. Numbers and booleans are read as their text.
    func string(_ name: String) -> String? {
        let text: String
        switch values[name] {
        case .string(let value)?: text = value
        case .int(let value)?: text = String(value)
        case .double(let value)?: text = String(value)
        case .bool(let value)?: text = String(value)
        default: return nil
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Text that must be there.
    func required(_ name: String) throws(ServiceError) -> String {
        guard let text = string(name) else { throw .invalidInput(field: name, message: "\(name) is required.") }
        return text
    }

    /// A whole number, given as a number or as text.
    func int(_ name: String) throws(ServiceError) -> Int? {
        switch values[name] {
        case .int(let value)?: return value
        case .double(let value)? where value.rounded() == value && abs(value) < 1e15: return Int(value)
        default:
            guard let text = string(name) else { return nil }
            guard let number = Int(text) else { throw .invalidInput(field: name, message: "\(name) must be a whole number; \"\(text.prefix(40))\" is not.") }
            return number
        }
    }

    /// A number, given as a number or as text.
    func double(_ name: String) throws(ServiceError) -> Double? {
        switch values[name] {
        case .int(let value)?: return Double(value)
        case .double(let value)?: return value
        default:
            guard let text = string(name) else { return nil }
            guard let number = Double(text), number.isFinite else {
                throw .invalidInput(field: name, message: "\(name) must be a number; \"\(text.prefix(40))\" is not.")
            }
            return number
        }
    }

    /// Yes or no: a boolean, or true/false/yes/no as text.
    func bool(_ name: String) throws(ServiceError) -> Bool? {
        if case .bool(let value)? = values[name] { return value }
        guard let text = string(name)?.lowercased() else { return nil }
        switch text {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default: throw .invalidInput(field: name, message: "\(name) must be true or false; \"\(text.prefix(40))\" is neither.")
        }
    }

    /// A list: an array of strings, or one string of comma-separated items.
    func list(_ name: String) -> [String] {
        let items: [String]
        switch values[name] {
        case .array(let array)?: items = array.compactMap { if case .string(let text) = $0 { text } else { nil } }
        case .string(let text)?: items = text.split(separator: ",").map(String.init)
        default: items = []
        }
        return items.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    /// Whether a list was given: an array (even empty, to clear), or non-empty text.
    func givesList(_ name: String) -> Bool {
        if case .array? = values[name] { return true }
        return string(name) != nil
    }

    /// An id.
    func uuid(_ name: String) throws(ServiceError) -> UUID? {
        guard let text = string(name) else { return nil }
        guard let id = UUID(uuidString: text) else { throw .invalidInput(field: name, message: "\(name) must be an id (a UUID); \"\(text.prefix(60))\" is not.") }
        return id
    }

    /// A moment: RFC 3339 (`2026-11-24T09:00:00Z`, with an offset or Z), or a local date-time
    /// (`2026-11-24T09:00`) or date (`2026-11-24`, at `hourForDates`) read in `timeZone`.
    func date(_ name: String, in timeZone: TimeZone, hourForDates: Int = 9) throws(ServiceError) -> Date? {
        guard let text = string(name) else { return nil }
        guard let date = Self.parseDate(text, in: timeZone, hourForDates: hourForDates) else {
            throw .invalidInput(field: name, message: """
                \(name) must be a date-time like 2026-11-24T09:00 (in the household's time zone, \(timeZone.identifier)), \
                2026-11-24T09:00:00Z, or a date like 2026-11-24; "\(text.prefix(60))" is none of these.
                """)
        }
        return date
    }

    /// Whether `text` is a bare date (`YYYY-MM-DD`).
    static func isDate(_ text: String) -> Bool {
        text.count == 10 && parseLocal(text, format: "yyyy-MM-dd", in: .gmt) != nil
    }

    static func parseDate(_ text: String, in timeZone: TimeZone, hourForDates: Int) -> Date? {
        let rfc3339 = ISO8601DateFormatter()
        rfc3339.formatOptions = [.withInternetDateTime]
        if let date = rfc3339.date(from: text) { return date }
        rfc3339.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = rfc3339.date(from: text) { return date }
        for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm"] {
            if let date = parseLocal(text, format: format, in: timeZone) { return date }
        }
        if isDate(text), let day = parseLocal(text, format: "yyyy-MM-dd", in: timeZone) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            return calendar.date(bySettingHour: hourForDates, minute: 0, second: 0, of: day)
        }
        return nil
    }

    private static func parseLocal(_ text: String, format: String, in timeZone: TimeZone) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = timeZone
        formatter.dateFormat = format
        formatter.isLenient = false
        guard let date = formatter.date(from: text), formatter.string(from: date) == text else { return nil }
        return date
    }
}
