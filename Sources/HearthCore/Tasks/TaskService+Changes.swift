import Foundation
import Logging
import PostgresNIO

/// What a write inside a transaction did, acted on once the transaction committed (subscribers
/// hear of it, cached labels go). Writes run on a caller's connection so that `push` can commit a
/// device's mutation together with its last processed mutation id.
public struct TaskWrite: Sendable {
    public var taskID: UUID
    public var householdID: UUID
    /// How subscribers hear of it; nil when nothing changed (a replay, a no-op).
    var change: TaskChange.Kind?
    /// The item's version after the write (a deletion's tombstone version).
    public var version: Int
    /// Label names may have created labels: the household's cached labels go.
    var madeLabels = false
    /// The item as it was, for a deletion.
    var deleted: TaskItem?
    /// A repeating task's occurrence was done already (by another device): nothing changed.
    var duplicate = false
}

/// An item read under its row lock, with the versions of its fields.
struct LockedItem {
    var item: TaskItem
    var versions: FieldVersions
}

extension TaskService {
    /// Changes the fields `patch` names (explicit nulls clear); moves a pending reminder with
    /// the item's time. With `expectedVersion`, refused (`CONFLICT`) when a field it names was
    /// changed by a later version.
    public func updateItem(_ caller: Caller, id: UUID, patch: TaskPatch, expectedVersion: Int? = nil) async throws -> TaskItem {
        return try await committed(try await database.transaction(logger: logger) { connection in
            try await self.updateItem(caller, id: id, patch: patch, expectedVersion: expectedVersion, on: connection)
        }, caller)
    }

