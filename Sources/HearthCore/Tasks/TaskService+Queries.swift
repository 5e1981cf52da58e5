import Foundation
import PostgresNIO

extension TaskService {
    /// A household's items, filtered and sorted, a page at a time.
    public func items(_ caller: Caller, householdID: UUID, query: TaskQuery, page: PageRequest, details: TaskDetails = .all) async throws -> Page<TaskItem> {
        _ = try await households.readableHousehold(caller, householdID)
        return try await items(caller, households: [householdID], query: query, page: page, details: details)[householdID] ?? .empty
    }

    /// The same page of items for each of several households the caller was shown (not read again;
    /// households whose items they may not read are left out): one statement (`LATERAL … LIMIT`
    /// per household, in the sort's index order), plus one grouped count when the page wants totals.
    /// `details`: the lists each item comes with.
    public func items(_ caller: Caller, households ids: [UUID], query: TaskQuery, page: PageRequest,
                      details: TaskDetails = .all) async throws -> [UUID: Page<TaskItem>] {
        let readable = ids.filter { caller.ability.can("read", .ofHousehold("Task", $0)) }
        guard !readable.isEmpty else { return [:] }
        var filter: [SQLCondition] = []
        if let kind = query.kind { filter.append(.predicate([.sql("t.kind = "), .bind(.text(kind.rawValue))])) }
        if let completed = query.completed { filter.append(.predicate([.sql(completed ? "t.completed_at IS NOT NULL" : "t.completed_at IS NULL")])) }
        if let assignee = query.assigneeID { filter.append(.predicate([.sql("t.assignee_id = "), .bind(.uuid(assignee))])) }
        for label in query.labelIDs {
            filter.append(.predicate([.sql("EXISTS (SELECT 1 FROM task_labels tl WHERE tl.task_id = t.id AND tl.label_id = "), .bind(.uuid(label)), .sql(")")]))
        }
        if let before = query.dueBefore { filter.append(.predicate([.sql("t.deadline < ")] + SQLPiece.timestamp(before))) }
        if let after = query.dueAfter { filter.append(.predicate([.sql("t.deadline >= ")] + SQLPiece.timestamp(after))) }
        if let search = query.search {
            let pattern = LikePattern.containing(search.lowercased())
            filter.append(.predicate([.sql("(lower(t.title) LIKE "), .bind(.text(pattern)), .sql(" OR lower(COALESCE(t.notes, '')) LIKE "),
                                      .bind(.text(pattern)), .sql(")")]))
        }
        let condition = SQLCondition.and(filter)
        let totals = try await database.counts("SELECT t.household_id AS key, count(*)::int8 AS count FROM task_items t WHERE t.household_id = ANY(\(readable)) AND \(condition) GROUP BY 1", wanted: page.countsTotal)
        let ordering = query.sort.ordering
        let keyset = try Self.itemKeyset(page, sort: query.sort)
        // Each item read as `Row`, with its sort key (read only for cursors: NULL when the page makes none).
        func read<Row: ItemRow>(_: Row.Type) async throws -> [(item: TaskItem, key: String?)] {
            try await database.client.query("""
                SELECT \(unescaped: Row.columns), \(unescaped: page.makesCursors ? ordering.key : "NULL")::text AS sort_key
                FROM unnest(\(readable)::uuid[]) AS parent(id)
                CROSS JOIN LATERAL (
                    SELECT * FROM task_items t WHERE t.household_id = parent.id AND \(condition) AND \(keyset)
                    ORDER BY \(unescaped: ordering.orderBy) LIMIT \(page.rowLimit)
                ) t
                ORDER BY t.household_id, \(unescaped: ordering.orderBy)
                """, logger: logger).rows(as: KeyedRow<Row>.self).map { ($0.row.item, $0.key) }
        }
        // A first page filtered by kind and completion alone (what lists open with) has prepared
        // statements: one per sort and row, planned once per connection.
        func firstPage<Row: ItemRow>(_: Row.Type) async throws -> [(item: TaskItem, key: String?)] {
            func read<Sort: SortCase<TaskQuery.Sort>>(_: Sort.Type) async throws -> [(item: TaskItem, key: String?)] {
                try await database.rows(FirstItemPages<Row, Sort>(
                    households: readable, kind: query.kind?.rawValue, completed: query.completed, limit: page.rowLimit)).map { ($0.row.item, $0.key) }
            }
            // Each sort's statement named statically (see `StoreService.products`).
            return switch query.sort {
            case .deadline: try await read(ByDeadline.self)
            case .priority: try await read(ByPriority.self)
            case .created: try await read(ByCreation.self)
            case .title: try await read(ByTitle.self)
            }
        }
        let prepared = page.after == nil && query.assigneeID == nil && query.labelIDs.isEmpty && query.dueBefore == nil
            && query.dueAfter == nil && query.search == nil
        let rows = switch (prepared, details.contains(.allFields)) {
        case (true, true): try await firstPage(TaskItemRow.self)
        case (true, false): try await firstPage(TaskSummaryRow.self)
        case (false, true): try await read(TaskItemRow.self)
        case (false, false): try await read(TaskSummaryRow.self)
        }
        let sort = query.sort
        return Page.grouped(Array(zip(try await withDetails(rows.map(\.item), details), rows.map(\.key))), by: \.0.householdID,
                            parents: readable, request: page, totals: totals,
                            cursor: { Cursor.make([sort.rawValue, $0.1 ?? "", $0.0.id.lowercasedString]) }, item: \.0)
    }

