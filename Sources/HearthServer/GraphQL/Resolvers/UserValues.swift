import Foundation
import GraphQLEngine
import HearthCore

/// The users service's DTOs as the plain data of their schema types (read by the default resolver).
enum UserValues {
    static func me(_ user: User) -> GraphQLValue {
        [
            "id": .string(uuid(user.id)), "email": .string(user.email), "displayName": .string(user.displayName),
            "avatarURL": user.avatarURL.map(GraphQLValue.string) ?? .null, "isAdmin": .bool(user.isAdmin),
            "createdAt": .string(DateTimeScalar.string(from: user.createdAt)),
        ]
    }

    static func publicUser(_ user: PublicUser) -> GraphQLValue {
        ["id": .string(uuid(user.id)), "displayName": .string(user.displayName), "avatarURL": user.avatarURL.map(GraphQLValue.string) ?? .null]
    }

    static func session(_ session: UserSession, current: UUID?) -> GraphQLValue {
        [
            "id": .string(uuid(session.id)), "deviceName": .string(session.deviceName),
            "createdAt": .string(DateTimeScalar.string(from: session.createdAt)),
            "lastUsedAt": .string(DateTimeScalar.string(from: session.lastUsedAt)),
            "expiresAt": .string(DateTimeScalar.string(from: session.expiresAt)), "current": .bool(session.id == current),
        ]
    }

    static func payload(_ payload: AuthPayload) -> GraphQLValue {
        ["token": .string(payload.token), "expiresAt": .string(DateTimeScalar.string(from: payload.expiresAt)), "user": me(payload.user)]
    }

    static func preferences(_ preferences: Preferences) -> GraphQLValue {
        var notifications = GraphQLObject([(key: "enabled", value: .bool(preferences.notificationsEnabled))])
        for type in Preferences.ChangeType.allCases {
            notifications[type.rawValue] = .bool(preferences.notifications[type, default: true])
        }
        return [
            "theme": .string(preferences.theme.rawValue), "notifications": .object(notifications),
            "priceDropThreshold": .string(preferences.priceDropThreshold.rawValue),
            "priceIncreaseThreshold": .string(preferences.priceIncreaseThreshold.rawValue),
            "timeZone": .string(preferences.timeZone), "lastHouseholdId": preferences.lastHouseholdID.map { .string(uuid($0)) } ?? .null,
        ]
    }

    static func uuid(_ id: UUID) -> String { id.lowercasedString }

    /// A string argument or input field, nil when absent or null.
    static func string(_ value: GraphQLValue?) -> String? {
        guard case .string(let text)? = value else { return nil }
        return text
    }

    /// A Boolean argument; false when absent or null.
    static func flag(_ value: GraphQLValue?) -> Bool {
        if case .bool(true)? = value { return true }
        return false
    }

    /// The `id` of a plain-data parent (a `Me`, a `Household`) as a Foundation UUID.
    static func sourceID(_ input: FieldInput) -> UUID? {
        uuid(UserResolvers.plainField(input.source, "id"))
    }

    /// A `UUID` argument (already checked by the scalar) as a Foundation UUID.
    static func uuid(_ value: GraphQLValue?) -> UUID? {
        guard case .string(let text)? = value else { return nil }
        return UUID(uuidString: text)
    }

    /// A GraphQL value (an input object, a `JSON` argument) as the JSON the services validate.
    static func json(_ value: GraphQLValue) -> JSONValue {
        switch value {
        case .null: .null
        case .bool(let bool): .bool(bool)
        case .int(let int): .number(Double(int))
        case .float(let double): .number(double)
        case .string(let string): .string(string)
        case .list(let items): .array(items.map(json))
        case .object(let object): .object(Dictionary(object.map { ($0.key, json($0.value)) }, uniquingKeysWith: { _, last in last }))
        }
    }

    /// Service JSON as a GraphQL value (for `JSON` results); integral numbers become Ints.
    static func graphQLValue(_ value: JSONValue) -> GraphQLValue {
        switch value {
        case .null: .null
        case .bool(let bool): .bool(bool)
        case .number(let number):
            number == number.rounded() && abs(number) < 9_007_199_254_740_992 ? .int(Int(number)) : .float(number)
        case .string(let string): .string(string)
        case .array(let items): .list(items.map(graphQLValue))
        case .object(let members): .object(GraphQLObject(members.keys.sorted().map { (key: $0, value: graphQLValue(members[$0] ?? .null)) }))
        }
    }
}
