import Foundation
import PostgresNIO

extension StoreService {
    /// The event columns, with `reader`'s read state last.
    private static func eventSelect(reader: UUID) -> SQLCondition {
        .predicate([.sql("""
            e.id, e.household_id, e.store_id, s.name AS store_name, e.product_id, p.title AS product_title, e.variant_id, \
            v.title AS variant_title, e.type, e.old_price, e.new_price, e.magnitude, e.created_at, \
            GREATEST(e.version, COALESCE((SELECT c.version FROM sync_changes c WHERE c.household_id = e.household_id \
            AND c.type = 'STORE_EVENT' AND c.record_id = e.id::text AND c.person = 
            """), .bind(.uuid(reader)), .sql("), 0)) AS version, ")] + readState(reader) + [.sql(" AS read")])
    }

    /// The event's store, product and variant (for their names), joined to events `e`.
    private static let eventJoins = """
        JOIN stores s ON s.id = e.store_id JOIN products p ON p.id = e.product_id LEFT JOIN variants v ON v.id = e.variant_id
        """

    /// Whether the caller may read a household's events; `notFound` for a household not theirs.
    public func mayReadEvents(_ caller: Caller, householdID: UUID) async throws -> Bool {
        _ = try await households.readableHousehold(caller, householdID)
        return caller.ability.can("read", Self.eventSubject(householdID))
    }

    /// The household's change events, newest first, with the caller's read state.
    public func events(_ caller: Caller, householdID: UUID, query: StoreEventQuery, page: PageRequest) async throws -> Page<StoreEvent> {
        guard try await mayReadEvents(caller, householdID: householdID) else { return .empty }
        return try await events(reader: caller.userID, households: [householdID], query: query, page: page)[householdID] ?? .empty
    }

    /// The same page of change events for each of several households the caller was shown (not read
    /// again; households whose events they may not read are left out): one statement
    /// (`LATERAL … LIMIT` per household, newest first), plus one grouped count when the page wants totals.
    public func events(_ caller: Caller, households ids: [UUID], query: StoreEventQuery, page: PageRequest) async throws -> [UUID: Page<StoreEvent>] {
        let readable = ids.filter { caller.ability.can("read", Self.eventSubject($0)) }
        return try await events(reader: caller.userID, households: readable, query: query, page: page)
    }

    private func events(reader: UUID, households ids: [UUID], query: StoreEventQuery, page: PageRequest) async throws -> [UUID: Page<StoreEvent>] {
        guard !ids.isEmpty else { return [:] }
        let after = try page.afterInteger()
        var filter: [SQLCondition] = []
        if let stores = query.storeIDs {
            filter.append(.or(stores.map { .predicate([.sql("e.store_id = "), .bind(.uuid($0))]) }))
        }
        if let types = query.types {
            filter.append(.or(types.map { .predicate([.sql("e.type = "), .bind(.text($0.rawValue))]) }))
        }
        if let since = query.since {
            filter.append(.predicate([.sql("e.created_at >= ")] + SQLPiece.timestamp(since)))
        }
        if query.unreadOnly { filter.append(.not(Self.isRead(reader))) }
        let condition = SQLCondition.and(filter)
        let totals = try await database.counts("SELECT e.household_id AS key, count(*)::int8 AS count FROM store_events e WHERE e.household_id = ANY(\(ids)) AND \(condition) GROUP BY 1", wanted: page.countsTotal)
        let keyset: SQLCondition = after.map { .predicate([.sql("e.id < "), .bind(.integer($0))]) } ?? .alwaysTrue
        let rows = try await database.client.query("""
            SELECT \(Self.eventSelect(reader: reader)) FROM unnest(\(ids)::uuid[]) AS parent(id)
            CROSS JOIN LATERAL (
                SELECT e.* FROM store_events e WHERE e.household_id = parent.id AND \(condition) AND \(keyset)
                ORDER BY e.id DESC LIMIT \(page.rowLimit)
            ) e
            \(unescaped: Self.eventJoins)
            ORDER BY e.household_id, e.id DESC
            """, logger: logger)
        return Page.grouped(try await Self.decodeEvents(rows), by: \.householdID, parents: ids, request: page, totals: totals,
                            cursor: { Cursor.make([String($0.id)]) }, item: { $0 })
    }

