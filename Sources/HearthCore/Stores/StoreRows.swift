import Foundation
import PostgresNIO

/// A row of ``StoreService/storeSelect``: the store as stored; its sync state depends on the
/// moment it is read (a lease runs out), so ``store(at:)`` derives it.
struct StoreRow: TypedRow {
    let id: UUID
    let householdID: UUID
    let domain: String
    let name: String
    let currency: String?
    let createdAt: Date
    let productCount: Int
    let previewImages: [String]
    let lastSyncedAt: Date?
    let nextSyncAt: Date
    let lastError: StoreSyncError?
    let lastErrorAt: Date?
    let leaseExpiresAt: Date?
    let failureCount: Int
    let version: Int
    let micros: Int64

    init(_ row: inout RowCells) throws {
        (id, householdID, domain, name, currency) = (try row("id"), try row("household_id"), try row("domain"), try row("name"), try row("currency"))
        (createdAt, productCount, previewImages) = (try row("created_at"), try row("product_count"), try row("preview_images"))
        (lastSyncedAt, nextSyncAt) = (try row("last_synced_at"), try row("next_sync_at"))
        let code: StoreSyncError.Code? = try row("last_error")
        let (message, status, retryAfter): (String?, Int?, Double?) =
            (try row("last_error_message"), try row("last_error_status"), try row("last_error_retry_after"))
        lastError = code.map { StoreSyncError($0, message ?? "", status: status, retryAfter: retryAfter) }
        lastErrorAt = try row("last_error_at")
        (leaseExpiresAt, failureCount, version, micros) = (try row("lease_expires_at"), try row("failure_count"), try row("version"), try row("micros"))
    }

    /// The store as seen at `now`: syncing while an instance's lease runs, else failed, waiting
    /// (the store asked for a pause), synced or never synced.
    func store(at now: Date) -> Store {
        let state: StoreSyncStatus.State
        if let leaseExpiresAt, leaseExpiresAt > now {
            state = .syncing
        } else if lastError != nil {
            state = .failed
        } else if failureCount > 0 {
            state = .waiting
        } else {
            state = lastSyncedAt == nil ? .neverSynced : .synced
        }
        let status = StoreSyncStatus(state: state, lastSyncedAt: lastSyncedAt, lastError: lastError,
                                     lastErrorAt: lastError == nil ? nil : lastErrorAt, nextSyncAt: nextSyncAt)
        return Store(id: id, householdID: householdID, domain: domain, name: name, currency: currency, createdAt: createdAt, productCount: productCount,
                     previewImages: previewImages, syncStatus: status, version: version)
    }
}

/// A row that reads a product and its sort keys (a ``ProductRow``), whichever columns it reads.
protocol ProductListRow: TypedRow {
    var row: ProductRow { get }
}

/// A row of ``StoreService/productColumns(images:domain:)``: the product, and its sort keys in
/// microseconds (for cursors).
struct ProductRow: ProductListRow {
    let product: Product
    let firstSeenMicros: Int64
    let changedMicros: Int64
    var row: ProductRow { self }

    init(product: Product, firstSeenMicros: Int64, changedMicros: Int64) {
        (self.product, self.firstSeenMicros, self.changedMicros) = (product, firstSeenMicros, changedMicros)
    }

    init(_ row: inout RowCells) throws {
        product = Product(
            id: try row("id"), storeID: try row("store_id"), storeDomain: try row("store_domain"), householdID: try row("household_id"),
            shopifyID: try row("shopify_id"), title: try row("title"), handle: try row("handle"), vendor: try row("vendor"),
            productType: try row("product_type"), tags: try row("tags"),
            images: try row("images", as: JSONColumn.self).decode([FeedImage].self, column: "products.images"), minPrice: try row("min_price"),
            maxPrice: try row("max_price"), available: try row("available"), firstSeenAt: try row("first_seen_at"),
            lastChangedAt: try row("last_changed_at"), removedAt: try row("removed_at"), version: try row("version"))
        (firstSeenMicros, changedMicros) = (try row("first_seen_micros"), try row("changed_micros"))
    }
}

/// A row of ``StoreService/productSummaryColumns``: the product as a list shows it, the other
/// fields empty, and its sort keys.
struct ProductSummaryRow: ProductListRow {
    let row: ProductRow