    /// Writes only the columns `patch` names, in SQL, under the item's row lock: edits of other
    /// fields by others, committed meanwhile or after, stay.
    func updateItem(_ caller: Caller, id: UUID, patch: TaskPatch, expectedVersion: Int?,
                    on connection: PostgresConnection) async throws -> TaskWrite {
        let locked = try await lockedItem(caller, id, on: connection)
        let item = locked.item
        try caller.authorize("update", item.subject)
        let named = patch.namedFields
        try locked.versions.refuseStale("Task", expected: expectedVersion, fields: named)
        var changed = try patch.applied(to: item)
        let labelNames = try patch.checkedLabelNames() ?? []
        guard !named.isEmpty else { return TaskWrite(taskID: id, householdID: item.householdID, change: nil, version: item.version) }
        let now = clock.now
        // A new repetition starts its series at the item's date (a task repeating from completion
        // without one gets the rule's first date from now); a repeating event's moved start moves its series.
        let repeatNamed = patch.repetition != nil
        var deadlineFromRule = false
        // The household's zone, read when a repetition needs it (its dates fall in it).
        let zone = changed.repetition == nil ? TimeZone.gmt
            : TimeZone(identifier: try await households.readableHousehold(caller, item.householdID, on: connection).timeZone) ?? .gmt
        if case .some(.some(let repetition)) = patch.repetition {
            changed.repetition = repetition.untilPinned(in: zone)
            if item.kind == .task, changed.deadline == nil {
                changed.deadline = repetition.firstFromNow(now, zone: zone)
                deadlineFromRule = true
            }
        }
        let reanchored = repeatNamed || (item.kind == .event && patch.startsAt != nil && changed.repetition != nil)
        let anchor = changed.repetition == nil ? nil : changed.occursAt
        // An event's changed occurrences stay while they are occurrences of the series (a new rule or a moved series leaves others behind).
        let overridesNamed = patch.overrides != nil || reanchored
        if let repetition = changed.repetition, let start = reanchored ? anchor : item.position?.start {
            changed.repetition?.overrides = repetition.fitting(patch.overrides ?? item.repetition?.overrides ?? [], start: start, zone: zone)
        }
        if let rotation = changed.rotation {
            try await Self.requireMembers(rotation, of: item.householdID, on: connection, logger: logger)
        }
        if case .some(.some(let assignee)) = patch.assigneeID, assignee != item.assigneeID {
            try await Self.requireMember(assignee, of: item.householdID, on: connection, logger: logger)
            try await Self.notifyAssignee(assignee, of: changed, by: caller.userID, at: now, on: connection, logger: logger)
        }
        // The reminder follows the item's time when that moved (a snoozed or sent one stays otherwise).
        let timeMoved = (changed.remindAt ?? changed.occursAt) != (item.remindAt ?? item.occursAt) || (item.kind == .event && repeatNamed)
        var due = changed.isCompleted ? nil : Self.armedReminder(at: changed.remindAt ?? changed.occursAt, now: now)
        if item.kind == .event, let repetition = changed.repetition, let start = changed.startsAt, !changed.isCompleted {
            due = repetition.nextReminder(seriesStart: start, remindAt: changed.remindAt, after: now, zone: zone)
        }
        let updated = try await connection.query("""
            UPDATE task_items SET
                title = CASE WHEN \(patch.title != nil) THEN \(changed.title) ELSE title END,
                notes = CASE WHEN \(patch.notes != nil) THEN \(changed.notes) ELSE notes END,
                priority = CASE WHEN \(patch.priority != nil) THEN \(changed.priority.rawValue) ELSE priority END,
                deadline = CASE WHEN \(patch.deadline != nil || deadlineFromRule) THEN \(changed.deadline) ELSE deadline END,
                estimate_minutes = CASE WHEN \(patch.estimateMinutes != nil) THEN \(changed.estimateMinutes) ELSE estimate_minutes END,
                assignee_id = CASE WHEN \(patch.assigneeID != nil || patch.rotation != nil) THEN \(changed.assigneeID) ELSE assignee_id END,
                starts_at = CASE WHEN \(patch.startsAt != nil) THEN \(changed.startsAt) ELSE starts_at END,
                ends_at = CASE WHEN \(patch.startsAt != nil || patch.endsAt != nil) THEN \(changed.endsAt) ELSE ends_at END,
                location = CASE WHEN \(patch.location != nil) THEN \(changed.location) ELSE location END,
                remind_at = CASE WHEN \(patch.remindAt != nil) THEN \(changed.remindAt) ELSE remind_at END,
                repeat_rule = CASE WHEN \(repeatNamed) THEN \(changed.repetition?.rule) ELSE repeat_rule END,
                repeat_from = CASE WHEN \(repeatNamed) THEN \(changed.repetition?.from.rawValue) ELSE repeat_from END,
                repeat_exceptions = CASE WHEN \(repeatNamed) THEN \(changed.repetition?.exceptions ?? []) ELSE repeat_exceptions END,
                repeat_overrides = CASE WHEN \(overridesNamed) THEN \(OccurrenceOverride.column(changed.repetition?.overrides ?? []))::jsonb
                                        ELSE repeat_overrides END,
                repeat_start = CASE WHEN \(reanchored) THEN \(anchor) ELSE repeat_start END,
                occurrence = CASE WHEN \(reanchored) THEN \(anchor) ELSE occurrence END,
                occurrences_passed = CASE WHEN \(repeatNamed) THEN 0 ELSE occurrences_passed END,
                rotation = CASE WHEN \(patch.rotation != nil) THEN \(changed.rotation) ELSE rotation END,
                reminder_due_at = CASE WHEN \(timeMoved) THEN \(due) ELSE reminder_due_at END,
                reminder_lease_owner = CASE WHEN \(timeMoved) THEN NULL ELSE reminder_lease_owner END,
                reminder_lease_expires_at = CASE WHEN \(timeMoved) THEN NULL ELSE reminder_lease_expires_at END,
                updated_by = \(caller.userID), updated_at = \(now)
            WHERE id = \(id) RETURNING version
            """, logger: logger)
        var version = item.version
        for try await value in updated.decode(Int.self) { version = value }
        if patch.replacesLabels {
            let labels = try await Self.resolveLabels(names: labelNames, ids: patch.labelIDs ?? [], householdID: item.householdID,
                                                      caller: caller, now: now, on: connection, logger: logger)
            try await connection.query("DELETE FROM task_labels WHERE task_id = \(id) AND label_id <> ALL(\(labels.map(\.id)))", logger: logger)
            if !labels.isEmpty {
                try await connection.query(
                    "INSERT INTO task_labels (task_id, label_id) SELECT \(id), unnest(\(labels.map(\.id))) ON CONFLICT DO NOTHING", logger: logger)
            }
            version = try await Self.version(of: id, on: connection, logger: logger)  // the label links may have moved it on
        }
        return TaskWrite(taskID: id, householdID: item.householdID, change: .updated, version: version, madeLabels: !labelNames.isEmpty)
    }

