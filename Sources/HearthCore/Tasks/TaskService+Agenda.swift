import Foundation
import PostgresNIO

extension TaskService {
    /// The most items one agenda answers; a busier range should be asked for in parts.
    public static let agendaLimit = 2_000

    /// Every item that occurs in `from..<to`: events overlapping it, tasks whose deadline falls
    /// in it; ordered by when they occur (an event by its start, a task by its deadline).
    public func agenda(_ caller: Caller, householdID: UUID, from: Date, to: Date, details: TaskDetails = .all) async throws -> [TaskItem] {
        _ = try await households.readableHousehold(caller, householdID)
        return try await agenda(caller, households: [householdID], from: from, to: to, details: details)[householdID] ?? []
    }

    /// The agendas of several households the caller was shown (not read again; households whose
    /// items they may not read get none), in one statement, one for their repeating events, and one
    /// for each list in `details`. A repeating event is listed once per occurrence overlapping the
    /// range (see ``occurrences(of:from:to:zone:limit:)``).
    public func agenda(_ caller: Caller, households ids: [UUID], from: Date, to: Date, details: TaskDetails = .all) async throws -> [UUID: [TaskItem]] {
        guard to > from else { throw ServiceError.invalidInput(field: "to", message: "to must be after from.") }
        guard to.timeIntervalSince(from) <= 366 * 86_400 else {
            throw ServiceError.invalidInput(field: "to", message: "An agenda spans at most 366 days.")
        }
        let readable = ids.filter { caller.ability.can("read", .ofHousehold("Task", $0)) }
        guard !readable.isEmpty else { return [:] }
        // The repeating events, and each of their occurrences as (the event's place in that list, its original start).
        func items<Row: ItemRow>(_: Row.Type) async throws -> (once: [TaskItem], events: [TaskItem], series: [(event: Int, date: Date)]) {
            let once = try await database.rows(Agendas<Row>(households: readable, from: from, to: to, limit: Self.agendaLimit)).map(\.item)
            let rows = try await database.client.query("""
                SELECT \(unescaped: Row.columns), h.time_zone FROM task_items t JOIN households h ON h.id = t.household_id
                WHERE t.household_id = ANY(\(readable)) AND t.kind = 'EVENT' AND t.repeat_rule IS NOT NULL AND t.starts_at < \(to)
                ORDER BY t.household_id, t.starts_at, t.id
                """, logger: logger).rows(as: Row.self, then: "time_zone", String.self)
            // Each household's zone made once, not per event.
            var zones: [String: TimeZone] = [:]
            var series: [(event: Int, date: Date)] = []
            for (index, (row, name)) in rows.enumerated() {
                let zone = zones[name] ?? TimeZone(identifier: name) ?? .gmt
                zones[name] = zone
                for date in Self.occurrenceDates(of: row.item, from: from, to: to, zone: zone, limit: Self.agendaLimit) {
                    series.append((index, date))
                }
            }
            return (once, rows.map(\.0.item), series)
        }
        let (once, events, series) = details.contains(.allFields) ? try await items(TaskItemRow.self) : try await items(TaskSummaryRow.self)
        // Details are read once per item, not per occurrence; each occurrence is made once, from its detailed event.
        let detailed = try await withDetails(once + events, details)
        let listed = Array(detailed.prefix(once.count)) + series.map { Self.occurrence($0.date, of: detailed[once.count + $0.event]) }
        guard !series.isEmpty else { return Dictionary(grouping: listed) { $0.householdID } }
        // By time, then id (as the statement orders them): each key made once, not per comparison.
        return Dictionary(grouping: listed) { $0.householdID }.mapValues { items in
            items.map { (time: $0.occursAt ?? .distantPast, id: $0.id.lowercasedString, item: $0) }
                .sorted { ($0.time, $0.id) < ($1.time, $1.id) }.prefix(Self.agendaLimit).map(\.item)
        }
    }

    /// The occurrences of a repeating event that overlap `from..<to` (at most `limit`), each the
    /// event with its own start and end and `listedOccurrence` its original start; a changed one
    /// where its override puts it, with its own title, notes and place. The series' first start is
    /// always one; the exceptions are none.
    static func occurrences(of event: TaskItem, from: Date, to: Date, zone: TimeZone, limit: Int) -> [TaskItem] {
        occurrenceDates(of: event, from: from, to: to, zone: zone, limit: limit).map { occurrence($0, of: event) }
    }

