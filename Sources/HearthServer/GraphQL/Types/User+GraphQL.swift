import Foundation
import GraphQLEngine
import HearthCore

extension User {
    /// `Me` (the person themselves: signed in, or just signed up or in, so its id is the actor),
    /// `PublicUser`, `Session` and `AuthPayload`.
    static func registerGraphQL(_ resolvers: inout Resolvers, services: HearthServices) {
        let (users, households) = (services.users, services.households)
        resolvers.object("Me", User.self) { me in
            me.field("id") { .id($0.id) }
            me.field("email") { .string($0.email) }
            me.field("displayName") { .string($0.displayName) }
            me.field("avatarURL") { .string(orNull: $0.avatarURL) }
            me.field("isAdmin") { .bool($0.isAdmin) }
            me.field("createdAt") { .date($0.createdAt) }
            me.resolve("preferences") { user, _ in .object(try await users.preferences(userID: user.id)) }
            // The user's own rules and households (also right after signUp, before any token is sent).
            me.resolve("permissions") { user, _ in
                .value(GraphQLValue(try await households.caller(for: user.id).ability.packedRules))
            }
            me.resolve("currentHousehold") { user, _ in
                guard let id = try await users.preferences(userID: user.id).lastHouseholdID else { return .null }
                // A household the person has left (or that is gone) is simply no current household.
                return .optional(try? await households.household(try await households.caller(for: user.id), id: id))
            }
        }
        resolvers.object("PublicUser", PublicUser.self) { user in
            user.field("id") { .id($0.id) }
            user.field("displayName") { .string($0.displayName) }
            user.field("avatarURL") { .string(orNull: $0.avatarURL) }
        }
        resolvers.object("Session", UserSession.self) { session in
            session.field("id") { .id($0.id) }
            session.field("deviceName") { .string($0.deviceName) }
            session.field("createdAt") { .date($0.createdAt) }
            session.field("lastUsedAt") { .date($0.lastUsedAt) }
            session.field("expiresAt") { .date($0.expiresAt) }
            session.resolve("current") { parent, input in .bool(try input.signedIn().session.id == parent.id) }
        }
        resolvers.object("AuthPayload", AuthPayload.self) { payload in
            payload.field("token") { .string($0.token) }
            payload.field("expiresAt") { .date($0.expiresAt) }
            payload.field("user") { .object($0.user) }
        }
    }
}

extension Preferences {
    /// `Preferences` and `NotificationPreferences` (whose parent is the same value).
    static func registerGraphQL(_ resolvers: inout Resolvers) {
        resolvers.object("Preferences", Preferences.self) { preferences in
            preferences.field("theme") { .enumeration($0.theme) }
            preferences.field("notifications") { .object($0) }
            preferences.field("priceDropThreshold") { .enumeration($0.priceDropThreshold) }
            preferences.field("priceIncreaseThreshold") { .enumeration($0.priceIncreaseThreshold) }
            preferences.field("timeZone") { .string(orNull: $0.timeZone) }
            preferences.field("lastHouseholdId") { .id($0.lastHouseholdID) }
            preferences.field("quietHours") { $0.quietHours.map { .object($0) } ?? .null }
        }
        resolvers.object("QuietHours", Preferences.QuietHours.self) { hours in
            hours.field("from") { .string(Preferences.QuietHours.text($0.from)) }
            hours.field("to") { .string(Preferences.QuietHours.text($0.to)) }
        }
        resolvers.object("NotificationPreferences", Preferences.self) { notifications in
            notifications.field("enabled") { .bool($0.notificationsEnabled) }
            for type in Preferences.ChangeType.allCases {
                notifications.field(type.rawValue) { .bool($0.notifications[type, default: true]) }
            }
            for name in Preferences.NotificationSwitch.allCases {
                notifications.field(name.rawValue) { .bool($0.switches[name, default: true]) }
            }
        }
    }
}
