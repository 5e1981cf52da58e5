import Crypto
import Foundation
import Logging
import PostgresNIO

/// Applies a feed's pages to one store's products inside the sync's transaction, detecting
/// changes as it goes.
///
/// Each page costs a bounded number of statements whatever its size (at most 7: read the
/// page's products, read the changed ones' variants, write snapshots, products, variants,
/// drop vanished variants, write events); unchanged products — same content hash — are neither
/// compared variant by variant nor written.
struct CatalogSync {
    let storeID: UUID
    let householdID: UUID
    let now: Date
    /// False for a store's first import: products arrive without change events.
    let recordsChanges: Bool
    let connection: PostgresConnection
    let logger: Logger

    /// Shopify ids of every product this sync has seen (the rest were removed).
    private(set) var seen: Set<Int64> = []
    private(set) var changes: [DetectedChange] = []
    /// Ids of the events written, in order.
    private(set) var eventIDs: [Int64] = []
    private(set) var statements = 0
    private(set) var pages = 0
    private(set) var productsWritten = 0
    private(set) var snapshotsWritten = 0

    init(storeID: UUID, householdID: UUID, now: Date, recordsChanges: Bool, connection: PostgresConnection, logger: Logger) {
        self.storeID = storeID
        self.householdID = householdID
        self.now = now
        self.recordsChanges = recordsChanges
        self.connection = connection
        self.logger = logger
    }

    private struct ExistingProduct {
        var id: UUID
        var contentHash: String
        var imageSignature: String
        var removed: Bool
    }

    private struct ExistingVariant {
        var id: UUID
        var productID: UUID
        var price: Int64
        var compareAtPrice: Int64?
        var available: Bool
    }

    /// Applies one page.
    mutating func apply(_ page: [FeedProduct]) async throws {
        pages += 1
        // A product seen on an earlier page (the feed shifted while paging) counts once.
        var products: [FeedProduct] = []
        var hashes: [String] = []
        for product in page where seen.insert(product.id).inserted {
            products.append(product)
            hashes.append(Self.contentHash(product))
        }
        guard !products.isEmpty else { return }

        var existing: [Int64: ExistingProduct] = [:]
        // A first import starts from an empty store: nothing to read.
        if recordsChanges {
            let rows = try await query("""
                SELECT shopify_id, id, content_hash, image_signature, removed_at IS NOT NULL AS removed FROM products
                WHERE store_id = \(storeID) AND shopify_id = ANY(\(products.map(\.id)))
                """)
            for (shopifyID, id, hash, signature, removed) in try await rows.columns(
                ("shopify_id", Int64.self), ("id", UUID.self), ("content_hash", String.self), ("image_signature", String.self), ("removed", Bool.self)) {
                existing[shopifyID] = ExistingProduct(id: id, contentHash: hash, imageSignature: signature, removed: removed)
            }
        }
        var changed: [(product: FeedProduct, id: UUID, hash: String, known: ExistingProduct?)] = []
        for (product, hash) in zip(products, hashes) {
            let known = existing[product.id]
            if let known, known.contentHash == hash, !known.removed { continue }
            changed.append((product, known?.id ?? UUID(), hash, known))
        }
        guard !changed.isEmpty else { return }

        let knownIDs = changed.compactMap { $0.known?.id }
        var variants: [Int64: ExistingVariant] = [:]
        if !knownIDs.isEmpty {
            let rows = try await query("""
                SELECT shopify_id, id, product_id, price, compare_at_price, available FROM variants WHERE product_id = ANY(\(knownIDs))
                """)
            for (shopifyID, id, productID, price, compareAt, available) in try await rows.columns(
                ("shopify_id", Int64.self), ("id", UUID.self), ("product_id", UUID.self), ("price", Int64.self), ("compare_at_price", Int64?.self),
                ("available", Bool.self)) {
                variants[shopifyID] = ExistingVariant(id: id, productID: productID, price: price, compareAtPrice: compareAt, available: available)
            }
        }

        var snapshots: [ExistingVariant] = []
        var pageChanges: [DetectedChange] = []
        var variantRows: [(productID: UUID, id: UUID, variant: FeedVariant)] = []
        for (product, id, _, known) in changed {
            // A product back in the feed after it was removed is new to the members again: one
            // NEW_PRODUCT event, not the price or stock differences to how it was before it left.
            let returning = known?.removed == true
            if recordsChanges {
                if known == nil || returning {
                    pageChanges.append(DetectedChange(type: .newProduct, productID: id))
                } else if let known, known.imageSignature != product.imageSignature {
                    pageChanges.append(DetectedChange(type: .imagesChanged, productID: id))
                }
            }
            for variant in product.variants {
                guard let old = variants[variant.id] else {
                    variantRows.append((id, UUID(), variant))
                    continue
                }
                variantRows.append((id, old.id, variant))
                guard old.price != variant.price || old.compareAtPrice != variant.compareAtPrice || old.available != variant.available else { continue }
                snapshots.append(old)
                if recordsChanges && !returning {
                    pageChanges += DetectedChange.variantChanges(productID: id, variantID: old.id, old: (old.price, old.available),
                                                                 new: (variant.price, variant.available))
                }
            }
        }

        if !snapshots.isEmpty {
            try await run("""
                INSERT INTO variant_snapshots (variant_id, price, compare_at_price, available, recorded_at)
                SELECT s.id, s.price, NULLIF(s.compare_at, -1), s.available, \(now)
                FROM unnest(\(snapshots.map(\.id)), \(snapshots.map(\.price)), \(snapshots.map { $0.compareAtPrice ?? -1 }),
                            \(snapshots.map(\.available))) AS s(id, price, compare_at, available)
                """)
            snapshotsWritten += snapshots.count
        }
        try await writeProducts(changed.map { ($0.product, $0.id, $0.hash) })
        try await writeVariants(variantRows)
        if !knownIDs.isEmpty {
            // Variants a changed product no longer lists.
            try await run("""
                DELETE FROM variants WHERE product_id = ANY(\(knownIDs)) AND NOT (shopify_id = ANY(\(variantRows.map(\.variant.id))))
                """)
        }
        try await record(pageChanges)
        productsWritten += changed.count
    }

