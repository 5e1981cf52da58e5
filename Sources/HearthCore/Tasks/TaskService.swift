import Foundation
import Logging
import PostgresNIO

/// Household tasks and events, labels, subtasks and reminders, every request checked against
/// the caller's ability in the item's household (VIEWER reads; MEMBER creates, updates and
/// completes; ADMIN and OWNER also delete). Something the caller may not read answers
/// `notFound`, exactly as a missing id does.
public final class TaskService: ServiceHealth {
    let database: Database
    let households: HouseholdService
    let clock: any HearthClock
    let logger: Logger
    /// This instance's name on the reminder leases it holds.
    let instanceID = UUID()
    /// Changes and fired reminders, for subscriptions.
    public let changes = TaskChangeFeed()
    /// Each household's labels, by household id (dropped on every label write, here and elsewhere).
    let labelCache: TTLCache<UUID, [TaskLabel]>

    public init(database: Database, households: HouseholdService, clock: any HearthClock = SystemClock(), cacheTTL: TimeInterval = 300,
                logger: Logger? = nil) {
        self.labelCache = TTLCache(ttl: cacheTTL, clock: clock)
        self.database = database
        self.households = households
        self.clock = clock
        self.logger = logger ?? database.logger
        database.bus.on(TaskNotice.topic) { [weak self] message in
            if let notice = message.decode(TaskNotice.self) { await self?.relay(notice) }
        }
        database.bus.on(Self.labelsTopic) { [weak self] message in
            if let household = message.decode(UUID.self) { self?.labelCache.remove(household) }
        }
        // Label writes made while the listener was away were not heard: start over.
        database.bus.onConnect { [weak self] in self?.labelCache.removeAll() }
    }

    // MARK: Items

    /// Creates a task or event. With a client id, repeating the same create returns the item
    /// made the first time; the same id with other content is a `conflict`.
    public func createItem(_ caller: Caller, householdID: UUID, draft: TaskDraft) async throws -> TaskItem {
        return try await committed(try await database.transaction(logger: logger) { connection in
            try await self.createItem(caller, householdID: householdID, draft: draft, on: connection)
        }, caller)
    }

