/// A kind of change a store's sync detects: what store events record, what a store-change
/// notification counts, and what a person's notification switches are named after.
public enum StoreEventType: String, Sendable, CaseIterable, Codable {
    case priceDropped = "PRICE_DROPPED"
    case priceIncreased = "PRICE_INCREASED"
    case backInStock = "BACK_IN_STOCK"
    case outOfStock = "OUT_OF_STOCK"
    case newProduct = "NEW_PRODUCT"
    case productRemoved = "PRODUCT_REMOVED"
    case imagesChanged = "IMAGES_CHANGED"

    /// The matching switch of a person's notification preferences.
    var preference: Preferences.ChangeType {
        switch self {
        case .priceDropped: .priceDropped
        case .priceIncreased: .priceIncreased
        case .backInStock: .backInStock
        case .outOfStock: .outOfStock
        case .newProduct: .newProduct
        case .productRemoved: .productRemoved
        case .imagesChanged: .imagesChanged
        }
    }
}
