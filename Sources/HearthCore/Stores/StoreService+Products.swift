import Foundation
import PostgresNIO

extension StoreService {
    /// The columns of ``ProductSummaryRow``: what a list of products shows (ids, title, prices,
    /// stock, removal, version and the sort key of `sort`); see `allFields` of ``products(_:stores:query:page:images:allFields:)``.
    static func productSummaryColumns(sort: ProductQuery.Sort) -> String {
        "p.id, p.store_id, p.household_id, p.title, p.min_price, p.max_price, p.available, p.removed_at, p.version, " + microsColumns(sort: sort)
    }

    /// A product's columns (a ``ProductRow``), with its store's domain
    /// as `store_domain` (`domain`: the column that holds it in the statement, from the stores
    /// asked for or a join). `images`: false when nobody shows them (they come back empty).
    /// `sort`: the list's order, whose time key its cursors need (nil: no cursors).
    static func productColumns(images: Bool = true, domain: String, sort: ProductQuery.Sort? = nil) -> String {
        """
        p.id, p.store_id, \(domain) AS store_domain, p.household_id, p.shopify_id, p.title, p.handle, p.vendor, p.product_type, p.tags, \
        \(images ? "p.images" : "'[]'::jsonb AS images"), \
        p.min_price, p.max_price, p.available, p.first_seen_at, p.last_changed_at, p.removed_at, p.version, \(microsColumns(sort: sort))
        """
    }

    /// `first_seen_micros` and `changed_micros`, the time keys of a cursor in microseconds: only
    /// the one `sort` orders by is computed, the other is 0 (an `extract` per row and column
    /// cost PostgreSQL a quarter of a page's read, for a cursor that reads neither when sorted by price or title).
    static func microsColumns(sort: ProductQuery.Sort?) -> String {
        let firstSeen = sort == .newest ? Cursor.microsecondsSQL("p.first_seen_at") : "0::int8"
        let changed = sort == .recentlyChanged ? Cursor.microsecondsSQL("p.last_changed_at") : "0::int8"
        return "\(firstSeen) AS first_seen_micros, \(changed) AS changed_micros"
    }

    /// A store's current products (and those that left the feed when the query includes them),
    /// filtered and sorted, a page at a time.
    public func products(_ caller: Caller, storeID: UUID, query: ProductQuery, page: PageRequest) async throws -> Page<Product> {
        let store = try await readableStore(caller, storeID)
        return try await products(caller, stores: [(store.id, store.householdID, store.domain)], query: query, page: page)[store.id] ?? .empty
    }