    /// Inserts the item, its label links and subtasks. A client id met before is the same item
    /// (same content: nothing changes) or a `conflict`; one deleted since is a `conflict` too.
    func createItem(_ caller: Caller, householdID: UUID, draft raw: TaskDraft,
                    on connection: PostgresConnection) async throws -> TaskWrite {
        let household = try await households.readableHousehold(caller, householdID, on: connection)
        try caller.authorize("create", .ofHousehold("Task", householdID))
        let draft = try raw.validated()
        let digest = draft.digest
        let now = clock.now
        var startsAt = draft.startsAt
        var endsAt = draft.endsAt
        if draft.kind == .event {
            let zone = TimeZone(identifier: household.timeZone) ?? .gmt
            (startsAt, endsAt) = try EventSchedule.resolve(
                start: draft.startsAt, end: draft.endsAt, date: draft.date, timeZone: zone, now: now)
        }
        let id = draft.id ?? UUID()
        // A task repeating from completion without a deadline is first due at the rule's first date from now.
        var deadline = draft.deadline
        let repetition = draft.repetition?.untilPinned(in: TimeZone(identifier: household.timeZone) ?? .gmt)
        if draft.kind == .task, deadline == nil, let repetition {
            deadline = repetition.firstFromNow(now, zone: TimeZone(identifier: household.timeZone) ?? .gmt)
        }
        let occursAt = startsAt ?? deadline
        // A repeating item's series starts at its date; a rotation's turn is the assignee's, else its first member's.
        let anchor = repetition == nil ? nil : occursAt
        // A calendar app's changed occurrences, those that are occurrences of the series.
        let overrides = anchor.flatMap { start in
            repetition?.fitting(repetition?.overrides ?? [], start: start, zone: TimeZone(identifier: household.timeZone) ?? .gmt)
        } ?? []
        let assigneeID = draft.assigneeID ?? draft.rotation?.first
        var reminderDue = Self.armedReminder(at: draft.remindAt ?? occursAt, now: now)
        if draft.kind == .event, let repetition, let startsAt {
            reminderDue = repetition.nextReminder(seriesStart: startsAt, remindAt: draft.remindAt, after: now,
                                                  zone: TimeZone(identifier: household.timeZone) ?? .gmt)
        }
        if let assignee = assigneeID { try await Self.requireMember(assignee, of: householdID, on: connection, logger: logger) }
        if let rotation = draft.rotation { try await Self.requireMembers(rotation, of: householdID, on: connection, logger: logger) }
        if draft.id != nil, try await Self.tombstone("TASK", id.lowercasedString, caller: caller, subject: "Task", on: connection, logger: logger) != nil {
            throw ServiceError.conflict("The item with id \(id.lowercasedString) was deleted; a retried create does not bring it back. Use a new id for a new item.")
        }
        // A concurrent create with the same id is waited for, then met as a retry would be.
        let inserted = try await connection.query("""
            INSERT INTO task_items (id, household_id, kind, title, notes, priority, deadline, estimate_minutes, assignee_id,
                                    starts_at, ends_at, location, created_by, created_at, updated_by, updated_at, create_digest,
                                    reminder_id, remind_at, reminder_due_at, repeat_rule, repeat_from, repeat_exceptions, repeat_start,
                                    occurrence, rotation, repeat_overrides)
            VALUES (\(id), \(householdID), \(draft.kind.rawValue), \(draft.title), \(draft.notes), \(draft.priority.rawValue),
                    \(deadline), \(draft.estimateMinutes), \(assigneeID), \(startsAt), \(endsAt), \(draft.location),
                    \(caller.userID), \(now), \(caller.userID), \(now), \(digest), \(UUID()), \(draft.remindAt), \(reminderDue),
                    \(repetition?.rule), \(repetition?.from.rawValue), \(repetition?.exceptions ?? []), \(anchor),
                    \(anchor), \(draft.rotation), \(OccurrenceOverride.column(overrides))::jsonb)
            ON CONFLICT (id) DO NOTHING RETURNING id
            """, logger: logger)
        var isNew = false
        for try await _ in inserted.decode(UUID.self) { isNew = true }
        guard isNew else { return try await existingCreate(id, householdID: householdID, digest: digest, caller: caller, on: connection) }
        let labels = try await Self.resolveLabels(names: draft.labelNames, ids: draft.labelIDs, householdID: householdID, caller: caller,
                                                  now: now, on: connection, logger: logger)
        if !labels.isEmpty {
            try await connection.query("INSERT INTO task_labels (task_id, label_id) SELECT \(id), unnest(\(labels.map(\.id)))", logger: logger)
        }
        if !draft.subtasks.isEmpty {
            try await connection.query("""
                INSERT INTO subtasks (id, task_id, position, title, created_at)
                SELECT gen_random_uuid(), \(id), s.position, s.title, \(now)
                FROM unnest(\(Array(0..<draft.subtasks.count)), \(draft.subtasks)) AS s(position, title)
                """, logger: logger)
        }
        if let assignee = assigneeID {
            let item = TaskItem(id: id, householdID: householdID, kind: draft.kind, title: draft.title, priority: draft.priority, createdAt: now,
                                updatedAt: now, labels: [], subtasks: [], reminderID: id)
            try await Self.notifyAssignee(assignee, of: item, by: caller.userID, at: now, on: connection, logger: logger)
        }
        return TaskWrite(taskID: id, householdID: householdID, change: .created, version: try await Self.version(of: id, on: connection, logger: logger),
                         madeLabels: !draft.labelNames.isEmpty)
    }

    /// The item a create with `id` made before: unchanged when `digest` matches, else a conflict.
    private func existingCreate(_ id: UUID, householdID: UUID, digest: String, caller: Caller,
                                on connection: PostgresConnection) async throws -> TaskWrite {
        let rows = try await connection.query(
            "SELECT household_id, create_digest, version FROM task_items WHERE id = \(id)", logger: logger)
        for (household, stored, version) in try await rows.columns(("household_id", UUID.self), ("create_digest", String.self), ("version", Int.self)) {
            guard household == householdID, stored == digest else { break }
            return TaskWrite(taskID: id, householdID: householdID, change: nil, version: version)
        }
        throw ServiceError.conflict("An item with id \(id.lowercasedString) exists with other content; use a new id for a new item.")
    }

    /// Whether the caller may read the household's items (for subscriptions, checked per event);
    /// a household they cannot see is `notFound`.
    public func mayReadItems(_ caller: Caller, householdID: UUID) async throws -> Bool {
        _ = try await households.readableHousehold(caller, householdID)
        return caller.ability.can("read", .ofHousehold("Task", householdID))
    }

    /// An item the caller may read, with its labels and subtasks.
    public func item(_ caller: Caller, id: UUID) async throws -> TaskItem {
        try await readableItem(caller, id)
    }

    func readableItem(_ caller: Caller, _ id: UUID) async throws -> TaskItem {
        let rows = try await database.client.query("SELECT \(unescaped: Self.itemSelect) FROM task_items t WHERE t.id = \(id)", logger: logger)
        guard let item = try await Self.decodeItems(rows).first, caller.ability.can("read", item.subject) else {
            throw ServiceError.notFound("Task")
        }
        return try await withDetails([item])[0]
    }

