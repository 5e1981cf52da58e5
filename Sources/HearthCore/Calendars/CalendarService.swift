import Foundation
import Logging
import PostgresNIO

/// A person's household calendars as calendar apps see them over CalDAV: each household's tasks
/// (VTODO) and events (VEVENT), read and written through the task service (one code path, so
/// writes reach sync, reminders and notifications like any other), with each item's version as
/// its ETag and the change log as the source of sync tokens.
public struct CalendarService: Sendable {
    let database: Database
    let tasks: TaskService
    let clock: any HearthClock
    /// Whose change log the sync tokens read, and how long it covers them.
    let sync: SyncService
    let logger: Logger

    public init(database: Database, tasks: TaskService, sync: SyncService, clock: any HearthClock, logger: Logger) {
        self.database = database
        self.tasks = tasks
        self.sync = sync
        self.clock = clock
        self.logger = logger
    }

    /// Most items one sync-collection answer holds (more: truncated, continued with the token).
    public static let maximumSyncPage = 5_000

    // MARK: Collections

    private struct CollectionRow: TypedRow {
        let id: UUID
        let name: String
        let zone: String
        let taskTag: String
        let eventTag: String

        init(_ row: inout RowCells) throws {
            (id, name, zone) = (try row("id"), try row("name"), try row("time_zone"))
            (taskTag, eventTag) = (try row("task_tag"), try row("event_tag"))
        }
    }

    /// The caller's calendars: two for each household they may read.
    public func collections(_ caller: Caller) async throws -> [CalendarCollection] {
        try await collections(caller, of: Array(caller.roles.keys))
    }

    /// The caller's calendar named `name` (`<household id>-tasks` or `-events`), if they may read
    /// it: only that household is read.
    public func collection(_ caller: Caller, named name: String) async throws -> CalendarCollection? {
        let kind: TaskKind = name.hasSuffix("-tasks") ? .task : .event
        guard name.hasSuffix("-tasks") || name.hasSuffix("-events"),
              let household = UUID(uuidString: String(name.dropLast(kind == .task ? 6 : 7))) else { return nil }
        return try await collections(caller, of: [household]).first { $0.name == name }
    }

    /// The calendars of those of `households` the caller may read.
    private func collections(_ caller: Caller, of households: [UUID]) async throws -> [CalendarCollection] {
        let readable = households.filter { caller.roles[$0] != nil && caller.ability.can("read", .ofHousehold("Task", $0)) }
        guard !readable.isEmpty else { return [] }
        // A tag sums the versions of the calendar's logged changes: any change, committed in any
        // order (a late commit can carry an older version than the newest seen), moves it.
        let rows = try await database.client.query("""
            SELECT h.id, h.name, h.time_zone,
                   coalesce((SELECT sum(c.version)::text || '-' || count(*) FROM sync_changes c
                             WHERE c.household_id = h.id AND c.type IN ('TASK', 'SUBTASK') AND c.kind IS DISTINCT FROM 'EVENT'), '0') AS task_tag,
                   coalesce((SELECT sum(c.version)::text || '-' || count(*) FROM sync_changes c
                             WHERE c.household_id = h.id AND c.type = 'TASK' AND c.kind IS DISTINCT FROM 'TASK'), '0') AS event_tag
            FROM households h WHERE h.id = ANY(\(readable)) ORDER BY lower(h.name), h.id
            """, logger: logger).rows(as: CollectionRow.self)
        return rows.flatMap { row in
            let writable = caller.ability.can("create", .ofHousehold("Task", row.id))
            return [TaskKind.task, .event].map { kind in
                CalendarCollection(householdID: row.id, householdName: row.name, timeZone: row.zone, kind: kind,
                                   tag: kind == .task ? row.taskTag : row.eventTag, writable: writable)
            }
        }
    }

    // MARK: Items

    /// One item of a calendar as an app reads it.
    public struct Entry: Sendable {
        /// Its resource name in the calendar, e.g. `<uid>.ics`.
        public var name: String
        public var uid: String
        public var item: TaskItem
        /// What the app wrote that Hearth does not model.
        public var extra: String?
        /// For one of a task's subtasks (its own VTODO): the subtask and its task's UID; ``item`` is then the task.
        public var subtask: Subtask?
        public var parentUID: String?

        /// The ETag: the item's version (a subtask's is its task's, which moves with every change of its subtasks).
        public var etag: String { "\"\(item.version)\"" }

        /// The item as iCalendar, its times in `zone` (`timeZones` keeps the VTIMEZONEs written, for many items).
        public func iCalendar(in zone: TimeZone, timeZones: VTimeZoneCache? = nil) -> String {
            if let subtask, let parentUID { return item.iCalendar(subtask: subtask, uid: uid, parentUID: parentUID, extra: extra) }
            return item.iCalendar(uid: uid, extra: extra, zone: zone, timeZones: timeZones)
        }
    }