    init(_ row: inout RowCells) throws {
        let epoch = Date(timeIntervalSince1970: 0)
        let product = Product(
            id: try row("id"), storeID: try row("store_id"), storeDomain: "", householdID: try row("household_id"), shopifyID: 0,
            title: try row("title"), handle: "", vendor: "", productType: "", tags: [], images: [], minPrice: try row("min_price"),
            maxPrice: try row("max_price"), available: try row("available"), firstSeenAt: epoch, lastChangedAt: epoch,
            removedAt: try row("removed_at"), version: try row("version"))
        self.row = ProductRow(product: product, firstSeenMicros: try row("first_seen_micros"), changedMicros: try row("changed_micros"))
    }
}

/// A row that reads a variant and the product it belongs to from `columns`.
protocol VariantListRow: TypedRow {
    static var columns: String { get }
    var productID: UUID { get }
    var variant: ProductVariant { get }
}

/// A row of ``StoreService/VariantsOfProducts``: a variant and the product it belongs to.
struct VariantRow: VariantListRow {
    static var columns: String { "product_id, id, shopify_id, title, sku, option1, option2, option3, position, price, compare_at_price, available" }
    let productID: UUID
    let variant: ProductVariant

    init(_ row: inout RowCells) throws {
        productID = try row("product_id")
        let (id, shopifyID, title, sku): (UUID, Int64, String, String?) = (try row("id"), try row("shopify_id"), try row("title"), try row("sku"))
        let options: [String?] = [try row("option1"), try row("option2"), try row("option3")]
        variant = ProductVariant(
            id: id, shopifyID: shopifyID, title: title, sku: sku, options: options.compactMap { $0 }, position: try row("position"),
            price: try row("price"), compareAtPrice: try row("compare_at_price"), available: try row("available"))
    }
}

/// A variant as a list of prices shows it (id, price, compare-at price, stock) and its product;
/// the other fields empty (see `allFields` of ``StoreService/variants(productIDs:allFields:)``).
struct VariantSummaryRow: VariantListRow {
    static var columns: String { "product_id, id, price, compare_at_price, available" }
    let productID: UUID
    let variant: ProductVariant

    init(_ row: inout RowCells) throws {
        productID = try row("product_id")
        variant = ProductVariant(id: try row("id"), shopifyID: 0, title: "", sku: nil, options: [], position: 0, price: try row("price"),
                                 compareAtPrice: try row("compare_at_price"), available: try row("available"))
    }
}

/// A row of ``StoreService/PriceHistories``: a snapshot and its product.
struct PriceSnapshotRow: TypedRow {
    let productID: UUID
    let snapshot: PriceSnapshot

    init(_ row: inout RowCells) throws {
        productID = try row("product_id")
        snapshot = PriceSnapshot(variantID: try row("variant_id"), price: try row("price"), compareAtPrice: try row("compare_at_price"),
                                 available: try row("available"), recordedAt: try row("recorded_at"))
    }
}

/// A row of ``StoreService/eventSelect(reader:)``: a change event, with the reader's read state last.
struct StoreEventRow: TypedRow {
    let event: StoreEvent

    init(_ row: inout RowCells) throws {
        let (id, householdID, storeID, storeName): (Int64, UUID, UUID, String) =
            (try row("id"), try row("household_id"), try row("store_id"), try row("store_name"))
        let (productID, productTitle, variantID, variantTitle): (UUID, String, UUID?, String?) =
            (try row("product_id"), try row("product_title"), try row("variant_id"), try row("variant_title"))
        let (type, oldPrice, newPrice, magnitude): (StoreEventType, Int64?, Int64?, String?) =
            (try row("type"), try row("old_price"), try row("new_price"), try row("magnitude"))
        let (createdAt, version, isRead): (Date, Int, Bool) = (try row("created_at"), try row("version"), try row("read"))
        event = StoreEvent(
            id: id, householdID: householdID, storeID: storeID, storeName: storeName, productID: productID, productTitle: productTitle,
            variantID: variantID, variantTitle: variantTitle, type: type, oldPrice: oldPrice, newPrice: newPrice,
            magnitude: magnitude.flatMap(PriceChangeMagnitude.init), createdAt: createdAt, isRead: isRead, version: version)
    }
}

// Stored as their raw values; one this Hearth does not know fails the row.
extension StoreEventType: TextColumn {}
extension StoreSyncError.Code: TextColumn {}
