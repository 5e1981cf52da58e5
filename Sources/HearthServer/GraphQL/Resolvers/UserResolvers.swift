import Foundation
import GraphQLEngine
import HearthCore

/// `schema.graphql`'s root fields for accounts, sessions, profile and preferences, mapped onto
/// ``UserService``; the types they answer with are in `Types/User+GraphQL.swift`.
enum UserResolvers {
    private struct SearchUsers: Decodable { var query: String, first: Int }
    private struct SignUp: Decodable {
        struct Account: Decodable { var email: String, password: String, displayName: String, deviceName: String?, invitationCode: String? }
        var input: Account
    }
    private struct SignIn: Decodable { var email: String, password: String, deviceName: String? }
    private struct UpdateProfile: Decodable { var displayName: InputPatch<String>, avatarURL: InputPatch<String> }
    private struct ChangePassword: Decodable { var currentPassword: String, newPassword: String, revokeAccessTokens: Bool? }
    private struct DeleteAccount: Decodable { var password: String }
    private struct UpdatePreferences: Decodable { var input: GraphQLValue }
    private struct ImportPreferences: Decodable { var preferences: GraphQLValue }

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
        resolvers.field("Query.searchUsers", arguments: SearchUsers.self) { input, arguments in
            _ = try input.signedIn()
            return .objects(try await users.searchUsers(query: arguments.query, first: arguments.first))
        }
        resolvers.field("Query.exportPreferences") { input in
            let signedIn = try input.signedIn()
            let preferences = try await users.preferences(userID: signedIn.user.id)
            return .value(try JSONParser.parse(Array(preferences.json)))
        }

        resolvers.field("Mutation.signUp", arguments: SignUp.self) { input, arguments in
            let (context, account) = (try input.context(GraphQLRequestContext.self), arguments.input)
            let payload = try await users.signUp(email: account.email, password: account.password, displayName: account.displayName,
                                                 deviceName: account.deviceName ?? context.userAgent, invitationCode: account.invitationCode,
                                                 clientAddress: context.clientAddress)
            return .object(payload)
        }
        resolvers.field("Mutation.signIn", arguments: SignIn.self) { input, arguments in
            let context = try input.context(GraphQLRequestContext.self)
            let payload = try await users.signIn(email: arguments.email, password: arguments.password,
                                                 deviceName: arguments.deviceName ?? context.userAgent, clientAddress: context.clientAddress)
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
        resolvers.field("Mutation.revokeSession", arguments: IDArgument.self) { input, arguments in
            try await users.revokeSession(id: arguments.id, userID: try input.signedIn().user.id)
            return .bool(true)
        }
        resolvers.field("Mutation.updateProfile", arguments: UpdateProfile.self) { input, arguments in
            let signedIn = try input.signedIn()
            let user = try await users.updateProfile(userID: signedIn.user.id, displayName: try arguments.displayName.notNull("displayName"),
                                                     avatarURL: arguments.avatarURL.change)
            return .object(user)
        }
        resolvers.field("Mutation.changePassword", arguments: ChangePassword.self) { input, arguments in
            let signedIn = try input.signedIn()
            let clientAddress = try input.context(GraphQLRequestContext.self).clientAddress
            try await users.changePassword(userID: signedIn.user.id, keepingSession: signedIn.session.id, current: arguments.currentPassword,
                                           new: arguments.newPassword, revokingAccessTokens: arguments.revokeAccessTokens ?? true,
                                           clientAddress: clientAddress)
            return .bool(true)
        }
        resolvers.field("Mutation.deleteAccount", arguments: DeleteAccount.self) { input, arguments in
            let signedIn = try input.signedIn()
            let clientAddress = try input.context(GraphQLRequestContext.self).clientAddress
            try await users.deleteAccount(userID: signedIn.user.id, password: arguments.password, clientAddress: clientAddress)
            return .bool(true)
        }
        // Preferences arrive as documents the service validates key by key (naming what it refuses).
        resolvers.field("Mutation.updatePreferences", arguments: UpdatePreferences.self) { input, arguments in
            let patch = try PreferencesPatch.parse(arguments.input.json, field: "input")
            return .object(try await users.updatePreferences(userID: try input.signedIn().user.id, patch))
        }
        resolvers.field("Mutation.importPreferences", arguments: ImportPreferences.self) { input, arguments in
            .object(try await users.importPreferences(userID: try input.signedIn().user.id, json: arguments.preferences.json))
        }
    }
}
