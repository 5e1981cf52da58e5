import Foundation

extension RecurrenceRule {
    /// The last year an occurrence may fall in (DateTime's four digits, and python-dateutil's limit).
    static let lastYear = 9999

    /// How many periods in a row without a day mean the rule never occurs again: the periods'
    /// places in the Gregorian calendar's 400-year cycle (146 097 days, a whole number of weeks)
    /// repeat after this many steps of INTERVAL, and each place has the same days every cycle.
    var periodsInCycle: Int {
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        let cycle = switch frequency {
        case .daily: 146_097
        case .weekly: 20_871
        case .monthly: 4_800
        case .yearly: 400
        }
        return cycle / gcd(cycle, interval)
    }

    /// The occurrences of the series whose first date (DTSTART) is `start`, repeating at the wall
    /// time `start` shows in `zone`, in order: those in `from..<before` (either end open when nil),
    /// at most `limit`. `start` is one only when it matches the rule, and COUNT counts from the
    /// first occurrence whatever the window. A day the rule names that a month lacks (the 31st,
    /// 29 February) is skipped; a wall time a day skips moves forward by the gap, one it shows
    /// twice is its first showing (RFC 5545 3.3.5, 3.3.10). A rule whose periods come round a whole
    /// calendar cycle without a day never occurs again: the search ends there (or with the year 9999).
    public func occurrences(start: Date, in zone: TimeZone, from: Date? = nil, before: Date? = nil, limit: Int) -> [Date] {
        guard limit > 0 else { return [] }
        let civil = start.civil(in: zone)
        let startDay = Date.daysSince1970(year: civil.year, month: civil.month, day: civil.day)
        let secondOfDay = civil.hour * 3600 + civil.minute * 60 + civil.second
        let days = DayFilter(rule: self, startMonth: civil.month, startDay: civil.day, startWeekday: Weekday.of(day: startDay))
        let emptyLimit = periodsInCycle
        var emptyPeriods = 0
        var remaining = count
        // UNTIL as an instant, or as a wall time in the zone (a date: the end of its day).
        var (lastInstant, lastLocal): (Date?, Int?) = (nil, nil)
        switch end {
        case .until(let last): lastInstant = last
        case .untilLocal(let year, let month, let day, let second):
            lastLocal = Date.daysSince1970(year: year, month: month, day: day) * 86_400 + (second ?? 86_399)
        case .count, nil: break
        }
        var found: [Date] = []
        let earliestLocal = from.map { Int($0.timeIntervalSince1970.rounded(.down)) - 15 * 3600 }
        var period = Period(frequency: frequency, startDay: startDay, year: civil.year, month: civil.month, weekStart: weekStart)
        var candidates: [Int] = []
        candidates.reserveCapacity(frequency == .yearly ? 366 : 31)
        while period.year <= Self.lastYear {
            candidates.removeAll(keepingCapacity: true)
            period.collect(into: &candidates, days)
            let picked = select(candidates)
            if picked.isEmpty {
                emptyPeriods += 1
                if emptyPeriods >= emptyLimit { return found }
            } else {
                emptyPeriods = 0
            }
            for day in picked where day >= startDay {
                let local = day * 86_400 + secondOfDay
                // Long before the window (no zone is more than 15 hours from UTC): counted, not placed in the zone,
                // so a window a year into a series costs no time-zone lookups for the days before it.
                if let last = lastLocal, local > last { return found }
                if let early = earliestLocal, local < early {
                    // Past UNTIL for certain: the series has ended.
                    if let last = lastInstant, Double(local - 15 * 3600) > last.timeIntervalSince1970 { return found }
                    if let left = remaining {
                        guard left > 1 else { return found }
                        remaining = left - 1
                    }
                    continue
                }
                let instant = Date(localSeconds: local, in: zone)
                if let last = lastInstant, instant > last { return found }
                if let before, instant >= before { return found }
                if from.map({ instant >= $0 }) ?? true {
                    found.append(instant)
                    if found.count == limit { return found }
                }
                if let left = remaining {
                    guard left > 1 else { return found }
                    remaining = left - 1
                }
            }
            period.advance(by: interval)
        }
        return found
    }

    /// The days BYSETPOS picks from a period's days (all of them without BYSETPOS), in order.
    private func select(_ candidates: [Int]) -> [Int] {
        guard !bySetPosition.isEmpty, !candidates.isEmpty else { return candidates }
        var picked: [Int] = []
        for position in bySetPosition {
            let index = position > 0 ? position - 1 : candidates.count + position
            if candidates.indices.contains(index) { picked.append(candidates[index]) }
        }
        return Array(Set(picked)).sorted()
    }
}

/// Which days of a period a rule keeps: its BY parts, or the parts DTSTART implies when it has no
/// BYMONTHDAY and no BYDAY (a yearly rule keeps DTSTART's month and day, a monthly one its day, a
/// weekly one its weekday).
struct DayFilter {
    var months: [Bool]  // index 1...12
    var positiveMonthDays: [Bool]  // index 1...31
    var negativeMonthDays: [Bool]  // index 1...31, for -1...-31
    var anyMonthDay: Bool
    var weekdays: [Bool]  // every one of that weekday, Monday 0
    var ordinals: [(weekday: RecurrenceRule.Weekday, ordinal: Int)]
    var anyWeekday: Bool
    /// Ordinals count within the year (a yearly rule without BYMONTH), else within the month.
    var ordinalsInYear: Bool

