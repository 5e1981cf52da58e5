import Foundation

/// Where a repeating item's next date is counted from.
public enum RepeatFrom: String, Sendable, CaseIterable, Codable {
    /// The rule's own dates, from the series' first one: bins every Tuesday.
    case schedule = "SCHEDULE"
    /// The moment the last occurrence was done (tasks): water the plants three days after watering them.
    case completion = "COMPLETION"
}

/// How an item comes back: its rule in normal form, where the next date is counted from, and the
/// occurrences taken out of the series (RFC 5545's EXDATE) or changed (an event's
/// `RECURRENCE-ID` overrides).
public struct Repetition: Sendable, Equatable, Codable {
    public var rule: String
    public var from: RepeatFrom
    /// Sorted, without repeats.
    public var exceptions: [Date]
    /// An event's changed occurrences, by original start; none is an exception.
    public var overrides: [OccurrenceOverride]

    /// The most exceptions one series keeps, and the most changed occurrences.
    public static let maximumExceptions = 500

    /// A repetition as stored (its rule already checked).
    public init(rule: String, from: RepeatFrom = .schedule, exceptions: [Date] = [], overrides: [OccurrenceOverride] = []) {
        self.rule = rule
        self.from = from
        self.exceptions = exceptions
        self.overrides = overrides
    }

    /// The repetition a client asked for, checked: the rule parsed and written in normal form, the
    /// exceptions sorted; a refusal names the field (`repeat.rule`, `repeat.exceptions`).
    public static func checked(rule: String, from: RepeatFrom, exceptions: [Date], overrides: [OccurrenceOverride] = [],
                               kind: TaskKind) throws(ServiceError) -> Repetition {
        let parsed = try RecurrenceRule(parsing: rule, field: "repeat.rule")
        if from == .completion, kind == .event {
            throw .invalidInput(field: "repeat.from", message: "An event repeats on its schedule; only tasks repeat from when they were done.")
        }
        guard exceptions.count <= maximumExceptions else {
            throw .invalidInput(field: "repeat.exceptions", message: "A series keeps at most \(maximumExceptions) exceptions; \(exceptions.count) were given.")
        }
        let sorted = Set(exceptions.map(Self.second)).sorted().map { Date(timeIntervalSince1970: TimeInterval($0)) }
        guard overrides.isEmpty || kind == .event else {
            throw .invalidInput(field: "repeat.overrides", message: "Only an event's occurrences are changed one at a time; a task moves on as a whole.")
        }
        guard overrides.count <= maximumExceptions else {
            throw .invalidInput(field: "repeat.overrides", message: "A series keeps at most \(maximumExceptions) changed occurrences; \(overrides.count) were given.")
        }
        return Repetition(rule: parsed.text, from: from, exceptions: sorted, overrides: try overrides.sorted { $0.occurrence < $1.occurrence }
                                .map { change throws(ServiceError) in try change.checked() })
    }

    /// The repetition with a local UNTIL (a date, or a time without `Z`) made the instant it names
    /// in `zone` (a date: the end of that day), as RFC 5545 wants beside a start with a time zone.
    public func untilPinned(in zone: TimeZone) -> Repetition {
        guard var parsed = recurrenceRule, case .untilLocal(let year, let month, let day, let second) = parsed.end else { return self }
        parsed.end = .until(Date(localSeconds: Date.daysSince1970(year: year, month: month, day: day) * 86_400 + (second ?? 86_399), in: zone))
        var pinned = self
        pinned.rule = parsed.text
        return pinned
    }

    /// The rule, parsed (a stored one was checked when it was written).
    public var recurrenceRule: RecurrenceRule? { try? RecurrenceRule(parsing: rule) }

    /// Whether `date` is taken out of the series.
    public func isException(_ date: Date) -> Bool { exceptions.contains { Self.second($0) == Self.second(date) } }

    /// Whether `date` is an occurrence of the series whose first date is `start` (and not taken out of it).
    public func isOccurrence(_ date: Date, start: Date, zone: TimeZone) -> Bool {
        guard !isException(date) else { return false }
        if Self.second(date) == Self.second(start) { return true }
        guard let rule = recurrenceRule else { return false }
        return rule.occurrences(start: start, in: zone, from: date, before: date.addingTimeInterval(1), limit: 1)
            .contains { Self.second($0) == Self.second(date) }
    }

    /// The override of the occurrence `date`, if it was changed.
    public func override(of date: Date) -> OccurrenceOverride? {
        overrides.first { Self.second($0.occurrence) == Self.second(date) }
    }

    /// `overrides` that still change an occurrence of the series starting at `start` (a new rule,
    /// a moved series or a new exception leaves the others behind), one per occurrence (the last
    /// given), by occurrence.
    public func fitting(_ overrides: [OccurrenceOverride], start: Date, zone: TimeZone) -> [OccurrenceOverride] {
        var byOccurrence: [Int: OccurrenceOverride] = [:]
        for change in overrides where isOccurrence(change.occurrence, start: start, zone: zone) {
            byOccurrence[Self.second(change.occurrence)] = change
        }
        return byOccurrence.values.sorted { $0.occurrence < $1.occurrence }.prefix(Self.maximumExceptions).map { $0 }
    }

