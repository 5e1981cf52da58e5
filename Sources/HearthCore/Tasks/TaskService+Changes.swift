import Foundation
import Logging
import PostgresNIO

extension TaskService {
    /// Changes the fields `patch` names (explicit nulls clear); moves a pending reminder with
    /// the item's time.
    public func updateItem(actor: UUID, id: UUID, patch: TaskPatch) async throws -> TaskItem {
        let caller = try await households.ability(for: actor)
        let item = try await readableItem(caller, id)
        try HouseholdService.authorize(caller, "update", item.subject)
        let changed = try patch.applied(to: item)
        let now = clock.now
        let reminderDue = changed.isCompleted ? nil : Self.reminderTime(of: changed, now: now, previous: item)
        let logger = self.logger
        let labelNames = try patch.checkedLabelNames() ?? []
        try await database.transaction(logger: logger) { connection async throws in
            if let assignee = changed.assigneeID, assignee != item.assigneeID {
                try await Self.requireMember(assignee, of: item.householdID, on: connection, logger: logger)
            }
            try await connection.query("""
                UPDATE task_items SET title = \(changed.title), notes = \(changed.notes), priority = \(changed.priority.rawValue),
                    deadline = \(changed.deadline), estimate_minutes = \(changed.estimateMinutes), assignee_id = \(changed.assigneeID),
                    starts_at = \(changed.startsAt), ends_at = \(changed.endsAt), location = \(changed.location),
                    remind_at = \(changed.remindAt), reminder_due_at = \(reminderDue), reminder_lease_owner = NULL,
                    reminder_lease_expires_at = NULL, updated_by = \(actor), updated_at = \(now)
                WHERE id = \(id)
                """, logger: logger)
            if patch.replacesLabels {
                let labels = try await Self.resolveLabels(names: labelNames, ids: patch.labelIDs ?? [], householdID: item.householdID,
                                                          caller: caller, now: now, on: connection, logger: logger)
                try await connection.query("DELETE FROM task_labels WHERE task_id = \(id)", logger: logger)
                if !labels.isEmpty {
                    try await connection.query("INSERT INTO task_labels (task_id, label_id) SELECT \(id), unnest(\(labels.map(\.id)))", logger: logger)
                }
            }
        }
        if !labelNames.isEmpty { await forgetLabels(of: item.householdID) }  // names may have made labels
        return try await announced(.updated, caller, id)
    }

    /// The item as it is now, announced to subscribers as `kind`.
    func announced(_ kind: TaskChange.Kind, _ caller: CallerAbility, _ id: UUID) async throws -> TaskItem {
        let item = try await readableItem(caller, id)
        await announce(kind, item)
        return item
    }

    /// When a reminder set for `time` fires: then, unless that time has already passed (an item
    /// created, moved or reopened after its reminder time gets none: it would alert at once).
    static func armedReminder(at time: Date?, now: Date) -> Date? {
        time.flatMap { $0 > now ? $0 : nil }
    }

    /// When a changed item's reminder fires: unchanged when its time did not move (a snoozed or
    /// sent reminder stays so), else at the new time — none when that time has already passed.
    static func reminderTime(of item: TaskItem, now: Date, previous: TaskItem) -> Date? {
        let time = item.remindAt ?? item.occursAt
        let before = previous.remindAt ?? previous.occursAt
        return time == before ? previous.reminderDueAt : armedReminder(at: time, now: now)
    }

    /// Marks an item done (by the caller, now); its pending reminder is cancelled.
    public func completeItem(actor: UUID, id: UUID) async throws -> TaskItem {
        let caller = try await households.ability(for: actor)
        let item = try await readableItem(caller, id)
        try HouseholdService.authorize(caller, "complete", item.subject)
        let now = clock.now
        try await database.client.query("""
            UPDATE task_items SET completed_at = COALESCE(completed_at, \(now)), completed_by = COALESCE(completed_by, \(actor)),
                reminder_due_at = NULL, updated_by = \(actor), updated_at = \(now)
            WHERE id = \(id)
            """, logger: logger)
        return try await announced(.completed, caller, id)
    }

    /// Marks a done item open again; its reminder is re-armed when its time is still ahead.
    public func reopenItem(actor: UUID, id: UUID) async throws -> TaskItem {
        let caller = try await households.ability(for: actor)
        let item = try await readableItem(caller, id)
        try HouseholdService.authorize(caller, "complete", item.subject)
        let now = clock.now
        let due = Self.armedReminder(at: item.remindAt ?? item.occursAt, now: now)
        try await database.client.query("""
            UPDATE task_items SET completed_at = NULL, completed_by = NULL, reminder_due_at = \(item.isCompleted ? due : item.reminderDueAt),
                updated_by = \(actor), updated_at = \(now)
            WHERE id = \(id)
            """, logger: logger)
        return try await announced(.reopened, caller, id)
    }

