import FixtureShop
import Foundation
import HearthCore
import HearthServer
import Testing

/// Hearth's repeat rules against python-dateutil's `rrule` (PyPI, in `.build/python-recurrence`):
/// thousands of generated rules — every supported part, intervals up to 10, BYDAY positions,
/// negative month days, BYSETPOS, COUNT and UNTIL, starts near month ends and daylight-saving
/// changes in Berlin, New York and Sydney — answer the same first 50 occurrences through
/// `recurrencePreview` as dateutil gives. The rules are random; the seed is printed
/// (`HEARTH_RECURRENCE_SEED` replays a run).
@Suite struct RecurrenceDifferentialTests {
    static let python = DeliveryCryptoTests.root.appendingPathComponent(".build/python-recurrence/bin/python").path
    static let reference = DeliveryCryptoTests.root.appendingPathComponent("scripts/reference/rrule_reference.py").path
    static let hasReference = ChildProcess.succeeds(python, ["-c", "import dateutil"])

    struct Case: Codable {
        var rule: String
        var start: String
        var timeZone: String
        var first: Int
    }

    @Test(.enabled(if: hasReference || DeliveryCryptoTests.isCI,
                   "SKIPPED: needs python-dateutil in .build/python-recurrence (make test installs it)"))
    func previewsAgreeWithDateutil() async throws {
        try #require(Self.hasReference, "python-dateutil is missing from \(Self.python) (make test installs it)")
        let seed = ProcessInfo.processInfo.environment["HEARTH_RECURRENCE_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64(UInt32.max))
        print("recurrence differential: seed \(seed)")
        var generator = RuleGenerator(seed: seed)
        let cases = (0..<2_400).map { _ in generator.nextCase() }
        let clock = ContinuousClock()
        let referenceStart = clock.now
        let expected = try await Self.dateutil(cases)
        let referenceTime = clock.now - referenceStart

        try await UsersOverHTTPTests.withServer { server in
            let token = try await server.signUp("ada@example.org")
            var answers: [[String]] = []
            let hearthStart = clock.now
            for batchStart in stride(from: 0, to: cases.count, by: 40) {
                let batch = cases[batchStart..<min(batchStart + 40, cases.count)]
                let fields = batch.enumerated().map { index, item in
                    #"c\#(index): recurrencePreview(rule: "\#(item.rule)", start: "\#(item.start)", timeZone: "\#(item.timeZone)", first: \#(item.first))"#
                }
                let data = try await server.data("{ \(fields.joined(separator: " ")) }", token: token)
                for index in batch.indices.map({ $0 - batchStart }) {
                    answers.append(try #require(data["c\(index)"] as? [String], "case \(batchStart + index): \(data)"))
                }
            }
            let hearthTime = clock.now - hearthStart
            var mismatches: [String] = []
            for (index, item) in cases.enumerated() {
                guard case .dates(let dates) = expected[index] else {
                    mismatches.append("dateutil refused \(item): \(expected[index])")
                    continue
                }
                if answers[index] != dates {
                    let firstDifference = Array(zip(answers[index], dates)).firstIndex { $0 != $1 } ?? min(answers[index].count, dates.count)
                    mismatches.append("""
                        \(item.rule) from \(item.start) in \(item.timeZone): Hearth \(answers[index].count), dateutil \(dates.count) dates; \
                        first difference at \(firstDifference): Hearth \(answers[index].dropFirst(firstDifference).first ?? "none"), \
                        dateutil \(dates.dropFirst(firstDifference).first ?? "none")
                        """)
                }
            }
            let occurring = answers.filter { !$0.isEmpty }.count
            print("recurrence differential: \(cases.count) rules, \(occurring) with occurrences, \(answers.map(\.count).reduce(0, +)) dates, \(mismatches.count) differ; dateutil took \(referenceTime), Hearth (debug build, over HTTP) \(hearthTime)")
            #expect(mismatches.isEmpty, "\(mismatches.count) of \(cases.count) differ (seed \(seed)), first: \(mismatches.prefix(8).joined(separator: "\n"))")
            #expect(occurring > cases.count * 3 / 4, "most generated rules occur")
        }
    }

    enum Answer: Decodable {
        case dates([String])
        case error(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let dates = try? container.decode([String].self) {
                self = .dates(dates)
            } else {
                self = .error(try container.decode([String: String].self)["error"] ?? "?")
            }
        }
    }

    /// dateutil's answers for the cases, one per case.
    static func dateutil(_ cases: [Case]) async throws -> [Answer] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-rrule-\(UUID().uuidString).json")
        try JSONEncoder().encode(cases).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try await ChildProcess.run(python, [reference, file.path])
        try #require(run.status == 0, "\(run.text.suffix(2000))")
        let answers = try JSONDecoder().decode([Answer].self, from: run.stdout)
        try #require(answers.count == cases.count)
        return answers
    }
}

/// Random repeat rules of every part Hearth supports, with starts where calendars are awkward:
/// month ends, leap days, and the days around daylight-saving changes, at wall times a change
/// skips or repeats. BYDAY never mixes plain weekdays with positioned ones (dateutil intersects
/// them where RFC 5545 unites them) and BYSETPOS is given to monthly and yearly rules only. No
/// rule is generated that can never occur (dateutil would search each to the year 9999, seconds
/// apiece): Hearth's answer for those is checked by `RecurrenceRuleTests`.
struct RuleGenerator {
    private var random: SplitMix

