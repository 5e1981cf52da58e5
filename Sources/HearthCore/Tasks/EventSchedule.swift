import Foundation

/// An event's start and end with the defaults filled in: a missing start is 09:00 today in
/// the household's time zone, a missing end one hour after the start.
public enum EventSchedule {
    public static func resolve(start: Date?, end: Date?, timeZone: TimeZone, now: Date) throws(HouseholdError) -> (start: Date, end: Date) {
        let start = start ?? nineOClock(on: now, in: timeZone)
        let end = end ?? start.addingTimeInterval(3600)
        guard end >= start else { throw .invalidInput(field: "endsAt", message: "endsAt must not be before startsAt.") }
        return (start, end)
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
