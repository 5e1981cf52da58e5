import Foundation
import Logging
import PostgresNIO

/// A person's notifications: listing them (newest first), marking them read, and reading them
/// by id for the feeds that relay another instance's. Only ever the caller's own.
public struct NotificationService: Sendable {
    let database: Database
    let clock: any HearthClock
    let logger: Logger

    public init(database: Database, clock: any HearthClock = SystemClock(), logger: Logger? = nil) {
        self.database = database
        self.clock = clock
        self.logger = logger ?? database.logger
    }

    /// The caller's notifications, newest first; only unread ones, or only `kinds`, when asked.
    public func list(_ caller: Caller, unreadOnly: Bool, kinds: [NotificationKind]? = nil, page: PageRequest) async throws -> Page<HouseholdNotification> {
        let after = try page.afterKeyset()
        var filters: [SQLCondition] = unreadOnly ? [.predicate([.sql("n.read_at IS NULL")])] : []
        // Instance notices (no household) only when asked for by kind: clients that list every
        // notification expect each to have its household.
        if let kinds {
            filters.append(.or(kinds.map { .predicate([.sql("n.kind = "), .bind(.text($0.rawValue))]) }))
        } else {
            filters.append(.predicate([.sql("n.kind <> "), .bind(.text(NotificationKind.instance.rawValue))]))
        }
        let unread = SQLCondition.and(filters)
        let total = try await database.count(
            "SELECT count(*) FROM notifications n WHERE n.user_id = \(caller.userID) AND \(unread)", wanted: page.countsTotal)
        let keyset = SQLCondition.keyset(after: after, time: "n.created_at", id: "n.id", descending: true)
        let rows = try await database.client.query("""
            SELECT n.id, n.user_id, n.household_id, n.store_id, n.title, n.body, n.priority, n.counts, n.created_at, n.read_at, n.version, n.kind, n.task_id, n.state,
                   \(unescaped: Cursor.microsecondsSQL("n.created_at")) AS micros
            FROM notifications n WHERE n.user_id = \(caller.userID) AND \(unread) AND \(keyset)
            ORDER BY n.created_at DESC, n.id DESC LIMIT \(page.rowLimit)
            """, logger: logger)
        let decoded = try await Self.decodeNotifications(rows)
        return Page(rows: decoded, request: page, totalCount: total, cursor: { Cursor.make(microseconds: $0.micros, id: $0.notification.id) },
                    item: \.notification)
    }

    /// Marks one of the caller's notifications read (again: nothing changes).
    public func markRead(_ caller: Caller, id: UUID) async throws -> HouseholdNotification {
        try await database.transaction(logger: logger) { connection in
            try await self.markRead(caller, id: id, on: connection)
        }
    }

    func markRead(_ caller: Caller, id: UUID, on connection: PostgresConnection) async throws -> HouseholdNotification {
        let rows = try await connection.query("""
            UPDATE notifications SET read_at = COALESCE(read_at, \(clock.now)) WHERE id = \(id) AND user_id = \(caller.userID)
            RETURNING id, user_id, household_id, store_id, title, body, priority, counts, created_at, read_at, version, kind, task_id, state, 0::bigint AS micros
            """, logger: logger)
        guard let notification = try await Self.decodeNotifications(rows).first?.notification else { throw ServiceError.notFound("Notification") }
        return notification
    }

    /// Notifications by id, in no order (for relaying another instance's).
    static func notifications(ids: [UUID], from client: PostgresClient, logger: Logger) async throws -> [HouseholdNotification] {
        guard !ids.isEmpty else { return [] }
        let rows = try await client.query("""
            SELECT id, user_id, household_id, store_id, title, body, priority, counts, created_at, read_at, version, kind, task_id, state, 0::bigint AS micros
            FROM notifications WHERE id = ANY(\(ids))
            """, logger: logger)
        return try await decodeNotifications(rows).map(\.notification)
    }

    static func decodeNotifications(_ rows: PostgresRowSequence) async throws -> [(notification: HouseholdNotification, micros: Int64)] {
        try await rows.rows(as: NotificationRow.self).map { ($0.notification, $0.micros) }
    }
}