    init(seed: UInt64) { random = SplitMix(seed: seed) }

    private mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(random.next() % UInt64(range.count))
    }

    private mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }

    private mutating func pick<T>(_ options: [T]) -> T { options[int(0...(options.count - 1))] }

    private mutating func some<T: Hashable>(_ options: [T], _ count: ClosedRange<Int>) -> [T] {
        var chosen: [T] = []
        for _ in 0..<int(count) {
            let option = pick(options)
            if !chosen.contains(option) { chosen.append(option) }
        }
        return chosen
    }

    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Sydney"]
    static let weekdays = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    mutating func nextCase() -> RecurrenceDifferentialTests.Case {
        let zoneName = pick(Self.zones)
        let zone = TimeZone(identifier: zoneName) ?? .gmt
        let year = int(2024...2030)
        var month = int(1...12)
        var day: Int
        switch int(1...4) {
        case 1, 2:  // near a month's end (or its first day)
            let length = RecurrenceRule.daysIn(month: month, year: year)
            day = pick([length - 2, length - 1, length, 1])
        case 3:  // around a daylight-saving change of the zone
            let change = Self.changeDay(zoneName, year: year, pick(["spring", "autumn"]))
            (month, day) = (change.month, change.day + int(-3...1))
            if day < 1 { (month, day) = (month - 1, RecurrenceRule.daysIn(month: month - 1, year: year) + day) }
        default:
            day = int(1...28)
        }
        let time = pick([2 * 3600 + 30 * 60, 1 * 3600 + 30 * 60, 7 * 3600, 0, 23 * 3600 + 30 * 60, 12 * 3600 + 15 * 60 + 30])
        let local = Date.daysSince1970(year: year, month: month, day: day) * 86_400 + time
        let start = Date(localSeconds: local, in: zone)
        return .init(rule: nextRule(start: start, in: zone), start: DateTimeScalar.string(from: start), timeZone: zoneName, first: 50)
    }

    mutating func nextRule(start: Date, in zone: TimeZone) -> String {
        let frequency = pick(["DAILY", "WEEKLY", "MONTHLY", "YEARLY"])
        var parts = ["FREQ=" + frequency]
        let interval = chance(50) ? int(1...10) : 1
        if interval > 1 || chance(10) { parts.append("INTERVAL=\(interval)") }
        let first = start.civil(in: zone)
        switch int(1...100) {
        case 1...30: parts.append("COUNT=\(int(1...60))")
        case 31...55: parts.append("UNTIL=" + start.addingTimeInterval(TimeInterval(int(10...3_000)) * 86_400).basicFormat(in: .gmt) + "Z")
        default: break
        }
        var byMonth = chance(30) ? some(Array(1...12), 1...3) : []
        // Every other month from January never reaches an even one: the first date's month keeps such a rule occurring.
        if frequency == "MONTHLY" && interval > 1 && !byMonth.isEmpty && !byMonth.contains(first.month) { byMonth.append(first.month) }
        if !byMonth.isEmpty { parts.append("BYMONTH=" + byMonth.map(String.init).joined(separator: ",")) }
        var anyBy = !byMonth.isEmpty
        var byMonthDay: [Int] = []
        if frequency != "WEEKLY" && chance(35) {
            byMonthDay = some([1, 2, 5, 13, 15, 28, 29, 30, 31, -1, -2, -3, -7, -15, -29, -31], 1...3)
            // A day every month has: a rule of days no chosen month has is searched to the year 9999 by dateutil.
            if !byMonthDay.contains(where: { abs($0) <= 28 }) { byMonthDay.append(pick([-1, 1, 15])) }
            parts.append("BYMONTHDAY=" + byMonthDay.map(String.init).joined(separator: ","))
            anyBy = true
        }
        if chance(45) {
            // (Positions with month days could exclude each other for ever: not generated.)
            let positioned = (frequency == "YEARLY" || frequency == "MONTHLY") && byMonthDay.isEmpty && chance(50)
            if positioned {
                let limit = frequency == "YEARLY" && byMonth.isEmpty ? 53 : 5
                let ordinals = some(Array(1...limit) + Array(1...limit).map { -$0 }, 1...2)
                parts.append("BYDAY=" + ordinals.map { "\($0)" + pick(Self.weekdays) }.joined(separator: ","))
            } else {
                var days = some(Self.weekdays, 1...3)
                // Every seventh day is always one weekday: the first date's keeps such a rule occurring.
                let weekday = Self.weekdays[(first.weekday + 6) % 7]
                if frequency == "DAILY" && interval % 7 == 0 && !days.contains(weekday) { days.append(weekday) }
                parts.append("BYDAY=" + days.joined(separator: ","))
            }
            anyBy = true
        }
        // A yearly rule in months without the first date's day (the 31st in April) would never occur.
        if frequency == "YEARLY" && !byMonth.isEmpty && !parts.contains(where: { $0.hasPrefix("BYMONTHDAY") || $0.hasPrefix("BYDAY") })
            && first.day > 28 {
            parts.append("BYMONTHDAY=\(pick([1, -1, 28]))")
        }
        if anyBy && (frequency == "MONTHLY" || frequency == "YEARLY") && chance(20) {
            // The first or the last is always among them: a period has at least one day, so the rule occurs.
            let positions = [pick([1, -1])] + some([1, 2, 3, -1, -2], 0...1)
            parts.append("BYSETPOS=" + Array(Set(positions)).sorted().map(String.init).joined(separator: ","))
        }
        if chance(15) { parts.append("WKST=" + pick(Self.weekdays)) }
        return parts.joined(separator: ";")
    }

    /// The day a zone's clocks change in a year: Berlin's last Sundays of March and October, New
    /// York's second Sunday of March and first of November, Sydney's first Sundays of October and April.
    static func changeDay(_ zone: String, year: Int, _ season: String) -> (month: Int, day: Int) {
        func sunday(month: Int, nth: Int) -> Int {
            let first = Date.daysSince1970(year: year, month: month, day: 1)
            let weekday = RecurrenceRule.Weekday.of(day: first)
            let firstSunday = 1 + (6 - weekday.rawValue)
            if nth > 0 { return firstSunday + 7 * (nth - 1) }
            let length = RecurrenceRule.daysIn(month: month, year: year)
            return firstSunday + 7 * ((length - firstSunday) / 7)
        }
        switch (zone, season) {
        case ("Europe/Berlin", "spring"): return (3, sunday(month: 3, nth: -1))
        case ("Europe/Berlin", _): return (10, sunday(month: 10, nth: -1))
        case ("America/New_York", "spring"): return (3, sunday(month: 3, nth: 2))
        case ("America/New_York", _): return (11, sunday(month: 11, nth: 1))
        case (_, "spring"): return (10, sunday(month: 10, nth: 1))
        default: return (4, sunday(month: 4, nth: 1))
        }
    }
}