    /// Where a repeating item is in its series.
    public struct Position: Sendable, Equatable {
        /// The series' first date (DTSTART).
        public var start: Date
        /// The occurrence the item stands at.
        public var occurrence: Date
        /// The occurrences done or skipped so far.
        public var passed: Int

        public init(start: Date, occurrence: Date, passed: Int) {
            self.start = start
            self.occurrence = occurrence
            self.passed = passed
        }
    }

    /// The occurrence after the one `position` stands at, once it was done (or skipped) at
    /// `doneAt`; nil when the series has ended (COUNT or UNTIL reached, or the rule never comes
    /// again). On the schedule it is the series' next date after the current one; from completion
    /// it is the rule applied from `doneAt`'s day at the occurrence's time of day, its first date
    /// after that and after the occurrence done, and COUNT counts the occurrences passed. Exceptions are never an occurrence.
    public func next(after position: Position, doneAt: Date, zone: TimeZone) -> Date? {
        guard var rule = recurrenceRule else { return nil }
        let limit = exceptions.count + 1
        switch from {
        case .schedule:
            return rule.occurrences(start: position.start, in: zone, from: position.occurrence.addingTimeInterval(1), limit: limit)
                .first { !isException($0) }
        case .completion:
            if let count = rule.count {
                guard position.passed + 1 < count else { return nil }
                rule.end = nil
            }
            // Always later than the occurrence done (one done early does not come due again at the same moment).
            let anchor = Self.wallTime(of: position.occurrence, onDayOf: doneAt, in: zone)
            let after = max(anchor, position.occurrence).addingTimeInterval(1)
            return rule.occurrences(start: anchor, in: zone, from: after, limit: limit).first { !isException($0) }
        }
    }

    /// The first occurrence of a series that repeats from completion and was given no date: the
    /// rule applied from `now` (to the minute), its first date after it.
    public func firstFromNow(_ now: Date, zone: TimeZone) -> Date? {
        guard var rule = recurrenceRule else { return nil }
        if rule.count != nil { rule.end = nil }
        let anchor = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60)
        return rule.occurrences(start: anchor, in: zone, from: anchor.addingTimeInterval(1), limit: exceptions.count + 1)
            .first { !isException($0) }
    }

    /// The moment on `day`'s local date (in `zone`) at the wall time `time` shows there.
    static func wallTime(of time: Date, onDayOf day: Date, in zone: TimeZone) -> Date {
        let clock = time.civil(in: zone)
        let date = day.civil(in: zone)
        let days = Date.daysSince1970(year: date.year, month: date.month, day: date.day)
        return Date(localSeconds: days * 86_400 + clock.hour * 3600 + clock.minute * 60 + clock.second, in: zone)
    }

    /// A date to the whole second (occurrences and exceptions are compared so).
    static func second(_ date: Date) -> Int { Int(date.timeIntervalSince1970.rounded(.down)) }
}

extension Repetition {
    /// When a repeating event's reminder fires next after `now`: as far from the first occurrence
    /// whose reminder time is still ahead as `remindAt` is from the series' first start (at its
    /// start without one). Occurrences whose reminder time has passed are not reminded of, so a
    /// server that was down sends no storm of them.
    public func nextReminder(seriesStart: Date, remindAt: Date?, after now: Date, zone: TimeZone) -> Date? {
        guard let rule = recurrenceRule else { return nil }
        let offset = (remindAt ?? seriesStart).timeIntervalSince(seriesStart)
        let earliest = now.addingTimeInterval(-offset)
        var dates = rule.occurrences(start: seriesStart, in: zone, from: earliest, limit: exceptions.count + overrides.count + 2)
        if seriesStart > earliest { dates.insert(seriesStart, at: 0) }
        let scheduled = dates.first { $0 > earliest && !isException($0) && override(of: $0) == nil }
        // A moved occurrence is reminded of at its own start.
        let moved = overrides.lazy.map(\.startsAt).filter { $0 > earliest }.min()
        return [scheduled, moved].compactMap { $0 }.min()?.addingTimeInterval(offset)
    }
}

extension Repetition {
    private enum Keys: String, CodingKey { case rule, from, exceptions, overrides }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: Keys.self)
        self.init(rule: try values.decode(String.self, forKey: .rule), from: try values.decode(RepeatFrom.self, forKey: .from),
                  exceptions: try values.decode([Date].self, forKey: .exceptions),
                  overrides: try values.decodeIfPresent([OccurrenceOverride].self, forKey: .overrides) ?? [])
    }

    /// Without overrides when there are none (a create's digest stays what it was before they existed).
    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: Keys.self)
        try values.encode(rule, forKey: .rule)
        try values.encode(from, forKey: .from)
        try values.encode(exceptions, forKey: .exceptions)
        if !overrides.isEmpty { try values.encode(overrides, forKey: .overrides) }
    }
}
