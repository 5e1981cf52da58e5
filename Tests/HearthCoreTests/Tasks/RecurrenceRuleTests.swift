import Foundation
import HearthCore
import Testing

/// Repeat rules: what is accepted and how it is written back, what is refused and why, and the
/// occurrences where calendars are awkward (month ends, leap days, daylight-saving changes).
@Suite struct RecurrenceRuleTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt

    /// A wall time in a zone, as an instant (a skipped time moves forward).
    static func local(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0, in zone: TimeZone = berlin) -> Date {
        Date(localSeconds: Date.daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60, in: zone)
    }

    static func wall(_ dates: [Date], in zone: TimeZone = berlin) -> [String] {
        dates.map { $0.basicFormat(in: zone) }
    }

    @Test(arguments: [
        ("RRULE:freq=monthly;byday=-1fr", "FREQ=MONTHLY;BYDAY=-1FR"),
        ("FREQ=WEEKLY;BYDAY=TU,MO,TU;INTERVAL=1;WKST=MO", "FREQ=WEEKLY;BYDAY=MO,TU"),
        ("FREQ=YEARLY;COUNT=3;BYMONTH=12,3;BYMONTHDAY=-1,1", "FREQ=YEARLY;COUNT=3;BYMONTH=3,12;BYMONTHDAY=-1,1"),
        ("FREQ=DAILY;UNTIL=20271231T225959Z;INTERVAL=3", "FREQ=DAILY;INTERVAL=3;UNTIL=20271231T225959Z"),
        ("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;UNTIL=20271231", "FREQ=MONTHLY;UNTIL=20271231;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"),
    ])
    func rulesAreWrittenInOneForm(_ raw: String, _ normal: String) throws {
        #expect(try RecurrenceRule(parsing: raw).text == normal)
        #expect(try RecurrenceRule(parsing: normal).text == normal, "the normal form reads back as itself")
    }

    @Test(arguments: [
        ("FREQ=HOURLY", "FREQ=HOURLY is not supported: Hearth repeats things at most daily."),
        ("FREQ=DAILY;BYHOUR=7", "BYHOUR is not supported"),
        ("FREQ=YEARLY;BYWEEKNO=20", "BYWEEKNO is not supported"),
        ("FREQ=YEARLY;BYYEARDAY=100", "BYYEARDAY is not supported"),
        ("FREQ=DAILY;COUNT=0", "COUNT must be a whole number of at least 1, not 0."),
        ("FREQ=DAILY;COUNT=2;UNTIL=20270101", "COUNT and UNTIL cannot both be given"),
        ("INTERVAL=2", "it has no FREQ"),
        ("FREQ=WEEKLY;BYDAY=2TU", "a position in BYDAY (like 2MO) needs FREQ=MONTHLY or YEARLY."),
        ("FREQ=MONTHLY;BYDAY=6MO", "a month has at most five of a weekday"),
        ("FREQ=WEEKLY;BYMONTHDAY=3", "BYMONTHDAY cannot be used with FREQ=WEEKLY"),
        ("FREQ=MONTHLY;BYMONTHDAY=32", "BYMONTHDAY takes numbers from -31 to 31 other than 0; \"32\" is not one."),
        ("FREQ=MONTHLY;BYSETPOS=1", "BYSETPOS picks among the days another BY part gives"),
        ("FREQ=DAILY;FREQ=WEEKLY", "FREQ appears twice."),
        ("FREQ=DAILY;COLOR=red", "COLOR is not a part of a repeat rule"),
        ("FREQ=DAILY;UNTIL=20270230", "UNTIL must be a date (20271231) or a date and time (20271231T235959Z), not 20270230."),
        ("", "it is empty"),
    ])
    func unsupportedOrMalformedRulesAreRefusedNamingThePart(_ raw: String, _ reason: String) {
        #expect {
            try RecurrenceRule(parsing: raw, field: "repeat.rule")
        } throws: { error in
            guard let error = error as? ServiceError else { return false }
            return error.kind == .badUserInput && error.field == "repeat.rule" && error.message.contains(reason)
        }
    }

    @Test func sevenInTheMorningStaysSevenAcrossDaylightSavingChanges() throws {
        let weekly = try RecurrenceRule(parsing: "FREQ=WEEKLY;COUNT=3")
        let march = weekly.occurrences(start: Self.local(2027, 3, 21, 7), in: Self.berlin, limit: 10)
        #expect(Self.wall(march) == ["20270321T070000", "20270328T070000", "20270404T070000"])
        #expect(march[1].timeIntervalSince(march[0]) == 7 * 86_400 - 3600, "a week with the spring-forward night is an hour shorter")
        let october = weekly.occurrences(start: Self.local(2027, 10, 24, 7), in: Self.berlin, limit: 10)
        #expect(Self.wall(october) == ["20271024T070000", "20271031T070000", "20271107T070000"])
    }

    @Test func skippedWallTimesMoveForwardAndRepeatedOnesAreTheFirst() throws {
        let daily = try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=3")
        // Berlin skips 02:00–03:00 on 28 March 2027 and shows 02:00–03:00 twice on 31 October.
        let spring = daily.occurrences(start: Self.local(2027, 3, 27, 2, 30), in: Self.berlin, limit: 3)
        #expect(Self.wall(spring) == ["20270327T023000", "20270328T033000", "20270329T023000"])
        let autumn = daily.occurrences(start: Self.local(2027, 10, 30, 2, 30), in: Self.berlin, limit: 3)
        #expect(Self.wall(autumn) == ["20271030T023000", "20271031T023000", "20271101T023000"])
        #expect(autumn[1].timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400) == 30 * 60, "02:30 CEST is 00:30 UTC: the first showing")
    }

    @Test func daysAMonthLacksAreSkipped() throws {
        let monthly = try RecurrenceRule(parsing: "FREQ=MONTHLY;COUNT=4")
        #expect(Self.wall(monthly.occurrences(start: Self.local(2027, 1, 31, 9), in: Self.berlin, limit: 10))
                == ["20270131T090000", "20270331T090000", "20270531T090000", "20270731T090000"])
        let leap = try RecurrenceRule(parsing: "FREQ=YEARLY;COUNT=3")
        #expect(Self.wall(leap.occurrences(start: Self.local(2028, 2, 29, 9), in: Self.berlin, limit: 10))
                == ["20280229T090000", "20320229T090000", "20360229T090000"])
        let lastDay = try RecurrenceRule(parsing: "FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=3")
        #expect(Self.wall(lastDay.occurrences(start: Self.local(2027, 1, 15, 9), in: Self.berlin, limit: 10))
                == ["20270131T090000", "20270228T090000", "20270331T090000"])
    }

    @Test func positionsCountWithinTheMonthOrTheYear() throws {
        let lastFriday = try RecurrenceRule(parsing: "FREQ=MONTHLY;BYDAY=-1FR;COUNT=3")
        #expect(Self.wall(lastFriday.occurrences(start: Self.local(2026, 12, 1, 18), in: Self.berlin, limit: 10))
                == ["20261225T180000", "20270129T180000", "20270226T180000"])
        let lastWorkday = try RecurrenceRule(parsing: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=2")
        #expect(Self.wall(lastWorkday.occurrences(start: Self.local(2027, 1, 1, 9), in: Self.berlin, limit: 10))
                == ["20270129T090000", "20270226T090000"])
        let twentiethMonday = try RecurrenceRule(parsing: "FREQ=YEARLY;BYDAY=20MO;COUNT=1")
        #expect(Self.wall(twentiethMonday.occurrences(start: Self.local(2027, 1, 1, 9), in: Self.berlin, limit: 10)) == ["20270517T090000"])
        // RFC 5545 unites plain and positioned weekdays (python-dateutil would give none).
        let mixed = try RecurrenceRule(parsing: "FREQ=MONTHLY;BYDAY=1TU,SU;COUNT=3")
        #expect(Self.wall(mixed.occurrences(start: Self.local(2027, 2, 1, 9), in: Self.berlin, limit: 10))
                == ["20270202T090000", "20270207T090000", "20270214T090000"])
    }

    @Test func theStartIsAnOccurrenceOnlyWhenItMatchesAndCountCountsFromTheFirst() throws {
        let tuesdays = try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=TU;COUNT=2")
        let start = Self.local(2027, 3, 3, 8)  // a Wednesday
        #expect(Self.wall(tuesdays.occurrences(start: start, in: Self.berlin, limit: 10)) == ["20270309T080000", "20270316T080000"])
        // A window later than the first occurrence still ends where COUNT does.
        #expect(Self.wall(tuesdays.occurrences(start: start, in: Self.berlin, from: Self.local(2027, 3, 10, 0), limit: 10))
                == ["20270316T080000"])
        let until = try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20270305T070000Z")
        #expect(Self.wall(until.occurrences(start: start, in: Self.berlin, limit: 10)) == ["20270303T080000", "20270304T080000", "20270305T080000"])
    }

    @Test func aRuleThatNeverOccursAnswersNoDatesAndOneFarAwayIsFound() throws {
        #expect(try RecurrenceRule(parsing: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30").occurrences(start: Self.local(2027, 1, 1, 9), in: Self.berlin, limit: 5).isEmpty)
        #expect(try RecurrenceRule(parsing: "FREQ=MONTHLY;BYDAY=MO;BYSETPOS=6").occurrences(start: Self.local(2027, 1, 1, 9), in: Self.berlin, limit: 5).isEmpty)
        #expect(try RecurrenceRule(parsing: "FREQ=DAILY;INTERVAL=2;BYMONTH=4;BYMONTHDAY=31").occurrences(start: Self.local(2027, 1, 1, 9), in: Self.berlin, limit: 5).isEmpty)
        // Every hundredth year from 2028 is a leap year (not a century's first): 2028, 2128, 2228.
        let century = try RecurrenceRule(parsing: "FREQ=YEARLY;INTERVAL=100;BYMONTH=2;BYMONTHDAY=29")
        #expect(Self.wall(century.occurrences(start: Self.local(2028, 1, 1, 9), in: Self.berlin, limit: 3)).map { String($0.prefix(8)) }
                == ["20280229", "21280229", "22280229"], "the search reaches past the year 2200")
    }

    @Test func wallTimesBecomeInstantsInTheZone() {
        let newYork = TimeZone(identifier: "America/New_York") ?? .gmt
        // 8 March 2026: 02:30 does not exist in New York (moves to 03:30 EDT, 07:30 UTC); 1 November 01:30 exists twice (first: EDT).
        #expect(Self.local(2026, 3, 8, 2, 30, in: newYork).timeIntervalSince1970 == TimeInterval(Date.daysSince1970(year: 2026, month: 3, day: 8) * 86_400 + 7 * 3600 + 1800))
        #expect(Self.local(2026, 11, 1, 1, 30, in: newYork).timeIntervalSince1970 == TimeInterval(Date.daysSince1970(year: 2026, month: 11, day: 1) * 86_400 + 5 * 3600 + 1800))
        #expect(Date.daysSince1970(year: 1970, month: 1, day: 1) == 0)
        #expect(Date.daysSince1970(year: 2000, month: 3, day: 1) == 11_017)
        for day in stride(from: -800_000, to: 3_000_000, by: 997) {
            let civil = Date.civilDay(daysSince1970: day)
            #expect(Date.daysSince1970(year: civil.year, month: civil.month, day: civil.day) == day)
        }
    }
}
