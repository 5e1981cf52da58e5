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

    /// The caller's household notifications, newest first; only unread ones, or only `kinds`, when
    /// asked. Instance notices are never among them (each of these has its household): see ``instanceNotices(_:unreadOnly:page:)``.
    public func list(_ caller: Caller, unreadOnly: Bool, kinds: [NotificationKind]? = nil, page: PageRequest) async throws -> Page<HouseholdNotification> {
        let wanted = (kinds ?? NotificationKind.allCases).filter { $0 != .instance }
        guard !wanted.isEmpty else { return .empty }
        return try await notifications(caller, unreadOnly: unreadOnly, kinds: wanted, page: page)
    }

    /// The caller's instance notices (an administrator's: a failed or overdue backup), newest first.
    public func instanceNotices(_ caller: Caller, unreadOnly: Bool, page: PageRequest) async throws -> Page<InstanceNotice> {
        let found = try await notifications(caller, unreadOnly: unreadOnly, kinds: [.instance], page: page)
        return Page(items: found.items.map { ($0.cursor, InstanceNotice($0.item)) }, hasNextPage: found.hasNextPage, totalCount: found.totalCount)
    }

    private func notifications(_ caller: Caller, unreadOnly: Bool, kinds: [NotificationKind], page: PageRequest) async throws -> Page<HouseholdNotification> {
        let after = try page.afterKeyset()
        let kindNames = kinds.map(\.rawValue)
        let query = NotificationPage(
            user: caller.userID, unreadOnly: unreadOnly, kinds: kindNames, before: after ?? NotificationPage.beforeAll, limit: page.rowLimit)
        let total = try await database.count(
            PostgresQuery(unsafeSQL: "SELECT count(*) FROM notifications n WHERE \(NotificationPage.filter)", binds: query.filterBindings()),
            wanted: page.countsTotal)
        let rows = try await database.rows(query)
        return Page(rows: rows, request: page, totalCount: total,
                    cursor: { Cursor.make(microseconds: $0.micros, id: $0.notification.id) }, item: \.notification)
    }

    /// A page of user `$1`'s notifications, newest first: only unread ones when `$2`, of the kinds
    /// `$3`, older than the cursor (`$4` microseconds since 1970, then `$5` the id), at most `$6`.
    /// One text for every page, so PostgreSQL plans it once per connection.
    struct NotificationPage: PreparedQuery {
        typealias Output = NotificationRow
        /// The notifications the page is from (`$1` to `$3`), which its total counts.
        static let filter = "n.user_id = $1 AND (NOT $2 OR n.read_at IS NULL) AND n.kind = ANY($3)"
        static let sql = """
            SELECT n.id, n.user_id, n.household_id, n.store_id, n.title, n.body, n.priority, n.counts, n.created_at, n.read_at, n.version, n.kind, n.task_id, n.state,
                   \(Cursor.microsecondsSQL("n.created_at")) AS micros
            FROM notifications n
            WHERE \(filter)
                AND (n.created_at, n.id) < ('epoch'::timestamptz + $4 * interval '1 microsecond', $5)
            ORDER BY n.created_at DESC, n.id DESC LIMIT $6
            """
        /// The first page's cursor: after every notification (9999-12-31, a time no row has).
        static let beforeAll = (microseconds: Int64(253_402_300_799_000_000), id: UUID.zero)

        let user: UUID
        let unreadOnly: Bool
        let kinds: [String]
        let before: (microseconds: Int64, id: UUID)
        let limit: Int

        /// The bindings of ``filter``.
        func filterBindings() -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(user)
            bindings.append(unreadOnly)
            bindings.append(kinds)
            return bindings
        }

        func makeBindings() throws -> PostgresBindings {
            var bindings = filterBindings()
            bindings.append(before.microseconds)
            bindings.append(before.id)
            bindings.append(limit)
            return bindings
        }
    }

    /// Marks one of the caller's household notifications read (again: nothing changes).
    public func markRead(_ caller: Caller, id: UUID) async throws -> HouseholdNotification {
        try await database.transaction(logger: logger) { connection in
            try await self.markRead(caller, id: id, on: connection)
        }
    }

    /// Marks one of the caller's instance notices read (again: nothing changes).
    public func markInstanceNoticeRead(_ caller: Caller, id: UUID) async throws -> InstanceNotice {
        try await database.transaction(logger: logger) { connection in
            InstanceNotice(try await self.markRead(caller, id: id, instance: true, on: connection))
        }
    }

    func markRead(_ caller: Caller, id: UUID, instance: Bool = false, on connection: PostgresConnection) async throws -> HouseholdNotification {
        let kind = NotificationKind.instance.rawValue
        let rows = try await connection.query("""
            UPDATE notifications SET read_at = COALESCE(read_at, \(clock.now))
            WHERE id = \(id) AND user_id = \(caller.userID) AND (kind = \(kind)) = \(instance)
            RETURNING id, user_id, household_id, store_id, title, body, priority, counts, created_at, read_at, version, kind, task_id, state, 0::bigint AS micros
            """, logger: logger)
        guard let notification = try await Self.decodeNotifications(rows).first?.notification else {
            throw ServiceError.notFound(instance ? "Instance notice" : "Notification")
        }
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
