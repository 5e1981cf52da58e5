import Foundation
import PostgresNIO

/// A row of ``UserService/userColumns``.
struct UserRow: TypedRow {
    let user: User

    init(_ row: inout RowCells) throws {
        user = User(id: try row("id"), email: try row("email"), displayName: try row("display_name"), avatarURL: try row("avatar_url"),
                    isAdmin: try row("is_admin"), createdAt: try row("created_at"))
    }
}

/// A row of ``UserService/accessTokenColumns``; a scope this Hearth does not know is left out.
struct AccessTokenRow: TypedRow {
    let token: AccessToken

    init(_ row: inout RowCells) throws {
        token = AccessToken(id: try row("id"), userID: try row("user_id"), name: try row("name"),
                            scopes: try row("scopes", as: [String].self).compactMap(AccessScope.init(rawValue:)),
                            createdAt: try row("created_at"), expiresAt: try row("expires_at"), lastUsedAt: try row("last_used_at"))
    }
}