    private mutating func writeProducts(_ rows: [(product: FeedProduct, id: UUID, hash: String)]) async throws {
        let listings = rows.map { $0.product.listing }
        let encoder = JSONEncoder()
        let images = rows.map { String(decoding: (try? encoder.encode($0.product.images)) ?? Data("[]".utf8), as: UTF8.self) }
        try await run("""
            INSERT INTO products AS p (id, store_id, household_id, shopify_id, title, handle, vendor, product_type, tags,
                                       published_at, shop_created_at, shop_updated_at, images, image_signature,
                                       min_price, max_price, available, search_key, first_seen_at, last_changed_at, removed_at, content_hash)
            SELECT r.id, \(storeID), \(householdID), r.shopify_id, r.title, r.handle, r.vendor, r.product_type,
                   string_to_array(r.tags, E'\\x1f'), NULLIF(r.published_at, '')::timestamptz, NULLIF(r.created_at, '')::timestamptz,
                   NULLIF(r.updated_at, '')::timestamptz, r.images::jsonb, r.image_signature, r.min_price, r.max_price, r.available,
                   r.search_key, \(now), \(now), NULL, r.content_hash
            FROM unnest(\(rows.map(\.id)), \(rows.map(\.product.id)), \(rows.map(\.product.title)), \(rows.map(\.product.handle)),
                        \(rows.map(\.product.vendor)), \(rows.map(\.product.productType)),
                        \(rows.map { $0.product.tags.map { $0.replacingOccurrences(of: "\u{1F}", with: " ") }.joined(separator: "\u{1F}") }),
                        \(rows.map { Self.text($0.product.publishedAt) }), \(rows.map { Self.text($0.product.createdAt) }),
                        \(rows.map { Self.text($0.product.updatedAt) }), \(images), \(rows.map(\.product.imageSignature)),
                        \(listings.map(\.minPrice)), \(listings.map(\.maxPrice)), \(listings.map(\.available)),
                        \(rows.map(\.product.searchKey)), \(rows.map(\.hash)))
                 AS r(id, shopify_id, title, handle, vendor, product_type, tags, published_at, created_at, updated_at, images,
                      image_signature, min_price, max_price, available, search_key, content_hash)
            ON CONFLICT (store_id, shopify_id) DO UPDATE SET
                title = EXCLUDED.title, handle = EXCLUDED.handle, vendor = EXCLUDED.vendor, product_type = EXCLUDED.product_type,
                tags = EXCLUDED.tags, published_at = EXCLUDED.published_at, shop_created_at = EXCLUDED.shop_created_at,
                shop_updated_at = EXCLUDED.shop_updated_at, images = EXCLUDED.images, image_signature = EXCLUDED.image_signature,
                min_price = EXCLUDED.min_price, max_price = EXCLUDED.max_price, available = EXCLUDED.available,
                search_key = EXCLUDED.search_key, content_hash = EXCLUDED.content_hash, removed_at = NULL,
                last_changed_at = CASE WHEN p.min_price <> EXCLUDED.min_price OR p.max_price <> EXCLUDED.max_price
                                         OR p.available <> EXCLUDED.available OR p.image_signature <> EXCLUDED.image_signature
                                         OR p.removed_at IS NOT NULL
                                       THEN EXCLUDED.last_changed_at ELSE p.last_changed_at END
            """)
    }

