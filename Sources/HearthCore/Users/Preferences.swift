import Foundation

/// A person's own settings: look, which changes notify them and from what size, their time
/// zone and the household they looked at last.
public struct Preferences: Sendable, Equatable {
    public enum Theme: String, Sendable, CaseIterable {
        case system = "SYSTEM", light = "LIGHT", dark = "DARK"
    }

    /// How large a price change must be to notify: an amount in the store's currency units or a share.
    public enum PriceThreshold: String, Sendable, CaseIterable {
        case any = "ANY"
        case atLeast5 = "AT_LEAST_5"
        case atLeast10 = "AT_LEAST_10"
        case atLeast25 = "AT_LEAST_25"
        case atLeast10Percent = "AT_LEAST_10_PERCENT"
        case atLeast25Percent = "AT_LEAST_25_PERCENT"
    }

    /// The kinds of store change a person can be notified of; the raw value is the JSON key.
    public enum ChangeType: String, Sendable, CaseIterable {
        case priceDropped, priceIncreased, backInStock, outOfStock, newProduct, productRemoved, imagesChanged
    }

    public var theme: Theme = .system
    /// The master switch: off silences every change type.
    public var notificationsEnabled = true
    /// Per change type; every type is on unless turned off.
    public var notifications: [ChangeType: Bool] = Dictionary(uniqueKeysWithValues: ChangeType.allCases.map { ($0, true) })
    public var priceDropThreshold: PriceThreshold = .any
    public var priceIncreaseThreshold: PriceThreshold = .any
    /// An IANA name.
    public var timeZone = "UTC"
    public var lastHouseholdID: UUID?

    public init() {}

    /// Whether a change of `type` notifies at all.
    public func notifies(_ type: ChangeType) -> Bool {
        notificationsEnabled && notifications[type, default: true]
    }
}

/// Changes to preferences: only the fields given change. `updatePreferences` and
/// `importPreferences` both come down to one of these.
public struct PreferencesPatch: Sendable, Equatable {
    public var theme: Preferences.Theme?
    public var notificationsEnabled: Bool?
    public var notifications: [Preferences.ChangeType: Bool] = [:]
    public var priceDropThreshold: Preferences.PriceThreshold?
    public var priceIncreaseThreshold: Preferences.PriceThreshold?
    /// Checked against the IANA names when applied.
    public var timeZone: String?
    /// `.some(nil)` clears the last household.
    public var lastHouseholdID: UUID??

    public init() {}

    /// `preferences` with this patch applied, or the error naming the first bad field.
    public func applied(to preferences: Preferences) throws(ServiceError) -> Preferences {
        var result = preferences
        if let theme { result.theme = theme }
        if let notificationsEnabled { result.notificationsEnabled = notificationsEnabled }
        for (type, on) in notifications { result.notifications[type] = on }
        if let priceDropThreshold { result.priceDropThreshold = priceDropThreshold }
        if let priceIncreaseThreshold { result.priceIncreaseThreshold = priceIncreaseThreshold }
        if let timeZone { result.timeZone = try UserInput.timeZone(timeZone) }
        if let lastHouseholdID { result.lastHouseholdID = lastHouseholdID }
        return result
    }
}
