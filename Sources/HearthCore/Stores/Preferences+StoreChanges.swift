import Foundation

extension Preferences {
    /// Whether a change gets through this person's switches and price thresholds.
    func wants(_ change: DetectedChange) -> Bool {
        guard notificationsEnabled, notifications[change.type.preference, default: true] else { return false }
        switch change.type {
        case .priceDropped: return Self.passes(change, priceDropThreshold)
        case .priceIncreased: return Self.passes(change, priceIncreaseThreshold)
        default: return true
        }
    }

    /// Absolute thresholds are in currency units (minor units × 100); percentages of the old price.
    static func passes(_ change: DetectedChange, _ threshold: PriceThreshold) -> Bool {
        guard let old = change.oldPrice, let new = change.newPrice else { return true }
        let delta = (new - old).magnitude
        let percent = PriceChangeMagnitude.percent(old: old, new: new)
        switch threshold {
        case .any: return true
        case .atLeast5: return delta >= 500
        case .atLeast10: return delta >= 1000
        case .atLeast25: return delta >= 2500
        case .atLeast10Percent: return percent >= 10
        case .atLeast25Percent: return percent >= 25
        }
    }
}
