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

    /// Notifications besides store changes that a person can switch off; the raw value is the JSON key.
    public enum NotificationSwitch: String, Sendable, CaseIterable {
        case reminders, taskAssigned, membership

        /// SQL that holds for the rows of `users` (as `table`) whose master switch and this switch
        /// are on (both are on unless stored as false). Built from fixed names only.
        func isOn(in table: String) -> String {
            """
            \(table).preferences->'notifications'->'enabled' IS DISTINCT FROM 'false'::jsonb
              AND \(table).preferences->'notifications'->'\(rawValue)' IS DISTINCT FROM 'false'::jsonb
            """
        }
    }

    /// Hours in the person's time zone when only HIGH notifications leave at once; the rest wait
    /// until they end. `from` and `to` are minutes after midnight; `from > to` spans midnight.
    public struct QuietHours: Sendable, Equatable {
        public var from: Int
        public var to: Int

        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }

        /// `"HH:MM"` → minutes after midnight; nil when it is not a time of day.
        public static func minutes(_ text: String) -> Int? {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]),
                  (0..<24).contains(hours), (0..<60).contains(minutes) else { return nil }
            return hours * 60 + minutes
        }

        public static func text(_ minutes: Int) -> String {
            let hours = minutes / 60, rest = minutes % 60
            return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
        }

        /// When a notification written at `date` may leave: `date` outside quiet hours, else their end.
        public func release(_ date: Date, in zone: TimeZone) -> Date {
            guard from != to else { return date }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let parts = calendar.dateComponents([.hour, .minute], from: date)
            let now = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
            let quiet = from < to ? (now >= from && now < to) : (now >= from || now < to)
            guard quiet else { return date }
            let start = calendar.startOfDay(for: date)
            var end = calendar.date(byAdding: .minute, value: to, to: start) ?? date
            if end <= date { end = calendar.date(byAdding: .day, value: 1, to: end) ?? date }
            return end
        }
    }

    public var theme: Theme = .system
    /// The master switch: off silences every change type.
    public var notificationsEnabled = true
    /// Per change type; every type is on unless turned off.
    public var notifications: [ChangeType: Bool] = Dictionary(uniqueKeysWithValues: ChangeType.allCases.map { ($0, true) })
    public var priceDropThreshold: PriceThreshold = .any
    public var priceIncreaseThreshold: PriceThreshold = .any
    /// An IANA name; nil until the person (or their app) chooses one, UTC applying meanwhile.
    public var timeZone: String?
    public var lastHouseholdID: UUID?
    /// Reminders, assignments, membership news: each on unless turned off.
    public var switches: [NotificationSwitch: Bool] = Dictionary(uniqueKeysWithValues: NotificationSwitch.allCases.map { ($0, true) })
    public var quietHours: QuietHours?

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
    public var switches: [Preferences.NotificationSwitch: Bool] = [:]
    /// `.some(nil)` clears quiet hours.
    public var quietHours: Preferences.QuietHours??

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
        for (name, on) in switches { result.switches[name] = on }
        if let quietHours { result.quietHours = quietHours }
        return result
    }
}