    /// The same page of products for each of several stores the caller was shown (their ability
    /// to read products is checked in memory, the stores are not read again), in one statement:
    /// each store's rows come from its own index range (`LATERAL … LIMIT`), plus one grouped count
    /// when the page wants totals. `images`: whether the products come with their images.
    /// `allFields`: false reads only what a list shows (``productSummaryColumns``); the store's
    /// domain, Shopify id, handle, vendor, type, tags, images and first-seen and changed times are
    /// then left empty (empty strings and lists, 0, the epoch), for callers that read none of them.
    public func products(_ caller: Caller, stores: [(id: UUID, householdID: UUID, domain: String)], query: ProductQuery,
                         page: PageRequest, images: Bool = true, allFields: Bool = true) async throws -> [UUID: Page<Product>] {
        // Checked once a household (a page of stores is mostly one household's).
        let readableHouseholds = Set(stores.map(\.householdID)).filter { caller.ability.can("read", Product.subject(householdID: $0)) }
        let shown = stores.filter { readableHouseholds.contains($0.householdID) }
        let readable = shown.map(\.id)
        guard !readable.isEmpty else { return [:] }
        var filter: [SQLCondition] = query.includeRemoved ? [] : [.predicate([.sql("p.removed_at IS NULL")])]
        switch query.stock {
        case .all: break
        case .inStock: filter.append(.predicate([.sql("p.available")]))
        case .outOfStock: filter.append(.predicate([.sql("NOT p.available")]))
        }
        if let search = query.search {
            filter.append(.predicate([.sql("p.search_key LIKE "), .bind(.text(LikePattern.containing(search)))]))
        }
        let condition = SQLCondition.and(filter)
        let keyset = try Self.productKeyset(page, sort: query.sort)
        let ordering = query.sort.ordering
        let totals = try await database.counts("SELECT p.store_id AS key, count(*)::int8 AS count FROM products p WHERE p.store_id = ANY(\(readable)) AND \(condition) GROUP BY p.store_id", wanted: page.countsTotal)
        func read<Row: ProductListRow>(_: Row.Type, _ columns: String) async throws -> [ProductRow] {
            try await database.client.query("""
                SELECT \(unescaped: columns)
                FROM unnest(\(readable)::uuid[], \(shown.map(\.domain))::text[]) AS parent(id, domain)
                CROSS JOIN LATERAL (
                    SELECT * FROM products p WHERE p.store_id = parent.id AND \(condition) AND \(keyset)
                    ORDER BY \(unescaped: ordering.orderBy) LIMIT \(page.rowLimit)
                ) p
                ORDER BY p.store_id, \(unescaped: ordering.orderBy)
                """, logger: logger).rows(as: Row.self).map(\.row)
        }
        // The first page of what a list shows, filtered by stock alone (what lists open with), has
        // prepared statements: one per sort.
        func firstPage<Sort: SortCase<ProductQuery.Sort>>(_: Sort.Type) async throws -> [ProductRow] {
            let stock: Bool? = switch query.stock {
            case .all: nil
            case .inStock: true
            case .outOfStock: false
            }
            return try await database.rows(FirstProductPages<Sort>(stores: readable, available: stock, limit: page.rowLimit)).map(\.row)
        }
        let rows: [ProductRow]
        if allFields {
            rows = try await read(ProductRow.self, Self.productColumns(images: images, domain: "parent.domain", sort: query.sort))
        } else if page.after == nil, query.search == nil, !query.includeRemoved {
            // Each sort's statement named statically: called through an existential type, the whole
            // read ran as unspecialised generic code that looked types up for every row.
            rows = switch query.sort {
            case .title: try await firstPage(ByTitle.self)
            case .priceAscending: try await firstPage(ByPriceAscending.self)
            case .priceDescending: try await firstPage(ByPriceDescending.self)
            case .newest: try await firstPage(ByNewest.self)
            case .recentlyChanged: try await firstPage(ByRecentChange.self)
            }
        } else {
            rows = try await read(ProductSummaryRow.self, Self.productSummaryColumns(sort: query.sort))
        }
        let sort = query.sort
        return Page.grouped(rows, by: \.product.storeID, parents: readable, request: page, totals: totals, cursor: { row in
            let key: String = switch sort {
            case .title: row.product.title.lowercased()
            case .priceAscending, .priceDescending: String(row.product.minPrice)
            case .newest: String(row.firstSeenMicros)
            case .recentlyChanged: String(row.changedMicros)
            }
            return Cursor.make([sort.rawValue, key, row.product.id.lowercasedString])
        }, item: \.product)
    }