    private struct SubtaskEntryRow: TypedRow {
        let taskID: UUID
        let subtask: Subtask
        let name: String
        let uid: String
        let extra: String?
        let parentUID: String

        init(_ row: inout RowCells) throws {
            taskID = try row("task_id")
            subtask = Subtask(id: try row("id"), position: try row("position"), title: try row("title"), done: try row("done"))
            (name, uid, extra, parentUID) = (try row("calendar_name"), try row("calendar_uid"), try row("calendar_extra"), try row("parent_uid"))
        }
    }

    private struct EntryRow: TypedRow {
        let entry: Entry

        init(_ row: inout RowCells) throws {
            let item = try TaskItemRow(&row).item
            entry = Entry(name: try row("calendar_name"), uid: try row("calendar_uid"), item: item, extra: try row("calendar_extra"))
        }
    }

    static let entrySelect = TaskService.itemSelect + """
        , COALESCE(t.calendar_name, t.id::text || '.ics') AS calendar_name, COALESCE(t.calendar_uid, t.id::text) AS calendar_uid, t.calendar_extra
        """

    /// Which of a calendar's items a read returns.
    enum Selection {
        case all
        case named([String])
        /// Items changed in a sync: these items (with their subtasks, whose ETag is their task's) and these subtasks.
        case changed(items: [UUID], subtasks: [UUID])

        var names: [String]? { if case .named(let names) = self { names } else { nil } }
        var items: [UUID]? { if case .changed(let items, _) = self { items } else { nil } }
        var subtasks: [UUID]? { if case .changed(_, let subtasks) = self { subtasks } else { nil } }
    }

    /// The calendar's items (those named `names`, when given), with their labels, by name; a task
    /// calendar's subtasks among them.
    public func entries(_ collection: CalendarCollection, names: [String]? = nil) async throws -> [Entry] {
        try await entries(collection, names.map(Selection.named) ?? .all)
    }

    func entries(_ collection: CalendarCollection, _ selection: Selection) async throws -> [Entry] {
        var entries = try await itemEntries(collection, selection)
        if case .changed(let items, let subtasks) = selection, items.isEmpty && subtasks.isEmpty { return entries }
        guard collection.kind == .task else { return entries }
        let rows = try await database.client.query("""
            SELECT s.task_id, s.id, s.position, s.title, s.done, COALESCE(s.calendar_name, s.id::text || '.ics') AS calendar_name,
                   COALESCE(s.calendar_uid, s.id::text) AS calendar_uid, s.calendar_extra, COALESCE(t.calendar_uid, t.id::text) AS parent_uid
            FROM subtasks s JOIN task_items t ON t.id = s.task_id
            WHERE t.household_id = \(collection.householdID) AND t.kind = 'TASK'
              AND (\(selection.names == nil) OR COALESCE(s.calendar_name, s.id::text || '.ics') = ANY(\(selection.names ?? [])))
              AND (\(selection.items == nil) OR s.id = ANY(\(selection.subtasks ?? [])) OR s.task_id = ANY(\(selection.items ?? [])))
            """, logger: logger).rows(as: SubtaskEntryRow.self)
        guard !rows.isEmpty else { return entries }
        var tasks = Dictionary(entries.map { ($0.item.id, $0.item) }) { first, _ in first }
        let missing = Array(Set(rows.map(\.taskID)).subtracting(tasks.keys))
        if !missing.isEmpty {
            for entry in try await itemEntries(collection, .changed(items: missing, subtasks: [])) { tasks[entry.item.id] = entry.item }
        }
        for row in rows {
            guard let task = tasks[row.taskID] else { continue }
            entries.append(Entry(name: row.name, uid: row.uid, item: task, extra: row.extra, subtask: row.subtask, parentUID: row.parentUID))
        }
        return entries.sorted { $0.name < $1.name }
    }

    private func itemEntries(_ collection: CalendarCollection, _ selection: Selection) async throws -> [Entry] {
        if selection.items?.isEmpty == true { return [] }
        let rows = try await database.client.query("""
            SELECT \(unescaped: Self.entrySelect) FROM task_items t
            WHERE t.household_id = \(collection.householdID) AND t.kind = \(collection.kind.rawValue)
              AND (\(selection.names == nil) OR COALESCE(t.calendar_name, t.id::text || '.ics') = ANY(\(selection.names ?? [])))
              AND (\(selection.items == nil) OR t.id = ANY(\(selection.items ?? [])))
            ORDER BY 2, t.id
            """, logger: logger).rows(as: EntryRow.self)
        let entries = rows.map(\.entry)
        let labels = try await tasks.labels(ofItems: entries.map(\.item.id))
        return entries.map { entry in
            var entry = entry
            entry.item.labels = labels[entry.item.id] ?? []
            return entry
        }.sorted { $0.name < $1.name }
    }

    // MARK: Sync

