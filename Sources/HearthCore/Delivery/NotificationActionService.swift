import Foundation
import Logging
import PostgresNIO

/// Performs what a reminder's action link asks, for the person the reminder was sent to, with
/// no session: their current permissions apply. Each action of a notification is done once; a
/// link that is not signed by this server's key, whose reminder is gone, done (its item completed
/// or deleted) or older than seven days, is not found.
public struct NotificationActionService: Sendable {
    let database: Database
    let households: HouseholdService
    let tasks: TaskService
    let signer: ActionLinkSigner?
    let clock: any HearthClock
    let logger: Logger

    /// How long a reminder's links work.
    public static let lifetime: TimeInterval = 7 * 86_400

    public init(database: Database, households: HouseholdService, tasks: TaskService, secrets: SecretBox?, clock: any HearthClock,
                logger: Logger) {
        self.database = database
        self.households = households
        self.tasks = tasks
        signer = secrets.map(ActionLinkSigner.init)
        self.clock = clock
        self.logger = logger
    }

    /// What a POST to an action link did.
    public struct Outcome: Sendable, Equatable {
        public var action: NotificationAction
        public var taskID: UUID
        public var performedAt: Date
        /// True when an earlier POST did it (this one changed nothing).
        public var alreadyDone: Bool
    }

    /// Performs the action `token` names, once.
    public func perform(token: String) async throws -> Outcome {
        guard let signer, let (notification, action) = signer.verify(token) else { throw ServiceError.notFound("Action") }
        if let done = try await performed(notification, action) { return done }
        let rows = try await database.client.query("""
            SELECT user_id, task_id FROM notifications
            WHERE id = \(notification) AND kind = 'REMINDER' AND state = 'ACTIVE' AND task_id IS NOT NULL
              AND created_at > \(clock.now.addingTimeInterval(-Self.lifetime))
            """, logger: logger)
        var found: (user: UUID, task: UUID)?
        for (user, task) in try await rows.columns(("user_id", UUID.self), ("task_id", UUID.self)) { found = (user, task) }
        // A press racing this one may have just done it (and so retired the reminder).
        guard let (user, task) = found else { return try await earlier(notification, action) }
        // The record of what was done and the action commit together: a second POST racing this
        // one waits on the record's key, then answers what this one did; a failed action leaves
        // no record, so the link may be used again.
        let now = clock.now
        let caller = try await households.caller(for: user)
        let tasks = self.tasks
        let write = try await database.transaction(logger: logger) { connection -> TaskWrite? in
            let claimed = try await connection.query("""
                INSERT INTO notification_actions (notification_id, action, task_id, performed_at) VALUES (\(notification), \(action.rawValue), \(task), \(now))
                ON CONFLICT DO NOTHING RETURNING task_id
                """, logger: logger)
            var isOurs = false
            for try await _ in claimed.decode(UUID.self) { isOurs = true }
            guard isOurs else { return nil }
            switch action {
            case .complete: return try await tasks.setCompleted(true, caller, id: task, expectedVersion: nil, on: connection)
            case .snooze: return try await tasks.snoozeReminder(caller, taskID: task, minutes: NotificationAction.snoozeMinutes, on: connection)
            }
        }
        guard let write else { return try await earlier(notification, action) }
        _ = try await tasks.committed(write, caller)
        logger.info("notification action performed", metadata: ["notification": "\(notification)", "action": "\(action.rawValue)", "task": "\(task)"])
        return Outcome(action: action, taskID: task, performedAt: now, alreadyDone: false)
    }

    /// What an earlier press did; not found when none did.
    private func earlier(_ notification: UUID, _ action: NotificationAction) async throws -> Outcome {
        guard let done = try await performed(notification, action) else { throw ServiceError.notFound("Action") }
        return done
    }

    private func performed(_ notification: UUID, _ action: NotificationAction) async throws -> Outcome? {
        let rows = try await database.client.query(
            "SELECT task_id, performed_at FROM notification_actions WHERE notification_id = \(notification) AND action = \(action.rawValue)",
            logger: logger)
        for (task, at) in try await rows.columns(("task_id", UUID.self), ("performed_at", Date.self)) {
            return Outcome(action: action, taskID: task, performedAt: at, alreadyDone: true)
        }
        return nil
    }
}
