import Foundation
import GraphQLEngine
import HearthCore

/// `schema.graphql`'s access-token fields mapped onto ``UserService``; the types they answer
/// with are in `Types/AccessToken+GraphQL.swift`.
enum AccessTokenResolvers {
    static func register(_ resolvers: inout Resolvers, users: UserService) {
        resolvers.field("Query.accessTokens") { input in
            .objects(try await users.accessTokens(userID: try input.signedIn().user.id))
        }
        resolvers.field("Mutation.createAccessToken") { input in
            let actor = try input.signedIn().user.id
            let fields = input[argument: "input"].objectValue
            return .object(try await users.createAccessToken(
                userID: actor, name: fields["name"].stringValue ?? "", scopes: (fields["scopes"].strings ?? []).compactMap(AccessScope.init(rawValue:)),
                expiresInDays: fields["expiresInDays"].intValue))
        }
        resolvers.field("Mutation.revokeAccessToken") { input in
            .object(try await users.revokeAccessToken(id: try input.id("id"), userID: try input.signedIn().user.id))
        }
    }
}