    /// What changed in a calendar since a sync token (RFC 6578).
    public struct Changes: Sendable {
        /// Items added or changed, as they are now.
        public var changed: [Entry]
        /// Names of items deleted (or moved out of reach).
        public var removed: [String]
        /// The token for the next sync-collection.
        public var token: String
        /// Whether more changes wait: the client asks again with ``token``.
        public var truncated: Bool
    }

    /// Why a sync token cannot be used (`DAV:valid-sync-token`).
    public struct InvalidSyncToken: Error, Sendable {
        public var message: String
    }

    /// A token standing for the calendar as it is now (for the collection's `sync-token` property).
    public func currentToken(_ collection: CalendarCollection) async throws -> String {
        CalendarSyncToken(collection: collection.name, base: try await database.currentSnapshot(), baseAt: clock.now).uri
    }

    /// The changes in `collection` after `token` (nil: every item), at most `limit` (and ``maximumSyncPage``).
    public func changes(_ collection: CalendarCollection, after token: String?, limit: Int?) async throws -> Changes {
        let now = clock.now
        var cursor: CalendarSyncToken
        if let token, !token.isEmpty {
            guard let decoded = CalendarSyncToken(uri: token), decoded.collection == collection.name else {
                throw InvalidSyncToken(message: "The sync token is not one this calendar gave; sync again from the start (an empty token).")
            }
            cursor = decoded
            switch try await sync.staleness(since: cursor.baseAt ?? cursor.targetAt ?? now) {
            case .olderThanRetention:
                throw InvalidSyncToken(message: "The sync token is older than \(sync.configuration.retentionDays) days; sync again from the start (an empty token).")
            case .beforeRestore:
                throw InvalidSyncToken(message: "The server was restored from a backup since this token; sync again from the start (an empty token).")
            case nil: break
            }
        } else {
            cursor = CalendarSyncToken(collection: collection.name)
        }
        if cursor.target == nil {
            cursor.target = try await database.currentSnapshot()
            cursor.targetAt = now
            cursor.position = nil
        }
        let pageSize = min(limit ?? Self.maximumSyncPage, Self.maximumSyncPage)
        let logged = try await loggedChanges(collection, cursor: cursor, limit: pageSize + 1)
        let page = Array(logged.prefix(pageSize))
        let truncated = logged.count > pageSize
        if truncated, let last = page.last {
            cursor.position = CalendarSyncToken.Position(xid: last.xid, id: last.id)
        } else {
            cursor = CalendarSyncToken(collection: collection.name, base: cursor.target, baseAt: cursor.targetAt)
        }
        let live = page.filter { !$0.deleted }
        let itemIDs = live.filter { $0.type == "TASK" }.compactMap { UUID(uuidString: $0.id) }
        let subtaskIDs = live.filter { $0.type == "SUBTASK" }.compactMap { UUID(uuidString: $0.id) }
        let found = try await entries(collection, .changed(items: itemIDs, subtasks: subtaskIDs))
        let foundIDs = Set(found.map { ($0.subtask?.id ?? $0.item.id).lowercasedString })
        // A record gone since it was logged is reported removed now (its tombstone would say so next time).
        let removed = page.filter { change in change.deleted || !foundIDs.contains(change.id) }.map { $0.name ?? $0.id + ".ics" }
        return Changes(changed: found, removed: removed, token: cursor.uri, truncated: truncated)
    }

    private struct LoggedChange: TypedRow {
        var type: String
        var id: String
        var name: String?
        var deleted: Bool
        var xid: String

        init(_ row: inout RowCells) throws {
            (type, id, name) = (try row("type"), try row("record_id"), try row("calendar_name"))
            (deleted, xid) = (try row("deleted"), try row("xid"))
        }
    }

    /// The log rows of the calendar visible in the target snapshot and not in the base one (no
    /// base: every live item), after the position, in (transaction, id) order.
    private func loggedChanges(_ collection: CalendarCollection, cursor: CalendarSyncToken, limit: Int) async throws -> [LoggedChange] {
        let target = cursor.target ?? ""
        let since = SQLCondition.changed(since: cursor.base)
        let after: SQLCondition = cursor.position.map { position in
            .predicate([.sql("(c.xid, c.record_id) > ("), .bind(.text(position.xid)), .sql("::xid8, "), .bind(.text(position.id)), .sql(")")])
        } ?? .alwaysTrue
        return try await database.client.query("""
            SELECT c.type, c.record_id, c.calendar_name, c.deleted, c.xid::text AS xid
            FROM sync_changes c
            WHERE c.household_id = \(collection.householdID) AND c.type IN ('TASK', 'SUBTASK') AND c.person IS NULL
              AND c.kind IS DISTINCT FROM \(collection.kind == .task ? "EVENT" : "TASK")
              AND pg_visible_in_snapshot(c.xid, \(target)::pg_snapshot) AND \(since) AND \(after)
            ORDER BY c.xid, c.record_id
            LIMIT \(limit)
            """, logger: logger).rows(as: LoggedChange.self)
    }
}
