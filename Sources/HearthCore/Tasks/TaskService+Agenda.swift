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
    /// items they may not read get none), in one statement and one for each list in `details`.
    public func agenda(_ caller: Caller, households ids: [UUID], from: Date, to: Date, details: TaskDetails = .all) async throws -> [UUID: [TaskItem]] {
        guard to > from else { throw ServiceError.invalidInput(field: "to", message: "to must be after from.") }
        guard to.timeIntervalSince(from) <= 366 * 86_400 else {
            throw ServiceError.invalidInput(field: "to", message: "An agenda spans at most 366 days.")
        }
        let readable = ids.filter { caller.ability.can("read", .ofHousehold("Task", $0)) }
        guard !readable.isEmpty else { return [:] }
        func items<Row: ItemRow>(_: Row.Type) async throws -> [TaskItem] {
            try await database.rows(Agendas<Row>(households: readable, from: from, to: to, limit: Self.agendaLimit)).map(\.item)
        }
        let items = details.contains(.allFields) ? try await items(TaskItemRow.self) : try await items(TaskSummaryRow.self)
        return Dictionary(grouping: try await withDetails(items, details)) { $0.householdID }
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
            ORDER BY t.occurs_at, t.id LIMIT \(Self.agendaLimit)
            """, logger: logger)
        return try await withDetails(try await Self.decodeItems(rows))
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