    /// After a write committed: cached labels go, subscribers hear of it; the item as it is now.
    func committed(_ write: TaskWrite, _ caller: Caller) async throws -> TaskItem {
        if let item = try await announce(write, caller) { return item }
        return try await readableItem(caller, write.taskID)
    }

    /// Tells subscribers and caches about a committed write; the item read back, unless deleted or
    /// unchanged. Without `needsItem` it is read only for this process's subscribers, if any (the
    /// other instances read it themselves).
    @discardableResult
    func announce(_ write: TaskWrite, _ caller: Caller, needsItem: Bool = true) async throws -> TaskItem? {
        if write.madeLabels { await forgetLabels(of: write.householdID) }
        if let deleted = write.deleted {
            if write.change != nil { await announce(.deleted, deleted) }
            return nil
        }
        guard let change = write.change else { return nil }
        guard needsItem || changes.subscriberCount > 0 else {
            await database.bus.publish(TaskNotice.topic, TaskNotice(household: write.householdID, task: write.taskID, change: change))
            return nil
        }
        let item = try await readableItem(caller, write.taskID)
        await announce(change, item)
        return item
    }

    /// The item locked for the rest of the transaction, with its field versions (and its subtasks,
    /// when asked for); `notFound` when there is none the caller may read. Locked for an update in
    /// the mode that lets others add subtasks or labels to it meanwhile (`FOR NO KEY UPDATE`), for
    /// a deletion in the mode the `DELETE` needs (`FOR UPDATE`), so no lock is upgraded later.
    func lockedItem(_ caller: Caller, _ id: UUID, withSubtasks: Bool = false, forDeletion: Bool = false,
                    on connection: PostgresConnection) async throws -> LockedItem {
        let rows = try await connection.query("""
            SELECT \(unescaped: Self.itemSelect), t.field_versions FROM task_items t WHERE t.id = \(id)
            \(unescaped: forDeletion ? "FOR UPDATE" : "FOR NO KEY UPDATE")
            """, logger: logger).rows(as: TaskItemRow.self, then: "field_versions", JSONColumn.self)
        for (row, fieldVersions) in rows {
            var item = row.item
            guard caller.ability.can("read", item.subject) else { break }
            let versions = try FieldVersions(version: item.version, json: fieldVersions)
            guard withSubtasks else { return LockedItem(item: item, versions: versions) }
            let subtasks = try await connection.query(
                "SELECT id, position, title, done FROM subtasks WHERE task_id = \(id) ORDER BY position", logger: logger)
            for (subtask, position, title, done) in try await subtasks.columns(("id", UUID.self), ("position", Int.self), ("title", String.self), ("done", Bool.self)) {
                item.subtasks.append(Subtask(id: subtask, position: position, title: title, done: done))
            }
            return LockedItem(item: item, versions: versions)
        }
        throw ServiceError.notFound("Task")
    }

    static func version(of id: UUID, on connection: PostgresConnection, logger: Logger) async throws -> Int {
        let rows = try await connection.query("SELECT version FROM task_items WHERE id = \(id)", logger: logger)
        for try await version in rows.decode(Int.self) { return version }
        throw ServiceError.notFound("Task")
    }

    /// When a reminder set for `time` fires: then, unless that time has already passed (an item
    /// created, moved or reopened after its reminder time gets none: it would alert at once).
    static func armedReminder(at time: Date?, now: Date) -> Date? {
        time.flatMap { $0 > now ? $0 : nil }
    }

    // MARK: Completion

    /// Marks an item done (by the caller, now); its pending reminder is cancelled. Completing a
    /// completed item changes nothing.
    /// A repeating task instead moves to its next occurrence (see ``passOccurrence``); `occurrence`
    /// names the one done, so completing it again changes nothing.
    public func completeItem(_ caller: Caller, id: UUID, occurrence: Date? = nil, expectedVersion: Int? = nil) async throws -> TaskItem {
        return try await committed(try await database.transaction(logger: logger) { connection in
            try await self.setCompleted(true, caller, id: id, expectedVersion: expectedVersion, occurrence: occurrence, on: connection)
        }, caller)
    }

    /// Marks a done item open again; its reminder is re-armed when its time is still ahead.
    /// Reopening an open item changes nothing.
    public func reopenItem(_ caller: Caller, id: UUID, expectedVersion: Int? = nil) async throws -> TaskItem {
        return try await committed(try await database.transaction(logger: logger) { connection in
            try await self.setCompleted(false, caller, id: id, expectedVersion: expectedVersion, on: connection)
        }, caller)
    }

