import Foundation
import GraphQLEngine
import HearthCore

extension StoreEvent {
    /// `StoreEvent`: what a sync found changed, with the reader's read state.
    static func registerGraphQL(_ resolvers: inout Resolvers) {
        resolvers.object("StoreEvent", StoreEvent.self) { event in
            event.field("version") { .int($0.version) }
            event.field("id") { .string(String($0.id)) }
            event.field("type") { .enumeration($0.type) }
            event.field("householdId") { .id($0.householdID) }
            event.field("storeId") { .id($0.storeID) }
            event.field("storeName") { .string($0.storeName) }
            event.field("productId") { .id($0.productID) }
            event.field("productTitle") { .string($0.productTitle) }
            event.field("variantId") { .id($0.variantID) }
            event.field("variantTitle") { .string(orNull: $0.variantTitle) }
            event.field("oldPrice") { .money($0.oldPrice) }
            event.field("newPrice") { .money($0.newPrice) }
            event.field("priceDelta") { .money($0.priceDelta) }
            event.field("magnitude") { .enumeration($0.magnitude) }
            event.field("createdAt") { .date($0.createdAt) }
            event.field("read") { .bool($0.isRead) }
        }
        ConnectionFields.register(&resolvers, "StoreEvent", of: StoreEvent.self)
    }
}

extension StoreNotification {
    /// `Notification`: one person's summary of a sync or a fired reminder.
    static func registerGraphQL(_ resolvers: inout Resolvers) {
        resolvers.object("Notification", StoreNotification.self) { notification in
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
        ConnectionFields.register(&resolvers, "Notification", of: StoreNotification.self)
    }
}
