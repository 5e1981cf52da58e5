import Foundation

/// An event's start and end with the defaults filled in: a missing start is 09:00 today in
/// the household's time zone, a missing end one hour after the start.
public enum EventSchedule {
    public static func resolve(start: Date?, end: Date?, timeZone: TimeZone, now: Date) throws(HouseholdError) -> (start: Date, end: Date) {
        let start = start ?? nineOClock(on: now, in: timeZone)
        let end = end ?? start.addingTimeInterval(3600)
        try check(start: start, end: end)
        return (start, end)
    }

    /// Refuses an end before the start (when both are known).
    static func check(start: Date?, end: Date?) throws(HouseholdError) {
        if let start, let end, end < start { throw .invalidInput(field: "endsAt", message: "endsAt must not be before startsAt.") }
    }

    /// 09:00 on `now`'s calendar day in `timeZone` (that hour exists on every day, DST included).
    public static func nineOClock(on now: Date, in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var day = calendar.dateComponents([.year, .month, .day], from: now)
        day.hour = 9
        return calendar.date(from: day) ?? now
    }
}