    func setCompleted(_ done: Bool, _ caller: Caller, id: UUID, expectedVersion: Int?, occurrence: Date? = nil,
                      on connection: PostgresConnection) async throws -> TaskWrite {
        let locked = try await lockedItem(caller, id, on: connection)
        let item = locked.item
        try caller.authorize("complete", item.subject)
        if item.repetition != nil {
            return done
                ? try await passOccurrence(locked, caller, named: occurrence, done: true, expectedVersion: expectedVersion, on: connection)
                : try await reopenOccurrence(locked, caller, expectedVersion: expectedVersion, on: connection)
        }
        guard item.isCompleted != done else { return TaskWrite(taskID: id, householdID: item.householdID, change: nil, version: item.version) }
        try locked.versions.refuseStale("Task", expected: expectedVersion, fields: [("completed", "completed_at")])
        let now = clock.now
        if done {
            try await connection.query("""
                UPDATE task_items SET completed_at = \(now), completed_by = \(caller.userID), reminder_due_at = NULL, updated_by = \(caller.userID), updated_at = \(now)
                WHERE id = \(id)
                """, logger: logger)
            try await Self.retireReminders(of: id, at: clock.now, on: connection, logger: logger)
        } else {
            let due = Self.armedReminder(at: item.remindAt ?? item.occursAt, now: now)
            try await connection.query("""
                UPDATE task_items SET completed_at = NULL, completed_by = NULL, reminder_due_at = \(due), updated_by = \(caller.userID), updated_at = \(now)
                WHERE id = \(id)
                """, logger: logger)
        }
        return TaskWrite(taskID: id, householdID: item.householdID, change: done ? .completed : .reopened,
                         version: try await Self.version(of: id, on: connection, logger: logger))
    }

    /// A completed or deleted item's reminders are done: marked so, their unsent deliveries
    /// dropped, and each browser they reached owed a DISMISS that closes them there.
    static func retireReminders(of taskID: UUID, at now: Date, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("""
            WITH done AS (
                UPDATE notifications SET state = 'DONE' WHERE task_id = \(taskID) AND kind = 'REMINDER' AND state = 'ACTIVE' RETURNING id),
            dropped AS (
                UPDATE deliveries SET state = 'FAILED', last_error = 'The item was completed or deleted before this was sent.'
                WHERE state = 'PENDING' AND purpose = 'NOTIFY' AND notification_id IN (SELECT id FROM done))
            INSERT INTO deliveries (notification_id, channel_id, purpose, due_at, give_up_at, created_at)
            SELECT d.notification_id, d.channel_id, 'DISMISS', \(now), \(now.addingTimeInterval(DeliveryService.giveUpAfter)), \(now)
            FROM deliveries d JOIN delivery_channels c ON c.id = d.channel_id AND c.kind = 'WEB_PUSH' AND c.enabled
            WHERE d.notification_id IN (SELECT id FROM done) AND d.purpose = 'NOTIFY' AND d.state = 'SENT'
            ON CONFLICT DO NOTHING
            """, logger: logger)
    }

    /// Tells the person an item was assigned to (unless they assigned it themselves or switched
    /// notifications off): a TASK_ASSIGNED notification, delivered to their channels.
    static func notifyAssignee(_ assignee: UUID, of item: TaskItem, by person: UUID, at now: Date, on connection: PostgresConnection,
                               logger: Logger) async throws {
        guard assignee != person else { return }
        let rows = try await connection.query("""
            SELECT count(*) FROM users WHERE id = \(assignee) AND \(unescaped: Preferences.NotificationSwitch.taskAssigned.isOn(in: "users"))
            """, logger: logger)
        var wants = false
        for try await count in rows.decode(Int.self) { wants = count > 0 }
        guard wants else { return }
        let notification = HouseholdNotification(
            id: UUID(), userID: assignee, householdID: item.householdID, storeID: nil, title: item.title,
            body: item.kind == .event ? "An event was assigned to you." : "A task was assigned to you.",
            priority: item.priority == .high ? .high : .normal, counts: [:], createdAt: now, readAt: nil, kind: .taskAssigned, taskID: item.id)
        try await NotificationOutbox.write([notification], householdID: item.householdID, storeID: nil, at: now, on: connection, logger: logger)
    }

    // MARK: Deletion

