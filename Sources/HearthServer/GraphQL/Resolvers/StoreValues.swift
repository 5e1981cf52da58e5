import Foundation
import GraphQLEngine
import HearthCore

/// The stores service's DTOs as the plain data of their schema types.
enum StoreValues {
    static func date(_ date: Date?) -> GraphQLValue {
        date.map { .string(DateTimeScalar.string(from: $0)) } ?? .null
    }

    /// Minor units as a `Decimal` string: 2550 → "25.50", -5 → "-0.05".
    static func money(_ cents: Int64?) -> GraphQLValue {
        guard let cents else { return .null }
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        return .string("\(cents < 0 ? "-" : "")\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)")
    }

    static func store(_ store: Store) -> GraphQLValue {
        let status = store.syncStatus
        let lastError: GraphQLValue = status.lastError.map { error in
            [
                "code": .string(error.code.rawValue), "message": .string(error.message), "suggestion": .string(error.suggestion),
                "status": error.status.map { .int($0) } ?? .null, "retryAfter": error.retryAfter.map { .float($0) } ?? .null,
                "at": date(status.lastErrorAt),
            ]
        } ?? .null
        return [
            "id": .string(UserValues.uuid(store.id)), "householdId": .string(UserValues.uuid(store.householdID)),
            "domain": .string(store.domain), "name": .string(store.name), "url": .string("https://\(store.domain)"),
            "createdAt": date(store.createdAt), "productCount": .int(store.productCount),
            "previewImages": .list(store.previewImages.map { .string($0) }),
            "syncStatus": [
                "state": .string(status.state.rawValue), "lastSyncedAt": date(status.lastSyncedAt), "lastError": lastError,
                "nextSyncAt": date(status.nextSyncAt),
            ],
        ]
    }

    static func product(_ product: Product) -> GraphQLValue {
        let handle = product.handle.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? product.handle
        return [
            "url": .string("https://\(product.storeDomain)/products/\(handle)"),
            "id": .string(UserValues.uuid(product.id)), "storeId": .string(UserValues.uuid(product.storeID)), "title": .string(product.title),
            "handle": .string(product.handle), "vendor": .string(product.vendor), "productType": .string(product.productType),
            "tags": .list(product.tags.map { .string($0) }),
            "images": .list(product.images.map { ["src": .string($0.src), "width": $0.width.map { .int($0) } ?? .null,
                                                  "height": $0.height.map { .int($0) } ?? .null] }),
            "minPrice": money(product.minPrice), "maxPrice": money(product.maxPrice), "available": .bool(product.available),
            "firstSeenAt": date(product.firstSeenAt), "lastChangedAt": date(product.lastChangedAt), "removedAt": date(product.removedAt),
        ]
    }

    static func variant(_ variant: ProductVariant) -> GraphQLValue {
        [
            "id": .string(UserValues.uuid(variant.id)), "title": .string(variant.title), "sku": variant.sku.map { .string($0) } ?? .null,
            "options": .list(variant.options.map { .string($0) }), "price": money(variant.price), "compareAtPrice": money(variant.compareAtPrice),
            "available": .bool(variant.available),
        ]
    }

    static func snapshot(_ snapshot: PriceSnapshot) -> GraphQLValue {
        [
            "variantId": .string(UserValues.uuid(snapshot.variantID)), "price": money(snapshot.price),
            "compareAtPrice": money(snapshot.compareAtPrice), "available": .bool(snapshot.available), "recordedAt": date(snapshot.recordedAt),
        ]
    }

    static func event(_ event: StoreEvent) -> GraphQLValue {
        [
            "id": .string(String(event.id)), "type": .string(event.type.rawValue), "householdId": .string(UserValues.uuid(event.householdID)),
            "storeId": .string(UserValues.uuid(event.storeID)), "storeName": .string(event.storeName),
            "productId": .string(UserValues.uuid(event.productID)), "productTitle": .string(event.productTitle),
            "variantId": event.variantID.map { .string(UserValues.uuid($0)) } ?? .null,
            "variantTitle": event.variantTitle.map { .string($0) } ?? .null,
            "oldPrice": money(event.oldPrice), "newPrice": money(event.newPrice), "priceDelta": money(event.priceDelta),
            "magnitude": event.magnitude.map { .string($0.rawValue) } ?? .null, "createdAt": date(event.createdAt), "read": .bool(event.isRead),
        ]
    }

    static func notification(_ notification: StoreNotification) -> GraphQLValue {
        let counts = notification.counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key.rawValue, GraphQLValue.int($0.value)) }
        return [
            "id": .string(UserValues.uuid(notification.id)), "householdId": .string(UserValues.uuid(notification.householdID)),
            "storeId": notification.storeID.map { .string(UserValues.uuid($0)) } ?? .null, "title": .string(notification.title),
            "body": .string(notification.body), "priority": .string(notification.priority.rawValue),
            "counts": .object(GraphQLObject(counts.map { (key: $0.0, value: $0.1) })), "createdAt": date(notification.createdAt), "readAt": date(notification.readAt),
            "read": .bool(notification.readAt != nil),
        ]
    }

    /// An optional list of UUID arguments; nil when absent.
    static func ids(_ value: GraphQLValue?, field: String) throws -> [UUID]? {
        guard case .list(let items)? = value else { return nil }
        return try items.map { item in
            guard let id = UserValues.uuid(item) else {
                throw ServiceError.invalidInput(field: field, message: "\(field) must hold UUIDs.")
            }
            return id
        }
    }
}
