import Foundation
import Logging
import PostgresNIO

/// A notice to the instance's administrators, of no household: a failed or overdue backup.
/// Stored and delivered as a notification of kind INSTANCE (written with its deliveries to each
/// administrator's channels, HIGH so quiet hours do not hold it back), and read apart from the
/// household notifications (`instanceNotices`), whose every item has its household.
public struct InstanceNotice: Sendable, Equatable {
    public var id: UUID
    public var title: String
    public var body: String
    public var priority: HouseholdNotification.Priority
    public var createdAt: Date
    public var readAt: Date?

    init(_ notification: HouseholdNotification) {
        (id, title, body, priority) = (notification.id, notification.title, notification.body, notification.priority)
        (createdAt, readAt) = (notification.createdAt, notification.readAt)
    }

    /// Writes the notice for every instance administrator in the caller's transaction; returns how many got it.
    @discardableResult
    static func send(title: String, body: String, at date: Date, on connection: PostgresConnection, logger: Logger) async throws -> Int {
        var administrators: [UUID] = []
        for try await id in try await connection.query("SELECT id FROM users WHERE is_admin ORDER BY created_at", logger: logger).decode(UUID.self) {
            administrators.append(id)
        }
        let notices = administrators.map { user in
            HouseholdNotification(id: UUID(), userID: user, householdID: nil, storeID: nil, title: title, body: body, priority: .high,
                                  counts: [:], createdAt: date, kind: .instance)
        }
        try await NotificationOutbox.write(notices, householdID: nil, storeID: nil, at: date, on: connection, logger: logger)
        return notices.count
    }
}
