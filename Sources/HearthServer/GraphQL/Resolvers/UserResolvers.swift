import Foundation
import GraphQLEngine
import HearthCore

/// `schema.graphql`'s root fields for accounts, sessions, profile and preferences, mapped onto
/// ``UserService``; the types they answer with are in `Types/User+GraphQL.swift`.
enum UserResolvers {
    static func register(_ resolvers: inout Resolvers, users: UserService) {
        resolvers.field("Query.me") { input in
            // Null without a token; an access token's scopes are checked like any root field's.
            guard try input.context(GraphQLRequestContext.self).identity.signedIn != nil else { return .null }
            return .object(try input.signedIn().user)
        }
        resolvers.field("Query.sessions") { input in
            let signedIn = try input.signedIn()
            let sessions = try await users.sessions(userID: signedIn.user.id)
            return .objects(sessions)
        }
        resolvers.field("Query.searchUsers") { input in
            _ = try input.signedIn()
            guard case .string(let query)? = input[argument: "query"], case .int(let first)? = input[argument: "first"] else { return .null }
            let found = try await users.searchUsers(query: query, first: first)
            return .objects(found)
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
            let device = fields["deviceName"].stringValue ?? context.userAgent
            let payload = try await users.signUp(email: email, password: password, displayName: name, deviceName: device,
                                                 invitationCode: fields["invitationCode"].stringValue, clientAddress: context.clientAddress)
            return .object(payload)
        }
        resolvers.field("Mutation.signIn") { input in
            let context = try input.context(GraphQLRequestContext.self)
            guard case .string(let email)? = input[argument: "email"], case .string(let password)? = input[argument: "password"] else {
                return .null
            }
            let device = input[argument: "deviceName"].stringValue ?? context.userAgent
            let payload = try await users.signIn(email: email, password: password, deviceName: device, clientAddress: context.clientAddress)
            return .object(payload)
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
            let id = try input.id("id")
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
            return .object(user)
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
            let patch = try PreferencesPatch.parse(input[argument: "input"].json, field: "input")
            let updated = try await users.updatePreferences(userID: signedIn.user.id, patch)
            return .object(updated)
        }
        resolvers.field("Mutation.importPreferences") { input in
            let signedIn = try input.signedIn()
            let document = input[argument: "preferences"].json
            let updated = try await users.importPreferences(userID: signedIn.user.id, json: document)
            return .object(updated)
        }
    }
}
