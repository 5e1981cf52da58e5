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

/// A session's row (`id, user_id, device_name, created_at, last_used_at, expires_at`).
struct SessionRow: TypedRow {
    let session: UserSession

    init(_ row: inout RowCells) throws {
        session = UserSession(id: try row("id"), userID: try row("user_id"), deviceName: try row("device_name"), createdAt: try row("created_at"),
                              lastUsedAt: try row("last_used_at"), expiresAt: try row("expires_at"))
    }
}

/// A session token's sign-in: the session (a ``SessionRow``), then its person (a ``UserRow``).
struct SessionSignInRow: TypedRow {
    let session: UserSession
    let user: User

    init(_ row: inout RowCells) throws {
        session = try SessionRow(&row).session
        user = try UserRow(&row).user
    }
}

/// An access token's sign-in: the token (an ``AccessTokenRow``), then its person (a ``UserRow``).
struct AccessTokenSignInRow: TypedRow {
    let token: AccessToken
    let user: User

    init(_ row: inout RowCells) throws {
        token = try AccessTokenRow(&row).token
        user = try UserRow(&row).user
    }
}
