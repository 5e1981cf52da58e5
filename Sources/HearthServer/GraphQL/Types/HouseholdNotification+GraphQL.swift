import Foundation
import GraphQLEngine
import HearthCore

extension HouseholdNotification {
    /// `Notification`: one person's summary of a sync or a fired reminder.
    static func registerGraphQL(_ resolvers: inout Resolvers) {
        resolvers.object("Notification", HouseholdNotification.self) { notification in
            notification.field("version") { .int($0.version) }
            notification.field("kind") { .enumeration($0.kind) }
            notification.field("taskId") { .id($0.taskID) }
            notification.field("state") { .string($0.isDone ? "DONE" : "ACTIVE") }
            notification.field("id") { .id($0.id) }
            notification.field("householdId") { .id($0.householdID) }
            notification.field("storeId") { .id($0.storeID) }
            notification.field("title") { .string($0.title) }
            notification.field("body") { .string($0.body) }
            notification.field("priority") { .enumeration($0.priority) }
            notification.field("counts") { notification in
                let counts = notification.counts.sorted { $0.key.rawValue < $1.key.rawValue }
                return .value(.object(GraphQLObject(counts.map { (key: $0.key.rawValue, value: .int($0.value)) })))
            }
            notification.field("createdAt") { .date($0.createdAt) }
            notification.field("readAt") { .date($0.readAt) }
            notification.field("read") { .bool($0.readAt != nil) }
        }
        ConnectionFields.register(&resolvers, "Notification", of: HouseholdNotification.self)
        resolvers.object("InstanceNotice", InstanceNotice.self) { notice in
            notice.field("id") { .id($0.id) }
            notice.field("title") { .string($0.title) }
            notice.field("body") { .string($0.body) }
            notice.field("priority") { .enumeration($0.priority) }
            notice.field("createdAt") { .date($0.createdAt) }
            notice.field("readAt") { .date($0.readAt) }
            notice.field("read") { .bool($0.readAt != nil) }
        }
        ConnectionFields.register(&resolvers, "InstanceNotice", of: InstanceNotice.self)
    }
}
