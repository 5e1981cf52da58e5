import Foundation

extension RecurrenceRule {
    /// The most occurrences `COUNT` may ask for, and the largest `INTERVAL`.
    public static let maximumCount = 100_000
    public static let maximumInterval = 1_000

    /// Parses an `RRULE` value (`FREQ=MONTHLY;BYDAY=-1FR`, with or without `RRULE:`). A part Hearth
    /// does not repeat by (finer than daily, BYYEARDAY, BYWEEKNO, BYHOUR…), a malformed value or a
    /// combination RFC 5545 forbids is `BAD_USER_INPUT` naming the part; `field` is the input's name.
    public init(parsing raw: String, field: String = "rule") throws(ServiceError) {
        func refuse(_ message: String) -> ServiceError {
            .invalidInput(field: field, message: "The repeat rule \"\(raw.prefix(120))\" cannot be used: \(message)")
        }
        var text = raw.trimmingWhitespace()  // by hand: Foundation's trimming goes through NSString, a visible cost per agenda
        if text.uppercased().hasPrefix("RRULE:") { text = String(text.dropFirst(6)) }
        guard !text.isEmpty else { throw refuse("it is empty; it needs at least FREQ (like FREQ=WEEKLY).") }
        guard text.utf8.count <= 1_000 else { throw refuse("it is longer than 1000 characters.") }
        var seen: Set<String> = []
        var frequency: Frequency?
        var interval = 1
        var count: Int?
        var until: End?
        var byMonth: [Int] = [], byMonthDay: [Int] = [], bySetPosition: [Int] = []
        var byDay: [WeekdayEntry] = []
        var weekStart = Weekday.monday
        for part in text.split(separator: ";", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pieces[0]).trimmingWhitespace().uppercased()
            guard pieces.count == 2 else { throw refuse("\(name) has no value (parts are NAME=VALUE, separated by ;).") }
            let value = String(pieces[1]).trimmingWhitespace().uppercased()
            guard seen.insert(name).inserted else { throw refuse("\(name) appears twice.") }
            guard !value.isEmpty else { throw refuse("\(name) has no value.") }
            func integers(_ range: ClosedRange<Int>, zero: Bool = false) throws(ServiceError) -> [Int] {
                var list: [Int] = []
                for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let number = Self.integer(item), range.contains(number), zero || number != 0 else {
                        throw refuse("\(name) takes numbers from \(range.lowerBound) to \(range.upperBound)\(zero ? "" : " other than 0"); \"\(item)\" is not one.")
                    }
                    list.append(number)
                }
                return Array(Set(list)).sorted()
            }
            switch name {
            case "FREQ":
                if let known = Frequency(rawValue: value) {
                    frequency = known
                } else if ["SECONDLY", "MINUTELY", "HOURLY"].contains(value) {
                    throw refuse("FREQ=\(value) is not supported: Hearth repeats things at most daily.")
                } else {
                    throw refuse("FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY, not \(value).")
                }
            case "INTERVAL":
                guard let number = Self.integer(Substring(value)), (1...Self.maximumInterval).contains(number) else {
                    throw refuse("INTERVAL must be a whole number from 1 to \(Self.maximumInterval), not \(value).")
                }
                interval = number
            case "COUNT":
                guard let number = Self.integer(Substring(value)), number >= 1 else {
                    throw refuse("COUNT must be a whole number of at least 1, not \(value).")
                }
                guard number <= Self.maximumCount else { throw refuse("COUNT may be at most \(Self.maximumCount).") }
                count = number
            case "UNTIL":
                guard let end = Self.until(value) else {
                    throw refuse("UNTIL must be a date (20271231) or a date and time (20271231T235959Z), not \(value).")
                }
                until = end
            case "BYMONTH": byMonth = try integers(1...12)
            case "BYMONTHDAY": byMonthDay = try integers(-31...31)
            case "BYSETPOS": bySetPosition = try integers(-366...366)
            case "BYDAY":
                var entries: [WeekdayEntry] = []
                for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                    guard item.count >= 2, let weekday = Weekday.allCases.first(where: { $0.code == String(item.suffix(2)) }) else {
                        throw refuse("BYDAY lists weekdays (MO, TU, WE, TH, FR, SA, SU), each maybe with a position (2TU, -1FR); \"\(item)\" is not one.")
                    }
                    let prefix = item.dropLast(2)
                    var ordinal: Int?
                    if !prefix.isEmpty {
                        guard let number = Self.integer(prefix), number != 0, (-53...53).contains(number) else {
                            throw refuse("the position in BYDAY's \"\(item)\" must be from 1 to 53 or -53 to -1.")
                        }
                        ordinal = number
                    }
                    let entry = WeekdayEntry(weekday, ordinal: ordinal)
                    if !entries.contains(entry) { entries.append(entry) }
                }
                byDay = entries.sorted { ($0.ordinal ?? 0, $0.weekday) < ($1.ordinal ?? 0, $1.weekday) }
            case "WKST":
                guard let day = Weekday.allCases.first(where: { $0.code == value }) else {
                    throw refuse("WKST must be a weekday (MO, TU, WE, TH, FR, SA or SU), not \(value).")
                }
                weekStart = day
            case "BYSECOND", "BYMINUTE", "BYHOUR", "BYYEARDAY", "BYWEEKNO":
                throw refuse("\(name) is not supported: Hearth repeats by FREQ, INTERVAL, COUNT, UNTIL, BYMONTH, BYMONTHDAY, BYDAY, BYSETPOS and WKST.")
            default:
                throw refuse("\(name) is not a part of a repeat rule (RFC 5545's RRULE).")
            }
        }
        guard let frequency else { throw refuse("it has no FREQ (DAILY, WEEKLY, MONTHLY or YEARLY).") }
        if count != nil && until != nil { throw refuse("COUNT and UNTIL cannot both be given (RFC 5545): it ends one way.") }
        if let ordinal = byDay.compactMap(\.ordinal).first {
            switch frequency {
            case .daily, .weekly:
                throw refuse("a position in BYDAY (like \(ordinal)MO) needs FREQ=MONTHLY or YEARLY.")
            case .monthly where abs(ordinal) > 5:
                throw refuse("a month has at most five of a weekday, so a BYDAY position of \(ordinal) never occurs.")
            case .yearly where !byMonth.isEmpty && abs(ordinal) > 5:
                throw refuse("with BYMONTH, BYDAY's positions count within the month: at most five, not \(ordinal).")
            default: break
            }
        }
        if frequency == .weekly && !byMonthDay.isEmpty { throw refuse("BYMONTHDAY cannot be used with FREQ=WEEKLY (RFC 5545).") }
        if !bySetPosition.isEmpty && byMonth.isEmpty && byMonthDay.isEmpty && byDay.isEmpty {
            throw refuse("BYSETPOS picks among the days another BY part gives (BYDAY, BYMONTHDAY or BYMONTH); there is none.")
        }
        self.init(frequency: frequency, interval: interval, end: count.map(End.count) ?? until, byMonth: byMonth, byMonthDay: byMonthDay,
                  byDay: byDay, bySetPosition: bySetPosition, weekStart: weekStart)
    }

    /// A signed decimal integer of at most 9 digits.
    private static func integer(_ text: Substring) -> Int? {
        var digits = text
        var sign = 1
        if let first = digits.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits) else { return nil }
        return sign * value
    }

    /// `20271231`, `20271231T235959` (local) or `20271231T235959Z` (an instant).
    private static func until(_ text: String) -> End? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, bytes[range].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard bytes.count == 8 || bytes.count == 15 || bytes.count == 16, let year = number(0..<4), let month = number(4..<6),
              let day = number(6..<8), (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        guard bytes.count > 8 else { return .untilLocal(year: year, month: month, day: day, secondOfDay: nil) }
        guard bytes[8] == UInt8(ascii: "T"), let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
              hour < 24, minute < 60, second < 61 else { return nil }
        let secondOfDay = hour * 3600 + minute * 60 + min(second, 59)
        guard bytes.count == 16 else { return .untilLocal(year: year, month: month, day: day, secondOfDay: secondOfDay) }
        guard bytes[15] == UInt8(ascii: "Z") else { return nil }
        let seconds = Date.daysSince1970(year: year, month: month, day: day) * 86_400 + secondOfDay
        return .until(Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// The days of a month of the proleptic Gregorian calendar.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
