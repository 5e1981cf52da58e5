import Foundation
import GraphQLEngine
import HearthCore

extension Store {
    /// `Store`, `SyncStatus` and `SyncError`. A store's unread count and products are batched
    /// across the stores of a page: one statement each per request level, whatever the number of
    /// stores (the stores were authorised when they were read).
    /// `Store.products`' filters.
    private struct ProductsArguments: Decodable {
        var search: String?
        var stock: ProductQuery.Stock
        var sort: ProductQuery.Sort
        var includeRemoved: Bool
    }

    static func registerGraphQL(_ resolvers: inout Resolvers, stores: StoreService) {
        resolvers.object("Store", Store.self) { store in
            store.field("version") { .int($0.version) }
            store.field("id") { .id($0.id) }
            store.field("householdId") { .id($0.householdID) }
            store.field("domain") { .string($0.domain) }
            store.field("name") { .string($0.name) }
            store.field("currency") { .string(orNull: $0.currency) }
            store.field("url") { .string("https://\($0.domain)") }
            store.field("createdAt") { .date($0.createdAt) }
            store.field("productCount") { .int($0.productCount) }
            store.field("previewImages") { .strings($0.previewImages) }
            store.field("syncStatus") { .object($0.syncStatus) }
            store.resolveBatch("unreadEventCount") { parents, input in
                let caller = try await input.caller()
                let loader = input.request.loader("store-unread") { (keys: [Key]) in
                    let counts = try await stores.unreadEventCounts(caller, stores: keys.map { ($0.id, $0.household) })
                    return keys.map { .success(counts[$0.id] ?? 0) }
                }
                return try await loader.loadMany(parents.map(Key.init)).map { .int($0) }
            }
            store.resolveBatch("products", arguments: ProductsArguments.self) { parents, arguments, input in
                let caller = try await input.caller()
                let (stock, sort, search, removed) = (arguments.stock, arguments.sort, arguments.search, arguments.includeRemoved)
                let query = try ProductQuery(search: search, stock: stock, sort: sort, includeRemoved: removed)
                let page = try input.page()
                let images = input.info.selects(path: ["edges", "node", "images"])
                let allFields = input.info.selects(anyOf: Product.fieldsBeyondAList, under: ["edges", "node"])
                // One loader per distinct set of arguments: stores asked the same way share a batch.
                let name = ProductsBatch(query: query, page: page, images: images, allFields: allFields)
                let loader = input.request.loader(name) { (keys: [Key]) in
                    let pages = try await stores.products(caller, stores: keys.map { ($0.id, $0.household, $0.domain) }, query: query, page: page,
                                                          images: images, allFields: allFields)
                    return keys.map { .success(pages[$0.id] ?? .empty) }
                }
                return try await loader.loadMany(parents.map(Key.init)).map { .object($0) }
            }
        }
        ConnectionFields.register(&resolvers, "Store", of: Store.self)
        resolvers.object("SyncStatus", StoreSyncStatus.self) { status in
            status.field("state") { .enumeration($0.state) }
            status.field("lastSyncedAt") { .date($0.lastSyncedAt) }
            status.field("lastError") { status in .optional(status.lastError.map { LastError(error: $0, at: status.lastErrorAt) }) }
            status.field("nextSyncAt") { .date($0.nextSyncAt) }
        }
        resolvers.object("SyncError", LastError.self) { error in
            error.field("code") { .enumeration($0.error.code) }
            error.field("message") { .string($0.error.message) }
            error.field("suggestion") { .string($0.error.suggestion) }
            error.field("status") { .int(orNull: $0.error.status) }
            error.field("retryAfter") { status in status.error.retryAfter.map(Resolved.double) ?? .null }
            error.field("at") { .date($0.at) }
        }
    }

    /// The name of the loader of a page of stores' products: the list's arguments and which columns
    /// the selection reads.
    private struct ProductsBatch: Hashable, Sendable {
        let query: ProductQuery
        let page: PageRequest
        let images: Bool
        let allFields: Bool
    }

    /// A store's id and household: the key of the per-store loaders.
    struct Key: Hashable, Sendable {
        let id: UUID
        let household: UUID
        let domain: String

        init(_ store: Store) {
            id = store.id
            household = store.householdID
            domain = store.domain
        }
    }

    /// A sync status's last error with when it happened: the parent of `SyncError`.
    struct LastError: Sendable {
        let error: StoreSyncError
        let at: Date?
    }
}
