import Foundation
import GraphQLEngine
import HearthCore

extension Product {
    /// `Product`, `ProductImage`, `Variant` and `PriceSnapshot`. A product's variants and price
    /// history are batched across every product of the request level: one statement each, however
    /// many pages of products.
    /// `Product.priceHistory(first:)`.
    private struct PriceHistoryArguments: Decodable { var first: Int }

    static func registerGraphQL(_ resolvers: inout Resolvers, stores: StoreService) {
        resolvers.object("Product", Product.self) { product in
            product.field("version") { .int($0.version) }
            product.field("id") { .id($0.id) }
            product.field("storeId") { .id($0.storeID) }
            product.field("title") { .string($0.title) }
            product.field("handle") { .string($0.handle) }
            product.field("url") { product in
                let handle = product.handle.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? product.handle
                return .string("https://\(product.storeDomain)/products/\(handle)")
            }
            product.field("vendor") { .string($0.vendor) }
            product.field("productType") { .string($0.productType) }
            product.field("tags") { .strings($0.tags) }
            product.field("images") { .objects($0.images) }
            product.field("minPrice") { .money($0.minPrice) }
            product.field("maxPrice") { .money($0.maxPrice) }
            product.field("available") { .bool($0.available) }
            product.field("firstSeenAt") { .date($0.firstSeenAt) }
            product.field("lastChangedAt") { .date($0.lastChangedAt) }
            product.field("removedAt") { .date($0.removedAt) }
            product.resolveBatch("variants") { parents, input in
                // Only prices and stock unless the selection reads more.
                let allFields = input.info.selects(anyOf: ["title", "sku", "options"])
                return try await variantLoader(input, stores, allFields: allFields).loadMany(parents.map(\.id)).map { .objects($0) }
            }
            product.resolveBatch("recentPriceChange") { parents, input in
                let caller = try await input.caller()
                // The products were authorised when read; their household decides whether events are readable.
                let loader = input.request.loader("recent-price-change", maxBatchSize: PageRequest.maximumSize * PageRequest.maximumSize) {
                    (keys: [Key]) in
                    let found = try await stores.recentPriceChanges(caller, products: keys.map { ($0.id, $0.household) })
                    return keys.map { .success(found[$0.id]) }
                }
                return try await loader.loadMany(parents.map(Key.init)).map { .optional($0) }
            }
            product.resolveBatch("priceHistory", arguments: PriceHistoryArguments.self) { parents, arguments, input in
                let limit = arguments.first
                guard (1...500).contains(limit) else { throw ServiceError.invalidInput(field: "first", message: "first must be from 1 to 500.") }
                // Batched across the products of the level, one loader per limit.
                let loader = input.request.loader("price-history\u{1F}\(limit)", maxBatchSize: PageRequest.maximumSize * PageRequest.maximumSize) {
                    (keys: [UUID]) in
                    let found = try await stores.priceHistories(productIDs: keys, limit: limit)
                    return keys.map { .success(found[$0] ?? []) }
                }
                return try await loader.loadMany(parents.map(\.id)).map { .objects($0) }
            }
        }
        ConnectionFields.register(&resolvers, "Product", of: Product.self)
        resolvers.object("ProductImage", FeedImage.self) { image in
            image.field("src") { .string($0.src) }
            image.field("width") { .int(orNull: $0.width) }
            image.field("height") { .int(orNull: $0.height) }
        }
        resolvers.object("Variant", ProductVariant.self) { variant in
            variant.field("id") { .id($0.id) }
            variant.field("title") { .string($0.title) }
            variant.field("sku") { .string(orNull: $0.sku) }
            variant.field("options") { .strings($0.options) }
            variant.field("price") { .money($0.price) }
            variant.field("compareAtPrice") { .money($0.compareAtPrice) }
            variant.field("available") { .bool($0.available) }
        }
        resolvers.object("PriceSnapshot", PriceSnapshot.self) { snapshot in
            snapshot.field("variantId") { .id($0.variantID) }
            snapshot.field("price") { .money($0.price) }
            snapshot.field("compareAtPrice") { .money($0.compareAtPrice) }
            snapshot.field("available") { .bool($0.available) }
            snapshot.field("recordedAt") { .date($0.recordedAt) }
        }
    }

    /// A product's id and household: the key of the per-product loaders that check permissions.
    struct Key: Hashable, Sendable {
        let id: UUID
        let household: UUID

        init(_ product: Product) {
            id = product.id
            household = product.householdID
        }
    }

    /// The fields of `Product` that a list's read leaves empty (`allFields` of
    /// `StoreService.products`): selecting any of them (or a fragment spread, which may) reads every column.
    static let fieldsBeyondAList = ["handle", "url", "vendor", "productType", "tags", "images", "firstSeenAt", "lastChangedAt"]

    /// The request's loader of variants by product, so a page of products costs one query — also
    /// the pages of a page of stores (at most 100 × 100 products: one batch holds them all).
    /// `allFields`: false for a selection of prices and stock only (each shape its own loader).
    static func variantLoader(_ input: FieldInput, _ stores: StoreService, allFields: Bool = true) -> DataLoader<UUID, [ProductVariant]> {
        input.request.loader(allFields ? "variants" : "variant-prices", maxBatchSize: PageRequest.maximumSize * PageRequest.maximumSize) {
            (keys: [UUID]) in
            let found = try await stores.variants(productIDs: keys, allFields: allFields)
            return keys.map { .success(found[$0] ?? []) }
        }
    }
}
