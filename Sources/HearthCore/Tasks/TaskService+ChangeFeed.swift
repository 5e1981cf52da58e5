import Foundation
import PostgresNIO

extension TaskService {
    /// Hands a committed change to this process's subscribers, then to the other instances'.
    func announce(_ kind: TaskChange.Kind, _ item: TaskItem) async {
        changes.publish(.changed(TaskChange(kind: kind, householdID: item.householdID, taskID: item.id, item: kind == .deleted ? nil : item)))
        await database.bus.publish(TaskNotice.topic, TaskNotice(household: item.householdID, task: item.id, change: kind))
    }

    /// Hands fired reminders to this process's subscribers, then to the other instances'.
    public func announce(_ reminders: [TaskReminder]) async {
        for reminder in reminders {
            changes.publish(.reminder(reminder))
            for ids in EventBus.groups(of: reminder.notifications.map(\.id)) {
                await database.bus.publish(TaskNotice.topic, TaskNotice(household: reminder.householdID, task: reminder.taskID, change: nil,
                                                                        reminder: reminder.id, dueAt: reminder.dueAt, notifications: ids))
            }
        }
    }

    /// Rebuilds another instance's change or reminder from the database for this process's
    /// subscribers; nothing is read when nobody here subscribes.
    func relay(_ notice: TaskNotice) async {
        guard changes.subscriberCount > 0 else { return }
        do {
            if let kind = notice.change {
                var item: TaskItem?
                if kind != .deleted {
                    let rows = try await database.client.query("SELECT \(unescaped: Self.itemSelect) FROM task_items t WHERE t.id = \(notice.task)", logger: logger)
                    item = try await withDetails(try await Self.decodeItems(rows)).first
                    guard item != nil else { return }
                }
                changes.publish(.changed(TaskChange(kind: kind, householdID: notice.household, taskID: notice.task, item: item)))
            } else if let reminder = notice.reminder, let dueAt = notice.dueAt {
                let notifications = try await NotificationService.notifications(ids: notice.notifications ?? [], from: database.client, logger: logger)
                let title = notifications.first?.title ?? ""
                changes.publish(.reminder(TaskReminder(id: reminder, taskID: notice.task, householdID: notice.household, title: title,
                                                       dueAt: dueAt, notifications: notifications)))
            }
        } catch {
            logger.warning("could not relay another instance's task change", metadata: ["task": "\(notice.task)", "error": "\(ErrorText.oneLine(error))"])
        }
    }
}
