import Foundation

extension HouseholdNotification {
    /// How much one change matters: back in stock and large drops are HIGH; medium price
    /// changes, stock changes, new and removed products NORMAL; small changes and images LOW.
    static func priority(of change: DetectedChange) -> Priority {
        switch change.type {
        case .backInStock: return .high
        case .priceDropped:
            switch change.magnitude {
            case .large?: return .high
            case .medium?: return .normal
            default: return .low
            }
        case .priceIncreased: return change.magnitude == .small ? .low : .normal
        case .outOfStock, .newProduct, .productRemoved: return .normal
        case .imagesChanged: return .low
        }
    }
}
