import Foundation

/// A DATE or DATE-TIME value as read: the moment, and whether it was a whole day (`VALUE=DATE`).
public struct ICalendarTime: Sendable, Equatable {
    public var date: Date
    public var isDay: Bool
}

/// How the TZIDs of a calendar's times are read: by their IANA name when the system knows it, else
/// by the calendar's own VTIMEZONE (its `X-LIC-LOCATION`, or its newest standard offset); a time
/// with no zone (floating) is in the household's zone.
public struct ICalendarZones: Sendable {
    var byID: [String: TimeZone] = [:]
    public var fallback: TimeZone

    public init(calendar: ICalendarComponent, fallback: TimeZone) {
        self.fallback = fallback
        for zone in calendar.components where zone.name == "VTIMEZONE" {
            guard let id = zone.first("TZID")?.value else { continue }
            if let named = TimeZone(identifier: id) ?? zone.first("X-LIC-LOCATION").flatMap({ TimeZone(identifier: $0.value) }) {
                byID[id] = named
            } else if let standard = zone.components.filter({ $0.name == "STANDARD" }).max(by: { ($0.first("DTSTART")?.value ?? "") < ($1.first("DTSTART")?.value ?? "") }),
                      let offset = standard.first("TZOFFSETTO").flatMap({ Self.offset($0.value) }),
                      let fixed = TimeZone(secondsFromGMT: offset) {
                byID[id] = fixed
            }
        }
    }

    func zone(_ id: String?) -> TimeZone {
        guard let id else { return fallback }
        return byID[id] ?? TimeZone(identifier: id) ?? fallback
    }

    /// `+0100`, `-053000` → seconds east of UTC.
    static func offset(_ text: String) -> Int? {
        let digits = text.dropFirst()
        guard let sign = text.first, sign == "+" || sign == "-", digits.count == 4 || digits.count == 6, digits.allSatisfy(\.isASCII),
              let hours = Int(digits.prefix(2)), let minutes = Int(digits.dropFirst(2).prefix(2)) else { return nil }
        let seconds = digits.count == 6 ? Int(digits.suffix(2)) ?? 0 : 0
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60 + seconds)
    }
}

extension ICalendarReader {
    /// A DATE-TIME in UTC (`20261101T000000Z`) or a DATE, as a CalDAV time-range writes it; nil when it is neither.
    public static func utcTime(_ text: String) -> Date? {
        let property = ICalendarProperty(name: "TIME", parameters: [:], value: text, line: 0, text: text)
        let none = ICalendarComponent(name: "VCALENDAR", properties: [], components: [], line: 0)
        return try? property.time(ICalendarZones(calendar: none, fallback: .gmt)).date
    }
}

extension ICalendarProperty {
    /// The value as a DATE (`20261130`) or DATE-TIME (`20261130T093000Z`, or local with a TZID, or floating).
    public func time(_ zones: ICalendarZones) throws(ICalendarError) -> ICalendarTime {
        let text = value.trimmingCharacters(in: .whitespaces)
        let invalid = ICalendarError(line: line, message: "\(name) is not a date or date-time (like 20261130 or 20261130T093000Z): \"\(value.prefix(40))\".")
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, bytes[range].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8) else { throw invalid }
        var components = DateComponents(year: year, month: month, day: day)
        var zone = zones.zone(parameters["TZID"])
        let isDay = bytes.count == 8
        if !isDay {
            guard bytes.count == 15 || (bytes.count == 16 && bytes[15] == UInt8(ascii: "Z")), bytes[8] == UInt8(ascii: "T"),
                  let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15), hour < 24, minute < 60, second <= 60
            else { throw invalid }
            (components.hour, components.minute, components.second) = (hour, minute, min(second, 59))
            if bytes.count == 16 { zone = .gmt }
        } else if parameters["VALUE"].map({ $0.uppercased() != "DATE" }) ?? false {
            throw invalid
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { throw invalid }
        return ICalendarTime(date: date, isDay: isDay)
    }

    /// The value as a DURATION (`PT15M`, `-P1D`, `P1W`), in seconds.
    public func duration() throws(ICalendarError) -> TimeInterval {
        guard let seconds = Self.duration(value.trimmingCharacters(in: .whitespaces)) else {
            throw ICalendarError(line: line, message: "\(name) is not a duration (like PT15M, -P1D or P1W): \"\(value.prefix(40))\".")
        }
        return seconds
    }

    static func duration(_ text: String) -> TimeInterval? {
        var rest = Substring(text.uppercased())
        var sign = 1.0
        if rest.first == "-" { sign = -1; rest = rest.dropFirst() } else if rest.first == "+" { rest = rest.dropFirst() }
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var total = 0.0
        var digits = ""
        var inTime = false
        var any = false
        for character in rest {
            if character.isASCII, character.isNumber {
                digits.append(character)
                continue
            }
            if character == "T" {
                guard digits.isEmpty, !inTime else { return nil }
                inTime = true
                continue
            }
            guard let amount = Double(digits), digits.count <= 9 else { return nil }
            digits = ""
            any = true
            switch (character, inTime) {
            case ("W", false): total += amount * 604_800
            case ("D", false): total += amount * 86_400
            case ("H", true): total += amount * 3600
            case ("M", true): total += amount * 60
            case ("S", true): total += amount
            default: return nil
            }
        }
        guard digits.isEmpty, any else { return nil }
        return sign * total
    }
}
