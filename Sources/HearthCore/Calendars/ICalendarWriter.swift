import Foundation

/// Writes iCalendar (RFC 5545) text: content lines `NAME;PARAM=value:VALUE` ended by CRLF, folded
/// at 75 octets without splitting a UTF-8 character, TEXT values escaped (`\\`, `\;`, `\,`, `\n`),
/// and date-times in UTC (`20261126T093000Z`) or local to a zone (`TZID=Europe/Berlin:20261126T103000`).
public struct ICalendarWriter: Sendable {
    /// What was written so far.
    public internal(set) var output = ""

    public init() {}

    /// `BEGIN:<component>`.
    public mutating func begin(_ component: String) { line("BEGIN", raw: component) }
    /// `END:<component>`.
    public mutating func end(_ component: String) { line("END", raw: component) }

    /// A property whose value is TEXT (escaped here).
    public mutating func text(_ name: String, _ value: String, parameters: [(String, String)] = []) {
        line(name, parameters: parameters, raw: Self.escape(value))
    }

    /// A property whose value is a list of TEXT (each escaped, joined by commas), e.g. CATEGORIES.
    public mutating func texts(_ name: String, _ values: [String]) {
        guard !values.isEmpty else { return }
        line(name, raw: values.map(Self.escape).joined(separator: ","))
    }

    /// A DATE-TIME in UTC.
    public mutating func utc(_ name: String, _ date: Date) {
        line(name, raw: Self.utc(date))
    }

    /// A DATE-TIME local to `zone` (with its TZID, which needs that zone's VTIMEZONE in the calendar);
    /// in UTC when the zone is UTC itself.
    public mutating func local(_ name: String, _ date: Date, in zone: TimeZone) {
        if zone.secondsFromGMT() == 0 && zone.nextDaylightSavingTimeTransition(after: date) == nil {
            utc(name, date)
        } else {
            line(name, parameters: [("TZID", zone.identifier)], raw: Self.local(date, in: zone))
        }
    }

    /// A property written as given (its value already in its type's syntax).
    public mutating func line(_ name: String, parameters: [(String, String)] = [], raw value: String) {
        var line = name
        for (key, parameter) in parameters {
            let quoted = parameter.contains(where: { ";:,".contains($0) }) ? "\"\(parameter.replacingOccurrences(of: "\"", with: "'"))\"" : parameter
            line += ";\(key)=\(quoted)"
        }
        line += ":" + value
        output += Self.fold(line) + "\r\n"
    }

    /// TEXT escaping (RFC 5545 3.3.11); line breaks become `\n`.
    public static func escape(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case ";": escaped += "\\;"
            case ",": escaped += "\\,"
            case "\r\n", "\n", "\r": escaped += "\\n"
            default:
                // Other control characters are not allowed in TEXT: left out.
                if character.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) || character == "\t" { escaped.append(character) }
            }
        }
        return escaped
    }

    /// Folds a content line at 75 octets: CRLF and one space before each continuation, never inside a character.
    public static func fold(_ line: String) -> String {
        guard line.utf8.count > 75 else { return line }
        var folded = ""
        var width = 0
        for character in line {
            let size = character.utf8.count
            if width + size > 75 {
                folded += "\r\n "
                width = 1
            }
            folded.append(character)
            width += size
        }
        return folded
    }

    public static func utc(_ date: Date) -> String {
        date.basicFormat(in: .gmt) + "Z"
    }

    public static func local(_ date: Date, in zone: TimeZone) -> String {
        date.basicFormat(in: zone)
    }

    /// A UTC offset as iCalendar writes it: `+0100`, `-0530`.
    static func offset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        let (hours, rest) = (minutes / 60, minutes % 60)
        return sign + (hours < 10 ? "0" : "") + String(hours) + (rest < 10 ? "0" : "") + String(rest)
    }
}