    /// Deletes an item with its subtasks and reminder (admins and owners).
    public func deleteItem(actor: UUID, id: UUID) async throws -> TaskItem {
        let caller = try await households.ability(for: actor)
        let item = try await readableItem(caller, id)
        try HouseholdService.authorize(caller, "delete", item.subject)
        try await database.client.query("DELETE FROM task_items WHERE id = \(id)", logger: logger)
        await announce(.deleted, item)
        return item
    }

    // MARK: Subtasks

    /// Appends a subtask.
    public func addSubtask(actor: UUID, taskID: UUID, title rawTitle: String) async throws -> TaskItem {
        let (caller, item) = try await updatable(actor, taskID)
        let title = try TaskDraft.title(rawTitle, field: "title")
        guard item.subtasks.count < TaskDraft.maximumSubtasks else {
            throw ServiceError.invalidInput(field: "taskId", message: "An item takes at most \(TaskDraft.maximumSubtasks) subtasks.")
        }
        try await database.client.query("""
            INSERT INTO subtasks (id, task_id, position, title, created_at)
            VALUES (\(UUID()), \(taskID), (SELECT COALESCE(max(position) + 1, 0) FROM subtasks WHERE task_id = \(taskID)), \(title), \(clock.now))
            """, logger: logger)
        return try await touched(caller, item, actor: actor)
    }

    /// Renames a subtask or ticks it off (each only when given).
    public func updateSubtask(actor: UUID, id: UUID, title rawTitle: String?, done: Bool?) async throws -> TaskItem {
        let taskID = try await subtaskOwner(id)
        let (caller, item) = try await updatable(actor, taskID)
        let title = try rawTitle.map { text throws(ServiceError) in try TaskDraft.title(text, field: "title") }
        try await database.client.query(
            "UPDATE subtasks SET title = COALESCE(\(title), title), done = COALESCE(\(done), done) WHERE id = \(id)", logger: logger)
        return try await touched(caller, item, actor: actor)
    }

    /// Puts a task's subtasks in the order given, which must name each of them once.
    public func reorderSubtasks(actor: UUID, taskID: UUID, ids: [UUID]) async throws -> TaskItem {
        let (caller, item) = try await updatable(actor, taskID)
        guard ids.count == item.subtasks.count, Set(ids) == Set(item.subtasks.map(\.id)) else {
            throw ServiceError.invalidInput(field: "subtaskIds", message: "subtaskIds must name each of the task's \(item.subtasks.count) subtasks once.")
        }
        try await database.client.query("""
            UPDATE subtasks s SET position = o.position FROM unnest(\(ids), \(Array(0..<ids.count))) AS o(id, position)
            WHERE s.id = o.id AND s.task_id = \(taskID)
            """, logger: logger)
        return try await touched(caller, item, actor: actor)
    }

    /// Removes a subtask; the others keep their order.
    public func removeSubtask(actor: UUID, id: UUID) async throws -> TaskItem {
        let taskID = try await subtaskOwner(id)
        let (caller, item) = try await updatable(actor, taskID)
        try await database.client.query("DELETE FROM subtasks WHERE id = \(id)", logger: logger)
        return try await touched(caller, item, actor: actor)
    }

    private func updatable(_ actor: UUID, _ taskID: UUID) async throws -> (CallerAbility, TaskItem) {
        let caller = try await households.ability(for: actor)
        let item = try await readableItem(caller, taskID)
        try HouseholdService.authorize(caller, "update", item.subject)
        return (caller, item)
    }

    private func subtaskOwner(_ id: UUID) async throws -> UUID {
        let rows = try await database.client.query("SELECT task_id FROM subtasks WHERE id = \(id)", logger: logger)
        for try await task in rows.decode(UUID.self) { return task }
        throw ServiceError.notFound("Subtask")
    }

    private func touched(_ caller: CallerAbility, _ item: TaskItem, actor: UUID) async throws -> TaskItem {
        try await database.client.query(
            "UPDATE task_items SET updated_by = \(actor), updated_at = \(clock.now) WHERE id = \(item.id)", logger: logger)
        return try await announced(.updated, caller, item.id)
    }
}
