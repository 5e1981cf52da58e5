import Foundation

/// An event's start and end with the defaults filled in (the seed's rule: 09:00, one hour): a
/// missing start is 09:00 on the given local day, else the next 09:00 in the household's time
/// zone (today before nine, tomorrow after), so an untimed event never starts in the past; a
/// missing end is one hour after the start.
public enum EventSchedule {
    public static func resolve(
        start: Date?, end: Date?, date: String? = nil, timeZone: TimeZone, now: Date
    ) throws(ServiceError) -> (start: Date, end: Date) {
        let resolved: Date
        if let start {
            resolved = start
        } else if let date {
            resolved = try nineOClock(onDay: date, in: timeZone)
        } else {
            resolved = nextNineOClock(after: now, in: timeZone)
        }
        let end = end ?? resolved.addingTimeInterval(3600)
        try check(start: resolved, end: end)
        return (resolved, end)
    }

    /// Refuses an end before the start (when both are known).
    static func check(start: Date?, end: Date?) throws(ServiceError) {
        if let start, let end, end < start { throw .invalidInput(field: "endsAt", message: "endsAt must not be before startsAt.") }
    }

    /// 09:00 on `now`'s calendar day in `timeZone` (that hour exists on every day, DST included).
    public static func nineOClock(on now: Date, in timeZone: TimeZone) -> Date {
        let calendar = calendar(in: timeZone)
        var day = calendar.dateComponents([.year, .month, .day], from: now)
        day.hour = 9
        return calendar.date(from: day) ?? now
    }

    /// Today's 09:00 when it is still ahead, else tomorrow's.
    public static func nextNineOClock(after now: Date, in timeZone: TimeZone) -> Date {
        let today = nineOClock(on: now, in: timeZone)
        if today > now { return today }
        let tomorrow = calendar(in: timeZone).date(byAdding: .day, value: 1, to: today) ?? today.addingTimeInterval(86_400)
        return nineOClock(on: tomorrow, in: timeZone)
    }

    /// 09:00 on a local day written `YYYY-MM-DD`.
    static func nineOClock(onDay text: String, in timeZone: TimeZone) throws(ServiceError) -> Date {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let invalid = ServiceError.invalidInput(field: "date", message: "date must be a day written YYYY-MM-DD, like 2026-11-24; \"\(text)\" is not.")
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { throw invalid }
        let calendar = calendar(in: timeZone)
        let components = DateComponents(year: year, month: month, day: day, hour: 9)
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { throw invalid }
        return date
    }

    private static func calendar(in timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}
