import Foundation
import GraphQLEngine
import HearthCore

/// `schema.graphql`'s accounts, sessions, profile and preferences fields, mapped onto ``UserService``.
enum UserResolvers {
    /// Object types whose fields are plain data read by the default resolver.
    static let plainTypes: Set<String> = ["AuthPayload", "Me", "PublicUser", "Session", "Preferences", "NotificationPreferences"]

    static func register(_ resolvers: inout Resolvers, users: UserService) {
        resolvers.field("Query.me") { input in
            let context = try input.context(GraphQLRequestContext.self)
            return context.caller.signedIn.map { .value(UserValues.me($0.user)) } ?? .null
        }
        resolvers.field("Me.preferences") { input in
            guard let id = UserValues.sourceID(input) else { return .null }
            return .value(UserValues.preferences(try await users.preferences(userID: id)))
        }
        resolvers.field("Query.sessions") { input in
            let signedIn = try input.signedIn()
            let sessions = try await users.sessions(userID: signedIn.user.id)
            return .value(.list(sessions.map { UserValues.session($0, current: signedIn.session.id) }))
        }
        resolvers.field("Query.searchUsers") { input in
            _ = try input.signedIn()
            guard case .string(let query)? = input[argument: "query"], case .int(let first)? = input[argument: "first"] else { return .null }
            let found = try await users.searchUsers(query: query, first: first)
            return .value(.list(found.map(UserValues.publicUser)))
        }
        resolvers.field("Query.exportPreferences") { input in
            let signedIn = try input.signedIn()
            let preferences = try await users.preferences(userID: signedIn.user.id)
            return .value(try JSONParser.parse(Array(preferences.json)))
        }

        resolvers.field("Mutation.signUp") { input in
            let context = try input.context(GraphQLRequestContext.self)
            guard case .object(let fields)? = input[argument: "input"], case .string(let email)? = fields["email"],
                case .string(let password)? = fields["password"], case .string(let name)? = fields["displayName"]
            else { return .null }
            let device = UserValues.string(fields["deviceName"]) ?? context.userAgent
            let payload = try await users.signUp(email: email, password: password, displayName: name, deviceName: device,
                                                 invitationCode: UserValues.string(fields["invitationCode"]), clientAddress: context.clientAddress)
            return .value(UserValues.payload(payload))
        }
        resolvers.field("Mutation.signIn") { input in
            let context = try input.context(GraphQLRequestContext.self)
            guard case .string(let email)? = input[argument: "email"], case .string(let password)? = input[argument: "password"] else {
                return .null
            }
            let device = UserValues.string(input[argument: "deviceName"]) ?? context.userAgent
            let payload = try await users.signIn(email: email, password: password, deviceName: device, clientAddress: context.clientAddress)
            return .value(UserValues.payload(payload))
        }
        resolvers.field("Mutation.signOut") { input in
            let signedIn = try input.signedIn()
            try await users.signOut(sessionID: signedIn.session.id)
            return .bool(true)
        }
        resolvers.field("Mutation.signOutEverywhere") { input in
            let signedIn = try input.signedIn()
            return .int(try await users.signOutEverywhere(userID: signedIn.user.id))
        }
        resolvers.field("Mutation.revokeSession") { input in
            let signedIn = try input.signedIn()
            guard let id = UserValues.uuid(input[argument: "id"]) else { return .null }
            try await users.revokeSession(id: id, userID: signedIn.user.id)
            return .bool(true)
        }
        resolvers.field("Mutation.updateProfile") { input in
            let signedIn = try input.signedIn()
            let name: String?
            switch input[argument: "displayName"] {
            case .string(let text)?: name = text
            case .null?: throw ServiceError.invalidInput(field: "displayName", message: "displayName cannot be null.")
            default: name = nil
            }
            let avatar: String??
            switch input[argument: "avatarURL"] {
            case .string(let text)?: avatar = .some(text)
            case .null?: avatar = .some(nil)
            default: avatar = nil
            }
            let user = try await users.updateProfile(userID: signedIn.user.id, displayName: name, avatarURL: avatar)
            return .value(UserValues.me(user))
        }
        resolvers.field("Mutation.changePassword") { input in
            let signedIn = try input.signedIn()
            let clientAddress = try input.context(GraphQLRequestContext.self).clientAddress
            guard case .string(let current)? = input[argument: "currentPassword"], case .string(let new)? = input[argument: "newPassword"]
            else { return .null }
            try await users.changePassword(
                userID: signedIn.user.id, keepingSession: signedIn.session.id, current: current, new: new, clientAddress: clientAddress)
            return .bool(true)
        }
        resolvers.field("Mutation.deleteAccount") { input in
            let signedIn = try input.signedIn()
            guard case .string(let password)? = input[argument: "password"] else { return .null }
            let clientAddress = try input.context(GraphQLRequestContext.self).clientAddress
            try await users.deleteAccount(userID: signedIn.user.id, password: password, clientAddress: clientAddress)
            return .bool(true)
        }
        resolvers.field("Mutation.updatePreferences") { input in
            let signedIn = try input.signedIn()
            let patch = try PreferencesPatch.parse(UserValues.json(input[argument: "input"] ?? .null), field: "input")
            let updated = try await users.updatePreferences(userID: signedIn.user.id, patch)
            return .value(UserValues.preferences(updated))
        }
        resolvers.field("Mutation.importPreferences") { input in
            let signedIn = try input.signedIn()
            let document = UserValues.json(input[argument: "preferences"] ?? .null)
            let updated = try await users.importPreferences(userID: signedIn.user.id, json: document)
            return .value(UserValues.preferences(updated))
        }
    }

    /// A key of a plain-data parent.
    static func plainField(_ source: Resolved, _ name: String) -> GraphQLValue? {
        guard case .value(.object(let object)) = source else { return nil }
        return object[name]
    }
}
