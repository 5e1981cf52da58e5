import Foundation
import GraphQLEngine
import HearthCore

/// `schema.graphql`'s access-token fields mapped onto ``UserService``; the types they answer
/// with are in `Types/AccessToken+GraphQL.swift`.
enum AccessTokenResolvers {
    /// `createAccessToken(input: AccessTokenInput!)`.
    private struct Create: Decodable {
        struct Token: Decodable { var name: String, scopes: [AccessScope], expiresInDays: Int? }
        var input: Token
    }

    static func register(_ resolvers: inout Resolvers, users: UserService) {
        resolvers.field("Query.accessTokens") { input in
            .objects(try await users.accessTokens(userID: try input.signedIn().user.id))
        }
        resolvers.field("Mutation.createAccessToken", arguments: Create.self) { input, arguments in
            let token = arguments.input
            return .object(try await users.createAccessToken(userID: try input.signedIn().user.id, name: token.name, scopes: token.scopes,
                                                             expiresInDays: token.expiresInDays))
        }
        resolvers.field("Mutation.revokeAccessToken", arguments: IDArgument.self) { input, arguments in
            .object(try await users.revokeAccessToken(id: arguments.id, userID: try input.signedIn().user.id))
        }
    }
}