    /// Deletes an item with its subtasks and reminder (admins and owners). With `expectedVersion`,
    /// refused (`CONFLICT`) when the item changed since.
    public func deleteItem(_ caller: Caller, id: UUID, expectedVersion: Int? = nil) async throws -> TaskItem {
        let item = try await readableItem(caller, id)
        let write = try await database.transaction(logger: logger) { connection in
            try await self.deleteItem(caller, id: id, expectedVersion: expectedVersion, on: connection)
        }
        try await announce(write, caller)
        var deleted = item  // as read with its labels and subtasks, at the tombstone's version
        deleted.version = write.version
        return deleted
    }

    /// Deletes the item; deleting one deleted already (its tombstone in a household the caller
    /// reads) changes nothing.
    func deleteItem(_ caller: Caller, id: UUID, expectedVersion: Int?, on connection: PostgresConnection) async throws -> TaskWrite {
        let locked: LockedItem
        do {
            locked = try await lockedItem(caller, id, forDeletion: true, on: connection)
        } catch let error as ServiceError where error.kind == .notFound {
            if let tombstone = try await Self.tombstone("TASK", id.lowercasedString, caller: caller, subject: "Task", on: connection, logger: logger) {
                return TaskWrite(taskID: id, householdID: tombstone.household, change: nil, version: tombstone.version)
            }
            throw error
        }
        try caller.authorize("delete", locked.item.subject)
        try locked.versions.refuseStaleDeletion("Task", expected: expectedVersion, names: TaskPatch.fieldNames)
        try await connection.query("DELETE FROM task_items WHERE id = \(id)", logger: logger)
        try await Self.retireReminders(of: id, at: clock.now, on: connection, logger: logger)
        let tombstone = try await Self.tombstone("TASK", id.lowercasedString, caller: caller, subject: "Task", on: connection, logger: logger)
        var item = locked.item
        item.version = tombstone?.version ?? item.version
        return TaskWrite(taskID: id, householdID: item.householdID, change: .deleted, version: item.version, deleted: item)
    }

    /// A deleted record's tombstone, when it is in a household where the caller may read `subject`s.
    static func tombstone(_ type: String, _ id: String, caller: Caller, subject: String, on connection: PostgresConnection,
                          logger: Logger) async throws -> (household: UUID, version: Int)? {
        let rows = try await connection.query("""
            SELECT household_id, version FROM sync_changes WHERE type = \(type) AND record_id = \(id) AND person IS NULL AND deleted
            """, logger: logger)
        for (household, version) in try await rows.columns(("household_id", UUID.self), ("version", Int.self))
        where caller.ability.can("read", .ofHousehold(subject, household)) {
            return (household, version)
        }
        return nil
    }

    // MARK: Subtasks

    /// Appends a subtask.
    public func addSubtask(_ caller: Caller, taskID: UUID, title: String) async throws -> TaskItem {
        try await taskWrite(caller) { caller, connection in
            try await self.addSubtask(caller, taskID: taskID, id: UUID(), title: title, on: connection)
        }
    }

    /// Appends subtask `id`; the same id again with the same task and title changes nothing (a
    /// retried create), with other content it is a `conflict`.
    func addSubtask(_ caller: Caller, taskID: UUID, id: UUID, title rawTitle: String,
                    on connection: PostgresConnection) async throws -> TaskWrite {
        let item = try await updatable(caller, taskID, on: connection)
        let title = try TaskDraft.title(rawTitle, field: "title")
        if let existing = item.subtasks.first(where: { $0.id == id }) {
            guard existing.title == title else {
                throw ServiceError.conflict("A subtask with id \(id.lowercasedString) exists with another title; use a new id for a new subtask.")
            }
            return TaskWrite(taskID: taskID, householdID: item.householdID, change: nil, version: item.version)
        }
        guard item.subtasks.count < TaskDraft.maximumSubtasks else {
            throw ServiceError.invalidInput(field: "taskId", message: "An item takes at most \(TaskDraft.maximumSubtasks) subtasks.")
        }
        let inserted = try await connection.query("""
            INSERT INTO subtasks (id, task_id, position, title, created_at)
            VALUES (\(id), \(taskID), \((item.subtasks.map(\.position).max() ?? -1) + 1), \(title), \(clock.now))
            ON CONFLICT (id) DO NOTHING RETURNING id
            """, logger: logger)
        var added = false
        for try await _ in inserted.decode(UUID.self) { added = true }
        guard added else {
            throw ServiceError.conflict("A subtask with id \(id.lowercasedString) exists on another task; use a new id for a new subtask.")
        }
        return try await touched(item, caller, on: connection)
    }