    /// The original starts of the occurrences ``occurrences(of:from:to:zone:limit:)`` lists, in its order.
    static func occurrenceDates(of event: TaskItem, from: Date, to: Date, zone: TimeZone, limit: Int) -> [Date] {
        guard let repetition = event.repetition, let position = event.position, let rule = repetition.recurrenceRule,
              let start = event.startsAt, let end = event.endsAt else { return [] }
        let length = end.timeIntervalSince(start)
        // An occurrence overlaps when it starts before `to` and ends after `from` (a moment's event: at or after it).
        func overlaps(_ begins: Date, _ length: TimeInterval) -> Bool {
            begins < to && (length == 0 ? begins >= from : begins.addingTimeInterval(length) > from)
        }
        var dates = rule.occurrences(start: position.start, in: zone, from: from.addingTimeInterval(-length), before: to,
                                     limit: limit + repetition.exceptions.count + repetition.overrides.count + 1)
        if overlaps(position.start, length), !dates.contains(where: { Repetition.second($0) == Repetition.second(position.start) }) {
            dates.insert(position.start, at: 0)
        }
        let skipped = Set((repetition.exceptions + repetition.overrides.map(\.occurrence)).map(Repetition.second))
        let scheduled = dates.lazy.filter { !skipped.contains(Repetition.second($0)) && overlaps($0, length) }.prefix(limit)
        let moved = repetition.overrides.filter { overlaps($0.startsAt, $0.endsAt.timeIntervalSince($0.startsAt)) }
        guard !moved.isEmpty else { return Array(scheduled) }
        // By when each occurs: a moved one at its own start.
        return Array((scheduled.map { (starts: $0, date: $0) } + moved.map { (starts: $0.startsAt, date: $0.occurrence) })
            .sorted { $0.starts < $1.starts }.prefix(limit).map(\.date))
    }

    /// Each household's items occurring from `$2` to `$3` (at most `$4` each, the parents' `page`),
    /// by household and time, after the columns `columns`; `$5` is the number of households (see
    /// ``parentRows(_:count:page:)``).
    static func agendaSQL(_ columns: String) -> String {
        """
        SELECT \(columns) FROM \(parentRows("$1", count: "$5", page: "$4")) AS parent
        CROSS JOIN LATERAL (
            SELECT * FROM (
                SELECT * FROM task_items WHERE household_id = parent.id AND kind = 'EVENT' AND ends_at > $2 AND starts_at < $3
                                          AND repeat_rule IS NULL
                UNION ALL
                SELECT * FROM task_items WHERE household_id = parent.id AND kind = 'TASK' AND deadline >= $2 AND deadline < $3
            ) t
            ORDER BY t.occurs_at, t.id LIMIT parent.page
        ) t
        ORDER BY t.household_id, t.occurs_at, t.id
        """
    }

    /// Each household's agenda, its items read as `Row` (every field, or what a list shows).
    struct Agendas<Row: ItemRow>: PreparedQuery {
        typealias Output = Row
        static var sql: String { TaskService.agendaSQL(Row.columns) }
        let households: [UUID]
        let from: Date
        let to: Date
        let limit: Int

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(households)
            bindings.append(from)
            bindings.append(to)
            bindings.append(limit)
            bindings.append(households.count)
            return bindings
        }
    }

    /// What occurs on a calendar day (`YYYY-MM-DD`) in the household's time zone: events that
    /// start that day and tasks due that day, from local midnight to the next (23 or 25 hours on
    /// a daylight-saving change), by time.
    public func occursOn(_ caller: Caller, householdID: UUID, date: String) async throws -> [TaskItem] {
        let household = try await households.readableHousehold(caller, householdID)
        let zone = TimeZone(identifier: household.timeZone) ?? .gmt
        let (start, end) = try Self.localDay(date, in: zone)
        guard caller.ability.can("read", .ofHousehold("Task", householdID)) else { return [] }
        let rows = try await database.client.query("""
            SELECT \(unescaped: Self.itemSelect) FROM task_items t
            WHERE t.household_id = \(householdID) AND t.occurs_at >= \(start) AND t.occurs_at < \(end)
                  AND (t.kind = 'TASK' OR t.repeat_rule IS NULL)
            ORDER BY t.occurs_at, t.id LIMIT \(Self.agendaLimit)
            """, logger: logger)
        let once = try await withDetails(try await Self.decodeItems(rows))
        // Repeating events: their occurrences starting that day.
        let series = try await withDetails(try await Self.decodeItems(try await database.client.query("""
            SELECT \(unescaped: Self.itemSelect) FROM task_items t
            WHERE t.household_id = \(householdID) AND t.kind = 'EVENT' AND t.repeat_rule IS NOT NULL AND t.starts_at < \(end)
            """, logger: logger))).flatMap { Self.occurrences(of: $0, from: start, to: end, zone: zone, limit: Self.agendaLimit) }
            .filter { ($0.startsAt ?? start) >= start }
        return Array((once + series).sorted { ($0.occursAt ?? start, $0.id.uuidString) < ($1.occursAt ?? start, $1.id.uuidString) }
            .prefix(Self.agendaLimit))
    }

    /// A `YYYY-MM-DD` day's start and end in `zone`.
    public static func localDay(_ text: String, in zone: TimeZone) throws(ServiceError) -> (start: Date, end: Date) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else {
            throw .invalidInput(field: "date", message: "date must be a calendar day as YYYY-MM-DD; \"\(text.prefix(20))\" is not.")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: year, month: month, day: day)
        guard components.isValidDate(in: calendar), let start = calendar.date(from: components),
              let end = calendar.date(byAdding: .day, value: 1, to: start) else {
            throw .invalidInput(field: "date", message: "date \(text) is not a day of the calendar.")
        }
        return (start, end)
    }
}