    /// The first page of each household's items `$1` (`$2` of them), of kind `$3` and completed
    /// or not as `$4` says (either unbound: any), at most `$5` each (the parents' `page`, so the
    /// plan is kept for every call), in `Sort`'s order, read as `Row` and the sort key.
    struct FirstItemPages<Row: ItemRow, Sort: SortCase<TaskQuery.Sort>>: PreparedQuery {
        typealias Output = KeyedRow<Row>
        static var sql: String {
            let ordering = Sort.sort.ordering
            return """
                SELECT \(Row.columns), (\(ordering.key))::text AS sort_key
                FROM \(parentRows("$1", count: "$2", page: "$5")) AS parent
                CROSS JOIN LATERAL (
                    SELECT * FROM task_items t WHERE t.household_id = parent.id
                        AND ($3::text IS NULL OR t.kind = $3) AND ($4::bool IS NULL OR (t.completed_at IS NOT NULL) = $4)
                    ORDER BY \(ordering.orderBy) LIMIT parent.page
                ) t
                ORDER BY t.household_id, \(ordering.orderBy)
                """
        }
        let households: [UUID]
        let kind: String?
        let completed: Bool?
        let limit: Int

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(parents: households)
            bindings.append(kind)
            bindings.append(completed)
            bindings.append(limit)
            return bindings
        }
    }

    static func itemKeyset(_ page: PageRequest, sort: TaskQuery.Sort) throws(PageRequestError) -> SQLCondition {
        guard let after = page.after else { return .alwaysTrue }
        let refused = PageRequestError(field: "after", message: "after is not a cursor from this list (same sort) of tasks.")
        guard let parts = Cursor.parts(after), parts.count == 3, parts[0] == sort.rawValue, let id = UUID(uuidString: parts[2]) else { throw refused }
        if sort == .deadline {
            // Ordered by the column itself (the index's order): rows after the cursor's deadline,
            // or after its id at the same deadline; items without a deadline come last.
            guard let number = Int64(parts[1]) else { throw refused }
            if number == Int64.max { return .predicate([.sql("(t.deadline IS NULL AND t.id > "), .bind(.uuid(id)), .sql(")")]) }
            let deadline = SQLPiece.timestamp(microseconds: number - TaskQuery.Sort.yearOneOffset)
            return .predicate([.sql("(t.deadline IS NULL OR t.deadline > ")] + deadline + [.sql(" OR (t.deadline = ")] + deadline
                              + [.sql(" AND t.id > "), .bind(.uuid(id)), .sql("))")])
        }
        let key: SQLPiece
        if sort.ordering.isText {
            key = .bind(.text(parts[1]))
        } else {
            guard let number = Int64(parts[1]) else { throw refused }
            key = .bind(.integer(number))
        }
        let ordering = sort.ordering
        return .row("\(ordering.key), t.id", ordering.descending ? "<" : ">", [[key], [.bind(.uuid(id))]])
    }
}

extension TaskQuery.Sort {
    /// Microseconds from year 1 to 1970.
    static let yearOneOffset: Int64 = 62_135_596_800_000_000

    /// A deadline as a sortable bigint: microseconds since year 1 (always positive), no deadline last.
    static let deadlineKey = "COALESCE((extract(epoch FROM t.deadline) * 1000000)::bigint + \(yearOneOffset), \(Int64.max))"

    /// The sort key (bigint, or text compared byte-wise; never NULL), its direction, and
    /// whether it is text; ties go by id.
    var ordering: (key: String, descending: Bool, isText: Bool, orderBy: String) {
        let key: String
        let descending: Bool
        let isText: Bool
        switch self {
        case .deadline:
            (key, descending, isText) = (Self.deadlineKey, false, false)
        case .priority:
            // HIGH first, then the soonest deadline: the rank's digit, then the zero-padded deadline key.
            key = "((CASE t.priority WHEN 'HIGH' THEN '0' WHEN 'MEDIUM' THEN '1' WHEN 'LOW' THEN '2' ELSE '3' END) || lpad((\(Self.deadlineKey))::text, 19, '0')) COLLATE \"C\""
            (descending, isText) = (false, true)
        case .created:
            (key, descending, isText) = ("(extract(epoch FROM t.created_at) * 1000000)::bigint", true, false)
        case .title:
            (key, descending, isText) = ("lower(t.title) COLLATE \"C\"", false, true)
        }
        let direction = descending ? "DESC" : "ASC"
        // The deadline sort orders by the column, as the (household_id, deadline, id) index does;
        // its key (the cursor's) follows the same order.
        if self == .deadline { return (key, false, false, "t.deadline ASC NULLS LAST, t.id ASC") }
        return (key, descending, isText, "\(key) \(direction), t.id \(direction)")
    }
}

extension TaskService {
    enum ByDeadline: SortCase { static let sort = TaskQuery.Sort.deadline }
    enum ByPriority: SortCase { static let sort = TaskQuery.Sort.priority }
    enum ByCreation: SortCase { static let sort = TaskQuery.Sort.created }
    enum ByTitle: SortCase { static let sort = TaskQuery.Sort.title }
}
