import Foundation
import GraphQLEngine
import HearthCore

/// `DateTime`: an RFC 3339 date-time with a UTC offset, such as `2026-11-22T09:30:00Z` or
/// `2026-11-22T10:30:00.250+01:00`. A time without an offset is ambiguous and refused.
public struct DateTimeScalar: StringScalar {
    static let name = "DateTime"
    static let expectation = "an RFC 3339 date-time with a UTC offset, such as \"2026-11-22T09:30:00Z\""

    public init() {}

    /// The text as given once it is a valid date-time (offsets and fractions are kept: the value is exact).
    static func normalized(_ text: String) -> String? { date(from: text) == nil ? nil : text }

    /// The instant `text` names, or nil when it is not an RFC 3339 date-time with an offset.
    public static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        // YYYY-MM-DDTHH:MM:SS at least, then an optional fraction and the offset.
        guard bytes.count >= 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] | 0x20 == 0x74, bytes[13] == 0x3A,
            bytes[16] == 0x3A,
            let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
            let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour <= 23, minute <= 59, second <= 59
        else { return nil }
        var index = 19
        var fraction = 0.0
        if bytes[index] == 0x2E {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start, index - start <= 9 else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        if bytes[index] | 0x20 == 0x7A {
            guard index + 1 == bytes.count else { return nil }
        } else {
            guard bytes[index] == 0x2B || bytes[index] == 0x2D, index + 6 == bytes.count, bytes[index + 3] == 0x3A,
                let offsetHours = number(bytes, index + 1, 2), let offsetMinutes = number(bytes, index + 4, 2),
                offsetHours <= 23, offsetMinutes <= 59
            else { return nil }
            offset = (offsetHours * 60 + offsetMinutes) * 60 * (bytes[index] == 0x2D ? -1 : 1)
        }
        // Counted by hand (the proleptic Gregorian calendar): every DateTime a response carries is checked here.
        let seconds = Date.daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// How Hearth writes an instant: UTC, with milliseconds (`2026-11-22T09:30:00.000Z`).
    /// Written by hand from the days since 1970 (the proleptic Gregorian calendar, as RFC 3339
    /// counts them): every store, product and task in a response carries dates, and Foundation's
    /// ISO 8601 formatter was a visible share of a dashboard's CPU. Fractions are truncated to
    /// the millisecond, as that formatter does.
    public static func string(from date: Date) -> String {
        // From the date's own reference (2001): whole seconds and an exact fraction, no rounding.
        let sinceReference = date.timeIntervalSinceReferenceDate
        let whole = sinceReference.rounded(.down)
        let totalSeconds = Int64(whole) + 978_307_200
        var days = totalSeconds / 86_400
        var secondOfDay = totalSeconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let milliseconds = secondOfDay * 1000 + min(999, Int64((sinceReference - whole) * 1000))
        let civil = Date.civilDay(daysSince1970: Int(days))
        let (year, month, day) = (Int64(civil.year), Int64(civil.month), Int64(civil.day))
        let seconds = milliseconds / 1000
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        func digits(_ value: Int64, _ count: Int) {
            var divisor: Int64 = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(0x30 + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(year, 4); bytes.append(0x2D); digits(month, 2); bytes.append(0x2D); digits(day, 2); bytes.append(0x54)
        digits(seconds / 3600, 2); bytes.append(0x3A); digits(seconds / 60 % 60, 2); bytes.append(0x3A); digits(seconds % 60, 2)
        bytes.append(0x2E); digits(milliseconds % 1000, 3); bytes.append(0x5A)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<(start + count) {
            guard index < bytes.count, (0x30...0x39).contains(bytes[index]) else { return nil }
            value = value * 10 + Int(bytes[index] - 0x30)
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