    /// Each product's newest price change (PRICE_DROPPED or PRICE_INCREASED) with the caller's
    /// read state, for products the caller was shown (reading their household's events is checked
    /// in memory): one statement, each product's event the first entry of its index range.
    public func recentPriceChanges(_ caller: Caller, products: [(id: UUID, householdID: UUID)]) async throws -> [UUID: StoreEvent] {
        let readable = products.filter { caller.ability.can("read", Self.eventSubject($0.householdID)) }.map(\.id)
        guard !readable.isEmpty else { return [:] }
        let rows = try await database.client.query("""
            SELECT \(Self.eventSelect(reader: caller.userID)) FROM unnest(\(readable)::uuid[]) AS parent(id)
            CROSS JOIN LATERAL (
                SELECT e.* FROM store_events e WHERE e.product_id = parent.id AND e.type IN ('PRICE_DROPPED', 'PRICE_INCREASED')
                ORDER BY e.id DESC LIMIT 1
            ) e
            \(unescaped: Self.eventJoins)
            """, logger: logger)
        return Dictionary(try await Self.decodeEvents(rows).map { ($0.productID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Events of one household the caller has not read, optionally of one store.
    public func unreadEventCount(_ caller: Caller, householdID: UUID, storeID: UUID?) async throws -> Int {
        guard try await mayReadEvents(caller, householdID: householdID) else { return 0 }
        let store: SQLCondition = storeID.map { .predicate([.sql("e.store_id = "), .bind(.uuid($0))]) } ?? .alwaysTrue
        return try await database.count("""
            SELECT count(*) FROM store_events e WHERE e.household_id = \(householdID) AND \(store) AND NOT \(Self.isRead(caller.userID))
            """)
    }

    /// Unread events per household, for households the caller was shown (reading their events is
    /// checked in memory), in one grouped statement; a household without any is absent.
    public func unreadEventCounts(_ caller: Caller, households ids: [UUID]) async throws -> [UUID: Int] {
        let readable = ids.filter { caller.ability.can("read", Self.eventSubject($0)) }
        guard !readable.isEmpty else { return [:] }
        return try await database.counts(UnreadCounts<ByHousehold>(ids: readable, reader: caller.userID))
    }

    /// Unread events per store, for stores the caller was shown (reading their household's
    /// events is checked in memory), in one grouped statement; a store without any is absent.
    public func unreadEventCounts(_ caller: Caller, stores: [(id: UUID, householdID: UUID)]) async throws -> [UUID: Int] {
        let readable = stores.filter { caller.ability.can("read", Self.eventSubject($0.householdID)) }.map(\.id)
        guard !readable.isEmpty else { return [:] }
        return try await database.counts(UnreadCounts<ByStore>(ids: readable, reader: caller.userID))
    }

    /// The events `$2` has not read, counted by `Key.column` for the keys `$1` (a prepared
    /// statement: the dashboard asks for both counts on every load).
    struct UnreadCounts<Key: UnreadCountKey>: PreparedQuery {
        typealias Output = GroupCountRow
        static var sql: String {
            """
            SELECT e.\(Key.column) AS key, count(*)::int8 AS count FROM store_events e
            WHERE e.\(Key.column) = ANY($1) AND NOT \(StoreService.readStateSQL(reader: "$2")) GROUP BY 1
            """
        }
        let ids: [UUID]
        let reader: UUID

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(ids)
            bindings.append(reader)
            return bindings
        }
    }

    /// Unread events counted by household.
    enum ByHousehold: UnreadCountKey { static let column = "household_id" }
    /// Unread events counted by store.
    enum ByStore: UnreadCountKey { static let column = "store_id" }

    /// Marks one event read for the caller (every member may); reading a read event changes nothing.
    public func markEventRead(_ caller: Caller, id: Int64) async throws -> StoreEvent {
        _ = try await database.transaction(logger: logger) { connection in
            try await self.markEventRead(caller, id: id, on: connection)
        }
        guard let event = try await event(id, reader: caller.userID) else { throw ServiceError.notFound("Event") }
        return event
    }

    /// Marks the event read for the caller; returns the event's version for them.
    func markEventRead(_ caller: Caller, id: Int64, on connection: PostgresConnection) async throws -> Int {
        guard let event = try await event(id, reader: caller.userID, on: connection), caller.ability.can("read", Self.eventSubject(event.householdID)) else {
            throw ServiceError.notFound("Event")
        }
        try caller.authorize("markRead", Self.eventSubject(event.householdID))
        guard !event.isRead else { return event.version }
        try await connection.query(
            "INSERT INTO store_event_reads (user_id, event_id) VALUES (\(caller.userID), \(id)) ON CONFLICT DO NOTHING", logger: logger)
        let rows = try await connection.query("""
            SELECT max(version) FROM sync_changes WHERE household_id = \(event.householdID) AND type = 'STORE_EVENT'
                AND record_id = \(String(id)) AND (person IS NULL OR person = \(caller.userID))
            """, logger: logger)
        for try await version in rows.decode(Int?.self) { return version ?? event.version }
        return event.version
    }

    /// Marks every event of a household (or of one of its stores) read for the caller; returns
    /// how many were unread.
    public func markAllEventsRead(_ caller: Caller, householdID: UUID, storeID: UUID?) async throws -> Int {
        _ = try await households.readableHousehold(caller, householdID)
        try caller.authorize("markRead", Self.eventSubject(householdID))
        if let storeID {
            let store = try await readableStore(caller, storeID)
            guard store.householdID == householdID else { throw ServiceError.notFound("Store") }
        }
        let unread = try await unreadEventCount(caller, householdID: householdID, storeID: storeID)
        let store: SQLCondition = storeID.map { .predicate([.sql("s.id = "), .bind(.uuid($0))]) } ?? .alwaysTrue
        // Several rows, each logging its events for the reader: through the runner, so that two
        // devices marking at once (or a store sync) never surface a deadlock.
        let logger = self.logger
        try await database.transaction(logger: logger) { connection in
            _ = try await connection.query("""
                INSERT INTO store_read_marks (user_id, store_id, read_up_to)
                SELECT \(caller.userID), s.id, COALESCE((SELECT max(e.id) FROM store_events e WHERE e.store_id = s.id), 0)
                FROM stores s WHERE s.household_id = \(householdID) AND \(store) ORDER BY s.id
                ON CONFLICT (user_id, store_id) DO UPDATE SET read_up_to = GREATEST(store_read_marks.read_up_to, EXCLUDED.read_up_to)
                """, logger: logger)
        }
        return unread
    }

    /// One event with `reader`'s read state; nil when there is none (inside a transaction, read on its connection).
    func event(_ id: Int64, reader: UUID, on connection: PostgresConnection? = nil) async throws -> StoreEvent? {
        try await events(ids: [id], reader: reader, on: connection).first
    }

    /// Events with these ids (for subscriptions), oldest first.
    public func events(ids: [Int64], reader: UUID) async throws -> [StoreEvent] {
        try await events(ids: ids, reader: reader, on: nil)
    }

    private func events(ids: [Int64], reader: UUID, on connection: PostgresConnection?) async throws -> [StoreEvent] {
        try await Self.decodeEvents(try await database.query(
            "SELECT \(Self.eventSelect(reader: reader)) FROM store_events e \(unescaped: Self.eventJoins) WHERE e.id = ANY(\(ids)) ORDER BY e.id",
            on: connection, logger: logger))
    }

    static func eventSubject(_ householdID: UUID) -> AbilitySubject {
        .ofHousehold("Event", householdID)
    }

    /// Whether `reader` has read event `e`: under their read mark for its store, or read singly.
    private static func isRead(_ reader: UUID) -> SQLCondition {
        .predicate(readState(reader))
    }

    private static func readState(_ reader: UUID) -> [SQLPiece] {
        readState(reader: .bind(.uuid(reader)))
    }

    /// ``readState(_:)`` with the reader as the SQL `reader` (a prepared statement's parameter).
    static func readStateSQL(reader: String) -> String {
        readState(reader: .sql(reader)).map { piece in
            guard case .sql(let text) = piece else { preconditionFailure("the reader is SQL text") }
            return text
        }.joined()
    }

    /// Whether the reader (`reader`: a bound value or the SQL that names them) has read event
    /// `e`: under their read mark for its store, or read singly.
    private static func readState(reader: SQLPiece) -> [SQLPiece] {
        [.sql("(e.id <= COALESCE((SELECT m.read_up_to FROM store_read_marks m WHERE m.user_id = "), reader,
         .sql(" AND m.store_id = e.store_id), 0) OR EXISTS (SELECT 1 FROM store_event_reads r WHERE r.user_id = "), reader,
         .sql(" AND r.event_id = e.id))")]
    }

    static func decodeEvents(_ rows: PostgresRowSequence) async throws -> [StoreEvent] {
        try await rows.rows(as: StoreEventRow.self).map(\.event)
    }
}

/// The column unread events are counted by (``StoreService/UnreadCounts``).
protocol UnreadCountKey: Sendable {
    static var column: String { get }
}
