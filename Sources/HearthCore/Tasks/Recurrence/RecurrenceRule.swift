import Foundation

/// An RFC 5545 `RRULE` of the parts Hearth repeats by: a frequency of a day or longer, an
/// interval, an end (a count or an instant), and the BYMONTH, BYMONTHDAY, BYDAY (with ordinals),
/// BYSETPOS and WKST parts. Parse one with ``init(parsing:)``; ``text`` is its normal form.
public struct RecurrenceRule: Sendable, Hashable {
    public enum Frequency: String, Sendable, CaseIterable {
        case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
    }

    /// A day of the week, numbered as RFC 5545 lists them from Monday (0) to Sunday (6).
    public enum Weekday: Int, Sendable, CaseIterable, Comparable {
        case monday, tuesday, wednesday, thursday, friday, saturday, sunday

        public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }

        /// `MO` … `SU`.
        public var code: String { ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][rawValue] }

        /// The weekday of a day count since 1970-01-01 (a Thursday).
        public static func of(day: Int) -> Weekday {
            Weekday(rawValue: ((day + 3) % 7 + 7) % 7) ?? .monday
        }
    }

    /// One BYDAY entry: a weekday, and for monthly and yearly rules optionally which one of the
    /// month or year (`2TU` the second Tuesday, `-1FR` the last Friday).
    public struct WeekdayEntry: Sendable, Hashable {
        public var weekday: Weekday
        public var ordinal: Int?

        public init(_ weekday: Weekday, ordinal: Int? = nil) {
            self.weekday = weekday
            self.ordinal = ordinal
        }

        var text: String { (ordinal.map(String.init) ?? "") + weekday.code }
    }

    /// When a rule ends: after `count` occurrences, at an instant, or on a local date or time
    /// (an UNTIL without `Z`, read in the zone the rule repeats in).
    public enum End: Sendable, Hashable {
        case count(Int)
        case until(Date)
        case untilLocal(year: Int, month: Int, day: Int, secondOfDay: Int?)
    }

    public var frequency: Frequency
    public var interval: Int
    public var end: End?
    public var byMonth: [Int]
    public var byMonthDay: [Int]
    public var byDay: [WeekdayEntry]
    public var bySetPosition: [Int]
    public var weekStart: Weekday

    public init(
        frequency: Frequency, interval: Int = 1, end: End? = nil, byMonth: [Int] = [], byMonthDay: [Int] = [],
        byDay: [WeekdayEntry] = [], bySetPosition: [Int] = [], weekStart: Weekday = .monday
    ) {
        self.frequency = frequency
        self.interval = interval
        self.end = end
        self.byMonth = byMonth
        self.byMonthDay = byMonthDay
        self.byDay = byDay
        self.bySetPosition = bySetPosition
        self.weekStart = weekStart
    }

    /// The occurrence count that ends the rule, if any.
    public var count: Int? {
        if case .count(let count) = end { return count }
        return nil
    }

    /// The normal form: FREQ first, then INTERVAL (when not 1), COUNT or UNTIL, BYMONTH,
    /// BYMONTHDAY, BYDAY, BYSETPOS, WKST (when not Monday), each list sorted without repeats.
    public var text: String {
        var parts = ["FREQ=" + frequency.rawValue]
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        switch end {
        case .count(let count): parts.append("COUNT=\(count)")
        case .until(let instant): parts.append("UNTIL=" + instant.basicFormat(in: .gmt) + "Z")
        case .untilLocal(let year, let month, let day, let second):
            let date = Self.pad(year, 4) + Self.pad(month, 2) + Self.pad(day, 2)
            parts.append("UNTIL=" + date + (second.map { "T" + Self.pad($0 / 3600, 2) + Self.pad($0 % 3600 / 60, 2) + Self.pad($0 % 60, 2) } ?? ""))
        case nil: break
        }
        if !byMonth.isEmpty { parts.append("BYMONTH=" + byMonth.map(String.init).joined(separator: ",")) }
        if !byMonthDay.isEmpty { parts.append("BYMONTHDAY=" + byMonthDay.map(String.init).joined(separator: ",")) }
        if !byDay.isEmpty { parts.append("BYDAY=" + byDay.map(\.text).joined(separator: ",")) }
        if !bySetPosition.isEmpty { parts.append("BYSETPOS=" + bySetPosition.map(String.init).joined(separator: ",")) }
        if weekStart != .monday { parts.append("WKST=" + weekStart.code) }
        return parts.joined(separator: ";")
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
