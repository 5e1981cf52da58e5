import Foundation

extension Date {
    /// The day count since 1970-01-01 of a proleptic Gregorian date (the inverse of
    /// ``civilDay(daysSince1970:)``; `month` 1–12, `day` may run past the month's end).
    public static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The moment a wall clock in `zone` shows `localSeconds` (seconds since 1970-01-01 00:00 on
    /// that clock). A time the clock skips (02:30 on a spring-forward day) moves forward by the gap,
    /// and a time it shows twice (an autumn night) is its first showing, as RFC 5545 (3.3.5) says.
    public init(localSeconds: Int, in zone: TimeZone) {
        // The offsets a day either side; a zone changes its offset at most once within two days.
        let before = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(localSeconds - 86_400)))
        let after = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(localSeconds + 86_400)))
        let early = localSeconds - before
        if before == after || zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(early))) == before {
            // One offset, or the earlier reading is valid (the first of a repeated hour).
            self.init(timeIntervalSince1970: TimeInterval(early))
            return
        }
        let late = localSeconds - after
        // Valid under the later offset only, or not at all (skipped): the earlier offset moves it past the gap.
        self.init(timeIntervalSince1970: TimeInterval(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(late))) == after ? late : early))
    }
}
