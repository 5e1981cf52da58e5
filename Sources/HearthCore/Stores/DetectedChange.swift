import Foundation

/// A change one sync found, before it is stored as a ``StoreEvent``.
struct DetectedChange: Sendable, Equatable {
    var type: StoreEventType
    var productID: UUID
    var variantID: UUID?
    var oldPrice: Int64?
    var newPrice: Int64?

    var magnitude: PriceChangeMagnitude? {
        guard let oldPrice, let newPrice, type == .priceDropped || type == .priceIncreased else { return nil }
        return PriceChangeMagnitude(old: oldPrice, new: newPrice)
    }

    /// The events a variant's new values mean against its old ones: a price change (dropped or
    /// increased), and a change of availability (back in stock or out of stock).
    static func variantChanges(productID: UUID, variantID: UUID, old: (price: Int64, available: Bool),
                               new: (price: Int64, available: Bool)) -> [DetectedChange] {
        var changes: [DetectedChange] = []
        if new.price != old.price {
            changes.append(DetectedChange(type: new.price < old.price ? .priceDropped : .priceIncreased, productID: productID,
                                          variantID: variantID, oldPrice: old.price, newPrice: new.price))
        }
        if new.available != old.available {
            changes.append(DetectedChange(type: new.available ? .backInStock : .outOfStock, productID: productID,
                                          variantID: variantID, oldPrice: old.price, newPrice: new.price))
        }
        return changes
    }
}