    /// Renames a subtask or ticks it off (each only when given).
    public func updateSubtask(_ caller: Caller, id: UUID, title: String?, done: Bool?) async throws -> TaskItem {
        try await taskWrite(caller) { caller, connection in
            try await self.updateSubtask(caller, id: id, title: title, done: done, on: connection)
        }
    }

    func updateSubtask(_ caller: Caller, id: UUID, title rawTitle: String?, done: Bool?,
                       on connection: PostgresConnection) async throws -> TaskWrite {
        let item = try await updatable(caller, try await subtaskOwner(id, on: connection), on: connection)
        let title = try rawTitle.map { text throws(ServiceError) in try TaskDraft.title(text, field: "title") }
        try await connection.query(
            "UPDATE subtasks SET title = COALESCE(\(title), title), done = COALESCE(\(done), done) WHERE id = \(id)", logger: logger)
        return try await touched(item, caller, on: connection)
    }

    /// Puts a task's subtasks in the order given, which must name each of them once.
    public func reorderSubtasks(_ caller: Caller, taskID: UUID, ids: [UUID]) async throws -> TaskItem {
        try await taskWrite(caller) { caller, connection in
            try await self.reorderSubtasks(caller, taskID: taskID, ids: ids, on: connection)
        }
    }

    func reorderSubtasks(_ caller: Caller, taskID: UUID, ids: [UUID], on connection: PostgresConnection) async throws -> TaskWrite {
        let item = try await updatable(caller, taskID, on: connection)
        guard ids.count == item.subtasks.count, Set(ids) == Set(item.subtasks.map(\.id)) else {
            throw ServiceError.invalidInput(field: "subtaskIds", message: "subtaskIds must name each of the task's \(item.subtasks.count) subtasks once.")
        }
        try await connection.query("""
            UPDATE subtasks s SET position = o.position FROM unnest(\(ids), \(Array(0..<ids.count))) AS o(id, position)
            WHERE s.id = o.id AND s.task_id = \(taskID) AND s.position <> o.position
            """, logger: logger)
        return try await touched(item, caller, on: connection)
    }

    /// Removes a subtask; the others keep their order.
    public func removeSubtask(_ caller: Caller, id: UUID) async throws -> TaskItem {
        try await taskWrite(caller) { caller, connection in
            try await self.removeSubtask(caller, id: id, on: connection)
        }
    }

    func removeSubtask(_ caller: Caller, id: UUID, on connection: PostgresConnection) async throws -> TaskWrite {
        let item = try await updatable(caller, try await subtaskOwner(id, on: connection), on: connection)
        try await connection.query("DELETE FROM subtasks WHERE id = \(id)", logger: logger)
        return try await touched(item, caller, on: connection)
    }

    /// Runs one write in its own transaction, then announces it; the item as it is now.
    private func taskWrite(_ caller: Caller, _ body: (Caller, PostgresConnection) async throws -> TaskWrite) async throws -> TaskItem {
        return try await committed(try await database.transaction(logger: logger) { connection in try await body(caller, connection) }, caller)
    }

    /// The task, locked, when the caller may update it.
    private func updatable(_ caller: Caller, _ taskID: UUID, on connection: PostgresConnection) async throws -> TaskItem {
        let item = try await lockedItem(caller, taskID, withSubtasks: true, on: connection).item
        try caller.authorize("update", item.subject)
        return item
    }

    private func subtaskOwner(_ id: UUID, on connection: PostgresConnection) async throws -> UUID {
        let rows = try await connection.query("SELECT task_id FROM subtasks WHERE id = \(id)", logger: logger)
        for try await task in rows.decode(UUID.self) { return task }
        throw ServiceError.notFound("Subtask")
    }

    /// Stamps who changed the item's subtasks and when.
    private func touched(_ item: TaskItem, _ caller: Caller, on connection: PostgresConnection) async throws -> TaskWrite {
        try await connection.query(
            "UPDATE task_items SET updated_by = \(caller.userID), updated_at = \(clock.now) WHERE id = \(item.id)", logger: logger)
        return TaskWrite(taskID: item.id, householdID: item.householdID, change: .updated,
                         version: try await Self.version(of: item.id, on: connection, logger: logger))
    }
}
