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
