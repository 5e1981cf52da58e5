import Foundation
import Logging
import PostgresNIO

extension TaskService {
    /// How long one instance holds a claimed reminder before another may take it over.
    static let reminderLease: TimeInterval = 120

    /// Delivers up to `limit` due reminders this instance claims (`FOR UPDATE SKIP LOCKED` plus
    /// a lease, so two instances never send one reminder twice): each leaves a notification per
    /// recipient whose notifications are on (the assignee, else every member; members only) and is then no
    /// longer pending. Returns what it sent.
    public func deliverDueReminders(limit: Int = 50) async throws -> [TaskReminder] {
        let now = clock.now
        let rows = try await database.client.query("""
            UPDATE task_items SET reminder_lease_owner = \(instanceID), reminder_lease_expires_at = \(now.addingTimeInterval(Self.reminderLease))
            WHERE id IN (SELECT id FROM task_items
                         WHERE reminder_due_at <= \(now) AND completed_at IS NULL
                           AND (reminder_lease_expires_at IS NULL OR reminder_lease_expires_at < \(now))
                         ORDER BY reminder_due_at LIMIT \(max(1, min(limit, 500))) FOR UPDATE SKIP LOCKED)
            RETURNING id, household_id, reminder_id, title, priority, reminder_due_at, assignee_id, kind = 'EVENT' AND repeat_rule IS NOT NULL AS repeats
            """, logger: logger).rows(as: ClaimedReminder.self)
        var sent: [TaskReminder] = []
        for item in rows {
            if let reminder = try await deliver(item, now: now) { sent.append(reminder) }
        }
        return sent
    }

    private func deliver(_ item: ClaimedReminder, now: Date) async throws -> TaskReminder? {
        let logger = self.logger
        let owner = instanceID
        let zone = try await households.timeZone(of: item.household)
        return try await database.transaction(logger: logger) { connection async throws -> TaskReminder? in
            // Still ours and still due as claimed (not completed, moved or snoozed meanwhile)?
            let released = try await connection.query("""
                UPDATE task_items SET reminder_due_at = NULL, reminder_lease_owner = NULL, reminder_lease_expires_at = NULL
                WHERE id = \(item.task) AND reminder_lease_owner = \(owner) AND reminder_due_at = \(item.due) AND completed_at IS NULL
                RETURNING id
                """, logger: logger)
            var mine = false
            for try await _ in released.decode(UUID.self) { mine = true }
            guard mine else { return nil }
            // A repeating event's reminder comes back for its next occurrence still ahead.
            if item.repeats,
               let event = try await Self.decodeItems(try await connection.query(
                   "SELECT \(unescaped: Self.itemSelect) FROM task_items t WHERE t.id = \(item.task)", logger: logger)).first,
               let repetition = event.repetition, let start = event.position?.start,
               let next = repetition.nextReminder(seriesStart: start, remindAt: event.remindAt, after: max(now, item.due), zone: zone) {
                try await connection.query("UPDATE task_items SET reminder_due_at = \(next) WHERE id = \(item.task)", logger: logger)
            }
            // The assignee, else every member, and only members; people who switched notifications off get none.
            let recipientRows = try await connection.query("""
                SELECT u.id FROM users u
                WHERE u.id IN (SELECT user_id FROM household_members WHERE household_id = \(item.household))
                  AND (u.id = \(item.assignee) OR \(item.assignee)::uuid IS NULL)
                  AND \(unescaped: Preferences.NotificationSwitch.reminders.isOn(in: "u"))
                ORDER BY u.id
                """, logger: logger)
            var recipients: [UUID] = []
            for try await recipient in recipientRows.decode(UUID.self) { recipients.append(recipient) }
            let body = "Due " + Self.localTime(item.due, in: zone)
            let priority: HouseholdNotification.Priority = item.priority == .high ? .high : .normal
            let notifications = recipients.map {
                HouseholdNotification(id: UUID(), userID: $0, householdID: item.household, storeID: nil, title: item.title, body: body,
                                      priority: priority, counts: [:], createdAt: now, readAt: nil, kind: .reminder, taskID: item.task)
            }
            try await NotificationOutbox.write(notifications, householdID: item.household, storeID: nil, at: now, on: connection, logger: logger)
            return TaskReminder(id: item.reminder, taskID: item.task, householdID: item.household, title: item.title, dueAt: item.due,
                                notifications: notifications)
        }
    }

    /// "2026-03-29 14:00" in the household's zone.
    static func localTime(_ date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String { let v = value ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        return "\(c.year ?? 0)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute))"
    }

    /// Fires an item's reminder again `minutes` from now (1 minute to 7 days; 15 by default).
    public func snoozeReminder(_ caller: Caller, taskID: UUID, minutes: Int = 15) async throws -> TaskItem {
        return try await committed(try await database.transaction(logger: logger) { connection in
            try await self.snoozeReminder(caller, taskID: taskID, minutes: minutes, on: connection)
        }, caller)
    }

    func snoozeReminder(_ caller: Caller, taskID: UUID, minutes: Int, on connection: PostgresConnection) async throws -> TaskWrite {
        guard (1...10_080).contains(minutes) else {
            throw ServiceError.invalidInput(field: "minutes", message: "minutes must be from 1 to 10080 (a week); \(minutes) is not.")
        }
        let item = try await lockedItem(caller, taskID, on: connection).item
        try caller.authorize("update", item.subject)
        guard !item.isCompleted else { throw ServiceError.conflict("A completed item has no reminder to snooze; reopen it first.") }
        try await connection.query("""
            UPDATE task_items SET reminder_due_at = \(clock.now.addingTimeInterval(Double(minutes) * 60)), reminder_lease_owner = NULL,
                reminder_lease_expires_at = NULL
            WHERE id = \(taskID)
            """, logger: logger)
        return TaskWrite(taskID: taskID, householdID: item.householdID, change: .updated,
                         version: try await Self.version(of: taskID, on: connection, logger: logger))
    }
}
