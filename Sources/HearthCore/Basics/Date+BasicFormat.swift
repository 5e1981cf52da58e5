import Foundation

extension Date {
    /// The date and time in `zone` in ISO 8601's basic format, `20261126T093000` (no zone suffix):
    /// what iCalendar's date-times and backup file names are made of.
    public func basicFormat(in zone: TimeZone) -> String {
        let time = civil(in: zone)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(time.year, 4) + pad(time.month, 2) + pad(time.day, 2) + "T" + pad(time.hour, 2) + pad(time.minute, 2) + pad(time.second, 2)
    }

    /// The wall-clock date and time in `zone` (seconds dropped below one), and the weekday (0 is
    /// Sunday): the zone's offset at this moment added, then the proleptic Gregorian calendar's date
    /// read from the day count since 1970 — arithmetic, no calendar object (they are costly to make).
    public func civil(in zone: TimeZone) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, weekday: Int) {
        let seconds = Int(timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: self)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let (year, month, day) = Self.civilDay(daysSince1970: days)
        // 1970-01-01 was a Thursday (4).
        return (year, month, day, time / 3600, time % 3600 / 60, time % 60, ((days + 4) % 7 + 7) % 7)
    }

    /// The proleptic Gregorian year, month and day of a day count since 1970-01-01 (eras of 400
    /// years, years starting in March so the leap day comes last).
    public static func civilDay(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
