import Foundation

/// The JSON form of preferences, used for storage (`users.preferences`) and for
/// `exportPreferences` / `importPreferences`:
///
/// ```json
/// {"theme":"DARK","notifications":{"enabled":true,"priceDropped":true,…},
///  "priceDropThreshold":"AT_LEAST_10_PERCENT","priceIncreaseThreshold":"ANY",
///  "timeZone":"Europe/Berlin","lastHouseholdId":null}
/// ```
///
/// Reading is strict: unknown keys, wrong types and unknown enum values are refused, naming the key.
extension Preferences {
    /// The full JSON object, keys in a fixed order.
    public var json: Data {
        var notificationsObject: [String: Any] = ["enabled": notificationsEnabled]
        for type in ChangeType.allCases { notificationsObject[type.rawValue] = notifications[type, default: true] }
        for name in NotificationSwitch.allCases { notificationsObject[name.rawValue] = switches[name, default: true] }
        let object: [String: Any] = [
            "theme": theme.rawValue,
            "notifications": notificationsObject,
            "priceDropThreshold": priceDropThreshold.rawValue,
            "priceIncreaseThreshold": priceIncreaseThreshold.rawValue,
            "timeZone": timeZone.map { $0 as Any } ?? NSNull(),
            "lastHouseholdId": lastHouseholdID.map { $0.lowercasedString as Any } ?? NSNull(),
            "quietHours": quietHours.map { ["from": QuietHours.text($0.from), "to": QuietHours.text($0.to)] as Any } ?? NSNull(),
        ]
        // Only strings, booleans and null: serialization cannot fail.
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }

    /// Preferences stored as JSON: the defaults with the stored keys applied.
    public static func stored(_ data: Data) throws(ServiceError) -> Preferences {
        try PreferencesPatch.parse(json: data, field: "preferences").applied(to: Preferences())
    }
}

extension PreferencesPatch {
    /// Reads a JSON object of preferences (any subset of the keys `Preferences.json` writes).
    /// `field` prefixes key names in errors (`preferences.notifications.priceDropped`).
    public static func parse(json data: Data, field: String = "preferences") throws(ServiceError) -> PreferencesPatch {
        guard let value = JSONValue.parse(data) else { throw .invalidInput(field: field, message: "\(field) must be a JSON object.") }
        return try parse(value, field: field)
    }

    /// Reads a decoded JSON value.
    public static func parse(_ value: JSONValue, field: String = "preferences") throws(ServiceError) -> PreferencesPatch {
        guard case .object(let object) = value else { throw .invalidInput(field: field, message: "\(field) must be a JSON object.") }
        var patch = PreferencesPatch()
        for key in object.keys.sorted() {
            let path = "\(field).\(key)"
            let value = object[key] ?? .null
            switch key {
            case "theme": patch.theme = try enumeration(value, path, Preferences.Theme.self)
            case "priceDropThreshold": patch.priceDropThreshold = try enumeration(value, path, Preferences.PriceThreshold.self)
            case "priceIncreaseThreshold": patch.priceIncreaseThreshold = try enumeration(value, path, Preferences.PriceThreshold.self)
            case "timeZone":
                // null: none chosen (what an account that never set one stores).
                if case .null = value { continue }
                guard case .string(let name) = value else { throw .invalidInput(field: path, message: "\(path) must be a string or null.") }
                patch.timeZone = try UserInput.timeZone(name, field: path)
            case "lastHouseholdId":
                switch value {
                case .null: patch.lastHouseholdID = .some(nil)
                case .string(let text) where UUID(uuidString: text) != nil: patch.lastHouseholdID = UUID(uuidString: text)
                default: throw .invalidInput(field: path, message: "\(path) must be a UUID or null.")
                }
            case "notifications":
                guard case .object(let switches) = value else {
                    throw .invalidInput(field: path, message: "\(path) must be an object of booleans.")
                }
                for name in switches.keys.sorted() {
                    let switchPath = "\(path).\(name)"
                    guard case .bool(let on)? = switches[name] else {
                        throw .invalidInput(field: switchPath, message: "\(switchPath) must be true or false.")
                    }
                    if name == "enabled" {
                        patch.notificationsEnabled = on
                    } else if let type = Preferences.ChangeType(rawValue: name) {
                        patch.notifications[type] = on
                    } else if let kind = Preferences.NotificationSwitch(rawValue: name) {
                        patch.switches[kind] = on
                    } else {
                        let known = (["enabled"] + Preferences.ChangeType.allCases.map(\.rawValue) + Preferences.NotificationSwitch.allCases.map(\.rawValue))
                            .joined(separator: ", ")
                        throw .invalidInput(field: switchPath, message: "\(switchPath) is not a preference; known: \(known).")
                    }
                }
            case "quietHours":
                if case .null = value {
                    patch.quietHours = .some(nil)
                    break
                }
                guard case .object(let hours) = value, case .string(let from)? = hours["from"], case .string(let to)? = hours["to"],
                      hours.count == 2, let start = Preferences.QuietHours.minutes(from), let end = Preferences.QuietHours.minutes(to) else {
                    throw .invalidInput(field: path, message: "\(path) must be null or {\"from\": \"HH:MM\", \"to\": \"HH:MM\"}, such as 22:00 to 07:00.")
                }
                patch.quietHours = Preferences.QuietHours(from: start, to: end)
            default:
                let known = ["theme", "notifications", "priceDropThreshold", "priceIncreaseThreshold", "timeZone", "lastHouseholdId", "quietHours"]
                throw .invalidInput(
                    field: path, message: "\(UserInput.quoted(key)) is not a preference; known: \(known.joined(separator: ", ")).")
            }
        }
        return patch
    }

    private static func enumeration<E: RawRepresentable & CaseIterable>(_ value: JSONValue, _ path: String, _: E.Type) throws(ServiceError) -> E
    where E.RawValue == String {
        guard case .string(let text) = value, let result = E(rawValue: text) else {
            let names = E.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidInput(field: path, message: "\(path) must be one of \(names).")
        }
        return result
    }
}
