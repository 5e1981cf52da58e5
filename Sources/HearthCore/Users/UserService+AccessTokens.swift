import Foundation
import Logging
import PostgresNIO

extension UserService {
    /// Tokens begin so, then 43 random characters: 48 in all, where a session token has 43.
    public static let accessTokenPrefix = "hpat_"

    /// Whether `token` has an access token's shape (not whether it is one).
    public static func isAccessToken(_ token: String) -> Bool {
        token.hasPrefix(accessTokenPrefix) && token.utf8.count == accessTokenPrefix.utf8.count + 43
    }
    /// Most tokens one person may hold.
    public static let maximumAccessTokens = 50
    /// Days a token may live: 1 to 365, 90 unless asked.
    public static let accessTokenDays = 1...365
    public static let defaultAccessTokenDays = 90

    /// Makes a token for `userID`: shown this once, stored as SHA-256.
    public func createAccessToken(userID: UUID, name rawName: String, scopes: [AccessScope], expiresInDays: Int?) async throws -> CreatedAccessToken {
        let name = try UserInput.text(rawName, field: "name", maxLength: 100)
        guard !scopes.isEmpty else {
            throw ServiceError.invalidInput(field: "scopes", message: "scopes must name at least one of READ and WRITE.")
        }
        let days = expiresInDays ?? Self.defaultAccessTokenDays
        guard Self.accessTokenDays.contains(days) else {
            throw ServiceError.invalidInput(field: "expiresInDays", message: "expiresInDays must be from 1 to 365; \(days) is not.")
        }
        let now = clock.now
        let token = Self.accessTokenPrefix + SessionToken.generate()
        let record = AccessToken(id: UUID(), userID: userID, name: name, scopes: AccessScope.allCases.filter(scopes.contains),
                                 createdAt: now, expiresAt: now.addingTimeInterval(Double(days) * 86_400), lastUsedAt: nil)
        // One statement: the count and the insert see the same rows, so racing requests cannot pass the limit together.
        let rows = try await database.client.query("""
            INSERT INTO access_tokens (id, user_id, token_hash, name, scopes, created_at, expires_at)
            SELECT \(record.id), \(userID), \(Data(SessionToken.hash(token))), \(name), \(record.scopes.map(\.rawValue)), \(now), \(record.expiresAt)
            WHERE (SELECT count(*) FROM access_tokens WHERE user_id = \(userID)) < \(Self.maximumAccessTokens)
            RETURNING id
            """, logger: logger)
        var inserted = false
        for try await _ in rows.decode(UUID.self) { inserted = true }
        guard inserted else {
            throw ServiceError.invalidInput(field: "name", message: "You have \(Self.maximumAccessTokens) access tokens already; revoke one first.")
        }
        logger.info("access token created", metadata: ["user": "\(userID)", "token": "\(record.id)", "scopes": "\(record.scopes.map(\.rawValue))"])
        return CreatedAccessToken(token: token, accessToken: record)
    }

    /// A person's tokens, newest first (expired ones too, until revoked).
    public func accessTokens(userID: UUID) async throws -> [AccessToken] {
        let rows = try await database.client.query("""
            SELECT \(unescaped: Self.accessTokenColumns) FROM access_tokens WHERE user_id = \(userID) ORDER BY created_at DESC, id
            """, logger: logger)
        return try await rows.rows(as: AccessTokenRow.self).map(\.token)
    }

    /// Revokes one of the caller's tokens at once, on every instance; another person's (or none) is `notFound`.
    public func revokeAccessToken(id: UUID, userID: UUID) async throws -> AccessToken {
        let rows = try await database.client.query("""
            DELETE FROM access_tokens WHERE id = \(id) AND user_id = \(userID) RETURNING \(unescaped: Self.accessTokenColumns)
            """, logger: logger)
        guard let revoked = try await rows.rows(as: AccessTokenRow.self).first?.token else { throw ServiceError.notFound("Access token") }
        await forget(SessionCacheChange(session: id))
        logger.info("access token revoked", metadata: ["user": "\(userID)", "token": "\(id)"])
        return revoked
    }

    /// The person an access token's hash acts for (never as a server admin) and the token, if any.
    func accessTokenSignIn(key: Data) async throws -> SignedIn? {
        let rows = try await database.client.query("""
            SELECT t.id, t.user_id, t.name, t.scopes, t.created_at, t.expires_at, t.last_used_at,
                   u.id, u.email, u.display_name, u.avatar_url, u.is_admin, u.created_at
            FROM access_tokens t JOIN users u ON u.id = t.user_id
            WHERE t.token_hash = \(key)
            """, logger: logger).rows(as: AccessTokenSignInRow.self)
        guard let row = rows.first else { return nil }
        var user = row.user
        user.isAdmin = false
        let token = row.token
        let session = UserSession(id: token.id, userID: user.id, deviceName: "Access token “\(token.name)”", createdAt: token.createdAt,
                                  lastUsedAt: token.lastUsedAt ?? token.createdAt, expiresAt: token.expiresAt)
        return SignedIn(user: user, session: session, accessToken: token)
    }

    /// An access token's columns (an ``AccessTokenRow``).
    static let accessTokenColumns = "id, user_id, name, scopes, created_at, expires_at, last_used_at"
}