    static let itemSelect = """
        t.id, t.household_id, t.kind, t.title, t.notes, t.priority, t.deadline, t.estimate_minutes, t.assignee_id, t.starts_at, t.ends_at, \
        t.location, t.completed_at, t.completed_by, t.created_by, t.created_at, t.updated_by, t.updated_at, t.reminder_id, t.remind_at, \
        t.reminder_due_at, t.version, \(repeatSelect)
        """

    /// The repetition's columns, read by every item row (a list shows that an item repeats).
    static let repeatSelect = "t.repeat_rule, t.repeat_from, t.repeat_exceptions, t.repeat_overrides, t.repeat_start, t.occurrence, t.occurrences_passed, t.rotation"

    /// The columns of ``TaskSummaryRow``: what a list of items shows (see ``TaskDetails/allFields``).
    static let itemSummarySelect = "t.id, t.household_id, t.kind, t.title, t.priority, t.deadline, t.starts_at, t.ends_at, t.completed_at, t.version, " + repeatSelect

    static func decodeItems(_ rows: PostgresRowSequence) async throws -> [TaskItem] {
        try await rows.rows(as: TaskItemRow.self).map(\.item)
    }

    /// Items with their labels and subtasks, or those of them asked for (a query each for all of them).
    func withDetails(_ items: [TaskItem], _ details: TaskDetails = .all) async throws -> [TaskItem] {
        let ids = items.map(\.id)
        guard !ids.isEmpty, !details.isEmpty else { return items }
        let labels = details.contains(.labels) ? try await labels(ofItems: ids) : [:]
        let subtasks = details.contains(.subtasks) ? try await subtasks(ofItems: ids) : [:]
        return items.map { item in
            var item = item
            item.labels = labels[item.id] ?? []
            item.subtasks = subtasks[item.id] ?? []
            return item
        }
    }

    /// Labels of several items, by item, by name (one prepared statement).
    public func labels(ofItems ids: [UUID]) async throws -> [UUID: [TaskLabel]] {
        try await database.children(LabelsOfItems(ids: ids), by: { $0.taskID }, { $0.label })
    }

    struct LabelsOfItems: IDListQuery {
        typealias Output = ItemLabelRow
        static let sql = """
            SELECT tl.task_id, l.id, l.household_id, l.name, l.color, l.created_at, l.version
            FROM task_labels tl JOIN labels l ON l.id = tl.label_id WHERE tl.task_id = ANY($1) ORDER BY tl.task_id, lower(l.name), l.id
            """
        let ids: [UUID]
    }

    /// Subtasks of several items, by item, in order (one prepared statement).
    public func subtasks(ofItems ids: [UUID]) async throws -> [UUID: [Subtask]] {
        try await database.children(SubtasksOfItems(ids: ids), by: { $0.taskID }, { $0.subtask })
    }

    struct SubtasksOfItems: IDListQuery {
        typealias Output = SubtaskRow
        static let sql = "SELECT task_id, id, position, title, done FROM subtasks WHERE task_id = ANY($1) ORDER BY task_id, position"
        let ids: [UUID]
    }

    /// Refuses an assignee who is not a member of the household.
    static func requireMember(_ userID: UUID, of householdID: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        let rows = try await connection.query(
            "SELECT count(*) FROM household_members WHERE household_id = \(householdID) AND user_id = \(userID)", logger: logger)
        for try await count in rows.decode(Int.self) where count > 0 { return }
        throw ServiceError.invalidInput(field: "assigneeId", message: "assigneeId must be a member of the household.")
    }

    /// Refuses a rotation naming someone who is not a member of the household.
    static func requireMembers(_ userIDs: [UUID], of householdID: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        let rows = try await connection.query(
            "SELECT count(*) FROM household_members WHERE household_id = \(householdID) AND user_id = ANY(\(userIDs))", logger: logger)
        for try await count in rows.decode(Int.self) where count == Set(userIDs).count { return }
        throw ServiceError.invalidInput(field: "rotation", message: "Everyone in a rotation must be a member of the household.")
    }

    // MARK: Health

    public var healthName: String { "tasks" }

    public func performHealthCheck() async -> ServiceHealthStatus {
        let started = ContinuousClock.now
        let checkedAt = Date()
        do {
            let rows = try await database.client.query("SELECT count(*) FROM task_items WHERE reminder_due_at IS NOT NULL", logger: logger)
            var pending = 0
            for try await count in rows.decode(Int.self) { pending = count }
            let cache = labelCache.statistics
            return ServiceHealthStatus(isHealthy: true, lastChecked: checkedAt, responseTime: ContinuousClock.now - started,
                                       details: ["pendingReminders": .int(pending), "labelCacheSize": .int(cache.count),
                                                 "labelCacheHitRate": .rate(cache.hitRate)])
        } catch {
            return ServiceHealthStatus(isHealthy: false, lastChecked: checkedAt, errors: ["tasks unreachable: \(ErrorText.oneLine(error))"],
                                       responseTime: ContinuousClock.now - started)
        }
    }
}