    private mutating func writeVariants(_ rows: [(productID: UUID, id: UUID, variant: FeedVariant)]) async throws {
        guard !rows.isEmpty else { return }
        let variants = rows.map(\.variant)
        try await run("""
            INSERT INTO variants (id, product_id, store_id, shopify_id, title, sku, option1, option2, option3, position,
                                  price, compare_at_price, available)
            SELECT r.id, r.product_id, \(storeID), r.shopify_id, r.title, NULLIF(r.sku, ''), NULLIF(r.option1, ''),
                   NULLIF(r.option2, ''), NULLIF(r.option3, ''), r.position, r.price, NULLIF(r.compare_at, -1), r.available
            FROM unnest(\(rows.map(\.id)), \(rows.map(\.productID)), \(variants.map(\.id)), \(variants.map(\.title)),
                        \(variants.map { $0.sku ?? "" }), \(variants.map { $0.option1 ?? "" }), \(variants.map { $0.option2 ?? "" }),
                        \(variants.map { $0.option3 ?? "" }), \(variants.map(\.position)), \(variants.map(\.price)),
                        \(variants.map { $0.compareAtPrice ?? -1 }), \(variants.map(\.available)))
                 AS r(id, product_id, shopify_id, title, sku, option1, option2, option3, position, price, compare_at, available)
            ON CONFLICT (store_id, shopify_id) DO UPDATE SET
                product_id = EXCLUDED.product_id, title = EXCLUDED.title, sku = EXCLUDED.sku, option1 = EXCLUDED.option1,
                option2 = EXCLUDED.option2, option3 = EXCLUDED.option3, position = EXCLUDED.position, price = EXCLUDED.price,
                compare_at_price = EXCLUDED.compare_at_price, available = EXCLUDED.available
            """)
    }

    /// Flags products the feed no longer lists (when it was read to its end), then brings the
    /// store's listing columns up to date.
    mutating func finish(complete: Bool) async throws {
        if complete {
            let rows = try await query("""
                UPDATE products SET removed_at = \(now), last_changed_at = \(now)
                WHERE store_id = \(storeID) AND removed_at IS NULL AND NOT (shopify_id = ANY(\(Array(seen))))
                RETURNING id
                """)
            var removed: [DetectedChange] = []
            for try await id in rows.decode(UUID.self) { removed.append(DetectedChange(type: .productRemoved, productID: id)) }
            if recordsChanges { try await record(removed) }
        }
        try await run("""
            UPDATE stores SET
                product_count = (SELECT count(*) FROM products WHERE store_id = \(storeID) AND removed_at IS NULL),
                preview_images = ARRAY(SELECT images -> 0 ->> 'src' FROM products
                                       WHERE store_id = \(storeID) AND removed_at IS NULL AND jsonb_array_length(images) > 0
                                       ORDER BY first_seen_at, shopify_id LIMIT 4)
            WHERE id = \(storeID)
            """)
    }

    private mutating func record(_ found: [DetectedChange]) async throws {
        guard !found.isEmpty else { return }
        changes += found
        let rows = try await query("""
            INSERT INTO store_events (household_id, store_id, product_id, variant_id, type, old_price, new_price, magnitude, created_at)
            SELECT \(householdID), \(storeID), e.product_id, NULLIF(e.variant_id, \(Self.noVariant)), e.type,
                   NULLIF(e.old_price, -1), NULLIF(e.new_price, -1), NULLIF(e.magnitude, ''), \(now)
            FROM unnest(\(found.map(\.productID)), \(found.map { $0.variantID ?? Self.noVariant }), \(found.map(\.type.rawValue)),
                        \(found.map { $0.oldPrice ?? -1 }), \(found.map { $0.newPrice ?? -1 }), \(found.map { $0.magnitude?.rawValue ?? "" }))
                 AS e(product_id, variant_id, type, old_price, new_price, magnitude)
            RETURNING id
            """)
        for try await id in rows.decode(Int64.self) { eventIDs.append(id) }
    }

    /// Stands for "no variant" in a uuid array (arrays of optionals are not bound).
    private static let noVariant = UUID.zero

    private mutating func run(_ sql: PostgresQuery) async throws {
        _ = try await query(sql)
    }

    private mutating func query(_ sql: PostgresQuery) async throws -> PostgresRowSequence {
        statements += 1
        return try await connection.query(sql, logger: logger)
    }

    private static func text(_ date: Date?) -> String {
        date.map { $0.formatted(.iso8601) } ?? ""
    }

    /// A digest of everything Hearth keeps about a product and its variants.
    static func contentHash(_ product: FeedProduct) -> String {
        var hasher = SHA256()
        func add(_ text: String) {
            hasher.update(data: Data(text.utf8))
            hasher.update(data: Data([0]))
        }
        add(product.title); add(product.handle); add(product.vendor); add(product.productType)
        add(product.tags.joined(separator: "\u{1F}"))
        add([product.publishedAt, product.createdAt, product.updatedAt].map { $0.map { "\($0.timeIntervalSince1970)" } ?? "-" }.joined(separator: "|"))
        for image in product.images { add(image.src); add("\(image.width ?? -1)x\(image.height ?? -1)@\(image.position ?? -1)") }
        for variant in product.variants {
            add("\(variant.id)|\(variant.position)|\(variant.price)|\(variant.compareAtPrice ?? -1)|\(variant.available)")
            add(variant.title); add(variant.sku ?? ""); add(variant.option1 ?? ""); add(variant.option2 ?? ""); add(variant.option3 ?? "")
        }
        return hasher.finalize().prefix(16).lowercaseHex
    }
}
