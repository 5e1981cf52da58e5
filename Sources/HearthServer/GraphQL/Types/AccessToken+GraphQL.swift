import Foundation
import GraphQLEngine
import HearthCore

extension AccessToken {
    /// `AccessToken` and `CreatedAccessToken`.
    static func registerGraphQL(_ resolvers: inout Resolvers) {
        resolvers.object("AccessToken", AccessToken.self) { token in
            token.field("id") { .id($0.id) }
            token.field("name") { .string($0.name) }
            token.field("scopes") { .strings($0.scopes.map(\.rawValue)) }
            token.field("createdAt") { .date($0.createdAt) }
            token.field("expiresAt") { .date($0.expiresAt) }
            token.field("lastUsedAt") { .date($0.lastUsedAt) }
        }
        resolvers.object("CreatedAccessToken", CreatedAccessToken.self) { created in
            created.field("token") { .string($0.token) }
            created.field("accessToken") { .object($0.accessToken) }
        }
    }
}