    init(rule: RecurrenceRule, startMonth: Int, startDay: Int, startWeekday: RecurrenceRule.Weekday) {
        var byMonth = rule.byMonth
        var byMonthDay = rule.byMonthDay
        var byDay = rule.byDay
        if byMonthDay.isEmpty && byDay.isEmpty {
            switch rule.frequency {
            case .yearly:
                if byMonth.isEmpty { byMonth = [startMonth] }
                byMonthDay = [startDay]
            case .monthly: byMonthDay = [startDay]
            case .weekly: byDay = [.init(startWeekday)]
            case .daily: break
            }
        }
        months = Array(repeating: byMonth.isEmpty, count: 13)
        for month in byMonth { months[month] = true }
        positiveMonthDays = Array(repeating: false, count: 32)
        negativeMonthDays = Array(repeating: false, count: 32)
        for day in byMonthDay {
            if day > 0 { positiveMonthDays[day] = true } else { negativeMonthDays[-day] = true }
        }
        anyMonthDay = byMonthDay.isEmpty
        weekdays = Array(repeating: false, count: 7)
        ordinals = []
        for entry in byDay {
            if let ordinal = entry.ordinal { ordinals.append((entry.weekday, ordinal)) } else { weekdays[entry.weekday.rawValue] = true }
        }
        anyWeekday = byDay.isEmpty
        ordinalsInYear = rule.frequency == .yearly && rule.byMonth.isEmpty
    }

    /// Whether the rule keeps a day, given where it lies in its month and year.
    func keeps(month: Int, dayOfMonth: Int, monthLength: Int, weekday: Int, dayOfYear: Int, yearLength: Int) -> Bool {
        guard months[month] else { return false }
        guard anyMonthDay || positiveMonthDays[dayOfMonth] || negativeMonthDays[monthLength - dayOfMonth + 1] else { return false }
        if anyWeekday || weekdays[weekday] { return true }
        let (index, length) = ordinalsInYear ? (dayOfYear, yearLength) : (dayOfMonth, monthLength)
        let fromStart = (index - 1) / 7 + 1
        let fromEnd = -((length - index) / 7 + 1)
        return ordinals.contains { $0.weekday.rawValue == weekday && ($0.ordinal == fromStart || $0.ordinal == fromEnd) }
    }
}

/// One period of a rule's frequency (a day, a week from WKST, a month, a year), stepped by INTERVAL.
struct Period {
    let frequency: RecurrenceRule.Frequency
    /// The first day of a daily or weekly period (a day count since 1970).
    var firstDay: Int
    var year: Int
    var month: Int

    init(frequency: RecurrenceRule.Frequency, startDay: Int, year: Int, month: Int, weekStart: RecurrenceRule.Weekday) {
        self.frequency = frequency
        self.year = year
        self.month = month
        switch frequency {
        case .weekly:
            let weekday = RecurrenceRule.Weekday.of(day: startDay).rawValue
            firstDay = startDay - (weekday - weekStart.rawValue + 7) % 7
        default:
            firstDay = startDay
        }
    }

    mutating func advance(by interval: Int) {
        switch frequency {
        case .daily, .weekly:
            firstDay += interval * (frequency == .daily ? 1 : 7)
            let civil = Date.civilDay(daysSince1970: firstDay)
            (year, month) = (civil.year, civil.month)
        case .monthly:
            let months = year * 12 + (month - 1) + interval
            (year, month) = (months / 12, months % 12 + 1)
        case .yearly:
            year += interval
        }
    }

    /// Appends the period's days the filter keeps, in order.
    func collect(into days: inout [Int], _ filter: DayFilter) {
        switch frequency {
        case .daily, .weekly:
            // Daily and weekly rules have no BYDAY positions (refused when read): a day's place in its year is never asked.
            for day in firstDay..<(firstDay + (frequency == .daily ? 1 : 7)) {
                let civil = Date.civilDay(daysSince1970: day)
                if filter.keeps(month: civil.month, dayOfMonth: civil.day, monthLength: RecurrenceRule.daysIn(month: civil.month, year: civil.year),
                                weekday: RecurrenceRule.Weekday.of(day: day).rawValue, dayOfYear: 0, yearLength: 0) {
                    days.append(day)
                }
            }
        case .monthly, .yearly:
            let yearStart = Date.daysSince1970(year: year, month: 1, day: 1)
            let yearLength = Date.daysSince1970(year: year + 1, month: 1, day: 1) - yearStart
            for month in frequency == .monthly ? month...month : 1...12 {
                collectMonth(month, into: &days, filter, yearStart: yearStart, yearLength: yearLength)
            }
        }
    }

    private func collectMonth(_ month: Int, into days: inout [Int], _ filter: DayFilter, yearStart: Int, yearLength: Int) {
        guard filter.months[month] else { return }
        let first = Date.daysSince1970(year: year, month: month, day: 1)
        let length = RecurrenceRule.daysIn(month: month, year: year)
        var weekday = RecurrenceRule.Weekday.of(day: first).rawValue
        for dayOfMonth in 1...length {
            let day = first + dayOfMonth - 1
            if filter.keeps(month: month, dayOfMonth: dayOfMonth, monthLength: length, weekday: weekday,
                            dayOfYear: day - yearStart + 1, yearLength: yearLength) {
                days.append(day)
            }
            weekday = weekday == 6 ? 0 : weekday + 1
        }
    }
}