    /// The first page of the current products of each store `$1` (`$2` of them), in stock or not
    /// as `$3` says (unbound: either), at most `$4` each (the parents' `page`), in `Sort`'s order,
    /// read for a list.
    struct FirstProductPages<Sort: SortCase<ProductQuery.Sort>>: PreparedQuery {
        typealias Output = ProductSummaryRow
        static var sql: String {
            let ordering = Sort.sort.ordering
            return """
                SELECT \(StoreService.productSummaryColumns(sort: Sort.sort))
                FROM \(parentRows("$1", count: "$2", page: "$4")) AS parent
                CROSS JOIN LATERAL (
                    SELECT * FROM products p WHERE p.store_id = parent.id AND p.removed_at IS NULL AND ($3::bool IS NULL OR p.available = $3)
                    ORDER BY \(ordering.orderBy) LIMIT parent.page
                ) p
                ORDER BY p.store_id, \(ordering.orderBy)
                """
        }
        let stores: [UUID]
        let available: Bool?
        let limit: Int

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(parents: stores)
            bindings.append(available)
            bindings.append(limit)
            return bindings
        }
    }

    /// The rows after a product page's `after` cursor, which must come from the same sort.
    static func productKeyset(_ page: PageRequest, sort: ProductQuery.Sort) throws(PageRequestError) -> SQLCondition {
        guard let after = page.after else { return .alwaysTrue }
        let refused = PageRequestError(field: "after", message: "after is not a cursor from this list (same sort) of products.")
        guard let parts = Cursor.parts(after), parts.count == 3, parts[0] == sort.rawValue, let id = UUID(uuidString: parts[2]) else {
            throw refused
        }
        let key: [SQLPiece]
        if sort == .title {
            key = [.bind(.text(parts[1]))]
        } else {
            guard let number = Int64(parts[1]) else { throw refused }
            key = sort == .newest || sort == .recentlyChanged ? SQLPiece.timestamp(microseconds: number) : [.bind(.integer(number))]
        }
        return .row(sort.ordering.columns, sort.ordering.comparison, [key, [.bind(.uuid(id))]])
    }

    /// A product the caller may read (removed ones too), with its variants.
    public func product(_ caller: Caller, id: UUID) async throws -> (product: Product, variants: [ProductVariant]) {
        let rows = try await database.client.query(
            """
            SELECT \(unescaped: Self.productColumns(domain: "s.domain")) FROM products p JOIN stores s ON s.id = p.store_id
            WHERE p.id = \(id)
            """, logger: logger).rows(as: ProductRow.self)
        guard let product = rows.first?.product, caller.ability.can("read", Product.subject(householdID: product.householdID)) else {
            throw ServiceError.notFound("Product")
        }
        return (product, try await variants(productIDs: [id])[id] ?? [])
    }

    /// Variants of several products, by product, in position order (one prepared statement).
    /// `allFields`: false reads only what a list of prices shows (id, price, compare-at price,
    /// stock); the Shopify id, title, SKU, options and position are then left empty.
    public func variants(productIDs: [UUID], allFields: Bool = true) async throws -> [UUID: [ProductVariant]] {
        func read<Row: VariantListRow>(_: Row.Type) async throws -> [UUID: [ProductVariant]] {
            try await database.children(VariantsOfProducts<Row>(ids: productIDs), by: { $0.productID }, { $0.variant })
        }
        return allFields ? try await read(VariantRow.self) : try await read(VariantSummaryRow.self)
    }

    /// Variants of the products `$1`, read as `Row`.
    struct VariantsOfProducts<Row: VariantListRow>: IDListQuery {
        typealias Output = Row
        static var sql: String { "SELECT \(Row.columns) FROM variants WHERE product_id = ANY($1) ORDER BY product_id, position, shopify_id" }
        let ids: [UUID]
    }

    /// Several products' price histories, by product: the snapshots written before each change,
    /// newest first, at most `limit` (1 to 500) each, in one prepared statement.
    public func priceHistories(productIDs: [UUID], limit: Int) async throws -> [UUID: [PriceSnapshot]] {
        try await database.children(PriceHistories(productIDs: productIDs, limit: min(max(limit, 1), 500)), by: { $0.productID }, { $0.snapshot })
    }

    struct PriceHistories: PreparedQuery {
        typealias Output = PriceSnapshotRow
        static let sql = """
            SELECT parent.id AS product_id, s.variant_id, s.price, s.compare_at_price, s.available, s.recorded_at
            FROM \(parentRows("$1", count: "$3")) AS parent
            CROSS JOIN LATERAL (
                SELECT s.id, s.variant_id, s.price, s.compare_at_price, s.available, s.recorded_at
                FROM variant_snapshots s JOIN variants v ON v.id = s.variant_id
                WHERE v.product_id = parent.id ORDER BY s.recorded_at DESC, s.id DESC LIMIT $2
            ) s
            ORDER BY parent.id, s.recorded_at DESC, s.id DESC
            """
        let productIDs: [UUID]
        let limit: Int

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(productIDs)
            bindings.append(limit)
            bindings.append(productIDs.count)
            return bindings
        }
    }
}

extension ProductQuery.Sort {
    /// The ORDER BY of a sort, and its keyset: the columns and how a later row compares.
    var ordering: (orderBy: String, columns: String, comparison: String) {
        switch self {
        case .title: ("lower(p.title), p.id", "lower(p.title), p.id", ">")
        case .priceAscending: ("p.min_price, p.id", "p.min_price, p.id", ">")
        case .priceDescending: ("p.min_price DESC, p.id DESC", "p.min_price, p.id", "<")
        case .newest: ("p.first_seen_at DESC, p.id DESC", "p.first_seen_at, p.id", "<")
        case .recentlyChanged: ("p.last_changed_at DESC, p.id DESC", "p.last_changed_at, p.id", "<")
        }
    }
}

extension StoreService {
    enum ByTitle: SortCase { static let sort = ProductQuery.Sort.title }
    enum ByPriceAscending: SortCase { static let sort = ProductQuery.Sort.priceAscending }
    enum ByPriceDescending: SortCase { static let sort = ProductQuery.Sort.priceDescending }
    enum ByNewest: SortCase { static let sort = ProductQuery.Sort.newest }
    enum ByRecentChange: SortCase { static let sort = ProductQuery.Sort.recentlyChanged }
}
