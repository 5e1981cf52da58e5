import Foundation

/// How `store.products` filters and orders: from the listing columns, each order served by an
/// index on (store, key, id) of the products in the feed.
public struct ProductQuery: Sendable, Hashable {
    public enum Stock: String, Sendable, Decodable { case all = "ALL", inStock = "IN_STOCK", outOfStock = "OUT_OF_STOCK" }

    public enum Sort: String, Sendable, Decodable {
        /// By title, A to Z (ignoring case).
        case title = "TITLE"
        /// Cheapest variant price, low to high.
        case priceAscending = "PRICE_ASC"
        /// Cheapest variant price, high to low.
        case priceDescending = "PRICE_DESC"
        /// Newest first (first seen by Hearth).
        case newest = "NEWEST"
        /// Most recently changed first (price, stock, images).
        case recentlyChanged = "RECENTLY_CHANGED"
    }

    /// Lower-cased text every result's title, vendor, type or tags contain; nil for all.
    public var search: String?
    public var stock: Stock
    public var sort: Sort
    /// Whether products that left the feed are listed too (with their `removedAt`).
    public var includeRemoved: Bool

    /// Trims `search` (at most 100 characters; empty means none).
    public init(search: String?, stock: Stock = .all, sort: Sort = .title, includeRemoved: Bool = false) throws(ServiceError) {
        let trimmed = search?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() ?? ""
        guard trimmed.count <= 100 else { throw .invalidInput(field: "search", message: "search must be at most 100 characters.") }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidInput(field: "search", message: "search must not contain control characters.")
        }
        self.search = trimmed.isEmpty ? nil : trimmed
        self.stock = stock
        self.sort = sort
        self.includeRemoved = includeRemoved
    }
}
