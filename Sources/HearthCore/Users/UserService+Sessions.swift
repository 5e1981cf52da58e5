import Foundation
import Logging
import PostgresNIO

extension UserService {
    /// Signs in with email and password. A wrong email and a wrong password answer the same
    /// error after the same bcrypt work; attempts are limited per email and per client address,
    /// counted before any hashing.
    public func signIn(email rawEmail: String, password: String, deviceName: String?, clientAddress: String?) async throws -> AuthPayload {
        // A malformed email cannot have an account: the generic answer, after the same work.
        let email = (try? UserInput.email(rawEmail)) ?? rawEmail.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let attempt = try await beginPasswordAttempt(email: email, clientAddress: clientAddress, action: "sign-in")
        let rows = try await database.client.query(
            """
            SELECT \(unescaped: Self.userColumns), password_hash FROM users WHERE email = \(email)
            """, logger: logger).rows(as: UserRow.self, then: "password_hash", String.self)
        guard let (row, hash) = rows.first else {
            try await hasher.spendVerificationTime(password)
            throw ServiceError.invalidCredentials
        }
        guard try await hasher.verify(password, against: hash) else {
            logger.info("sign-in failed: wrong password", metadata: ["user": "\(row.user.id)"])
            throw ServiceError.invalidCredentials
        }
        // Success clears the email's failures (the address keeps its others: it may be trying other emails).
        try await database.client.query(
            "DELETE FROM sign_in_failures WHERE scope = 'email' AND key = \(email)", logger: logger)
        try await passwordAttemptSucceeded(attempt)
        return try await openSession(for: row.user, deviceName: deviceName)
    }

    /// Starts a session for `user` and returns its token, shown this once.
    func openSession(for user: User, deviceName: String?) async throws -> AuthPayload {
        let token = SessionToken.generate()
        let now = clock.now
        let session = UserSession(
            id: UUID(), userID: user.id, deviceName: UserInput.deviceName(deviceName), createdAt: now, lastUsedAt: now,
            expiresAt: now.addingTimeInterval(configuration.sessionLifetime))
        try await database.client.query(
            """
            INSERT INTO user_sessions (id, user_id, token_hash, device_name, created_at, last_used_at, expires_at)
            VALUES (\(session.id), \(user.id), \(Data(SessionToken.hash(token))), \(session.deviceName), \(now), \(now), \(session.expiresAt))
            """, logger: logger)
        logger.info("session opened", metadata: ["user": "\(user.id)", "session": "\(session.id)"])
        return AuthPayload(token: token, expiresAt: session.expiresAt, user: user, sessionID: session.id)
    }

    /// The person and session (or access token) a token belongs to, or nil when it belongs to
    /// none that is live (unknown, expired or revoked). Each use slides a session's expiry forward
    /// and records when a token was last used, at most once a ``touchInterval``.
    public func authenticate(token: String) async throws -> SignedIn? {
        let key = Data(SessionToken.hash(token))
        let isAccessToken = Self.isAccessToken(token)
        let now = clock.now
        let ticket = sessions.beginRead()
        var loaded = sessions.value(for: key)
        if loaded == nil { loaded = try await isAccessToken ? accessTokenSignIn(key: key) : sessionSignIn(key: key) }
        guard var found = loaded else { return nil }
        guard found.session.expiresAt > now else {
            sessions.remove(key)
            // An expired access token stays listed until revoked; an expired session goes.
            if !isAccessToken { try await database.client.query("DELETE FROM user_sessions WHERE id = \(found.session.id)", logger: logger) }
            return nil
        }
        let neverUsed = found.accessToken.map { $0.lastUsedAt == nil } ?? false
        if neverUsed || now.timeIntervalSince(found.session.lastUsedAt) >= Self.touchInterval {
            // Revoked by another instance since it was cached: the row is gone.
            guard try await touch(&found, at: now) else {
                sessions.remove(key)
                return nil
            }
        }
        sessions.store(found, for: key, readSince: ticket)
        return found
    }

    /// The person and live-or-expired session of a session token's hash, if any.
    private func sessionSignIn(key: Data) async throws -> SignedIn? {
        let rows = try await database.client.query(
            """
            SELECT s.id, s.user_id, s.device_name, s.created_at, s.last_used_at, s.expires_at,
                   u.id, u.email, u.display_name, u.avatar_url, u.is_admin, u.created_at
            FROM user_sessions s JOIN users u ON u.id = s.user_id
            WHERE s.token_hash = \(key)
            """, logger: logger).rows(as: SessionSignInRow.self)
        return rows.first.map { SignedIn(user: $0.user, session: $0.session) }
    }

    /// Records a use: a session's expiry slides forward, a token's last use is noted. False when
    /// the row is gone.
    private func touch(_ signedIn: inout SignedIn, at now: Date) async throws -> Bool {
        let rows: PostgresRowSequence
        if signedIn.accessToken != nil {
            rows = try await database.client.query(
                "UPDATE access_tokens SET last_used_at = \(now) WHERE id = \(signedIn.session.id) RETURNING id", logger: logger)
            signedIn.accessToken?.lastUsedAt = now
        } else {
            signedIn.session.expiresAt = now.addingTimeInterval(configuration.sessionLifetime)
            rows = try await database.client.query("""
                UPDATE user_sessions SET last_used_at = \(now), expires_at = \(signedIn.session.expiresAt)
                WHERE id = \(signedIn.session.id) RETURNING id
                """, logger: logger)
        }
        signedIn.session.lastUsedAt = now
        for try await _ in rows.decode(UUID.self) { return true }
        return false
    }

    /// Ends one session (`signOut`).
    public func signOut(sessionID: UUID) async throws {
        try await database.client.query("DELETE FROM user_sessions WHERE id = \(sessionID)", logger: logger)
        await forget(SessionCacheChange(session: sessionID))
        logger.info("signed out", metadata: ["session": "\(sessionID)"])
    }

    /// Ends every session of a person (`signOutEverywhere`); returns how many ended.
    @discardableResult
    public func signOutEverywhere(userID: UUID) async throws -> Int {
        let count = try await database.transaction(logger: logger) { connection in
            let rows = try await connection.query("DELETE FROM user_sessions WHERE user_id = \(userID) RETURNING id", logger: logger)
            var count = 0
            for try await _ in rows.decode(UUID.self) { count += 1 }
            try await Self.revokeCredentials(of: userID, on: connection, logger: logger)
            return count
        }
        await forget(SessionCacheChange(user: userID))
        logger.info("signed out everywhere; access tokens and calendar feeds revoked", metadata: ["user": "\(userID)", "sessions": "\(count)"])
        return count
    }

    /// Revokes what lets apps in without a session — access tokens (CalDAV, MCP) and calendar
    /// feed links — in the caller's transaction; the caller tells every instance's cache.
    static func revokeCredentials(of userID: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("DELETE FROM access_tokens WHERE user_id = \(userID)", logger: logger)
        try await connection.query("DELETE FROM calendar_feeds WHERE user_id = \(userID)", logger: logger)
    }

    /// A person's live sessions, most recently used first.
    public func sessions(userID: UUID) async throws -> [UserSession] {
        let rows = try await database.client.query(
            """
            SELECT id, user_id, device_name, created_at, last_used_at, expires_at FROM user_sessions
            WHERE user_id = \(userID) AND expires_at > \(clock.now) ORDER BY last_used_at DESC, id
            """, logger: logger)
        return try await rows.rows(as: SessionRow.self).map(\.session)
    }

    /// Ends one of the caller's own sessions; another person's (or none) is `notFound`.
    public func revokeSession(id: UUID, userID: UUID) async throws {
        let rows = try await database.client.query(
            "DELETE FROM user_sessions WHERE id = \(id) AND user_id = \(userID) RETURNING id", logger: logger)
        var removed = false
        for try await _ in rows.decode(UUID.self) { removed = true }
        guard removed else { throw ServiceError.notFound("Session") }
        await forget(SessionCacheChange(session: id))
        logger.info("session revoked", metadata: ["user": "\(userID)", "session": "\(id)"])
    }

    // MARK: Password attempts

    /// One password check in progress: the rows recorded for it, to clear when it succeeds.
    struct PasswordAttempt {
        var keys: [(scope: String, key: String)]
        var at: Date
    }

    /// Records a password check for the account's email and the client's address before any
    /// hashing, or refuses it (`rateLimited`) when either already has `signInAttempts` in the
    /// window. One transaction takes each key's advisory lock (in a fixed order), counts and
    /// inserts, so concurrent attempts cannot slip past the limit. Attempts stay counted as
    /// failures unless the check succeeds.
    func beginPasswordAttempt(email: String, clientAddress: String?, action: String) async throws -> PasswordAttempt {
        var keys = [(scope: "email", key: email)]
        if let clientAddress { keys.append((scope: "address", key: clientAddress)) }
        return try await recordAttempt(keys: keys, limit: configuration.signInAttempts, action: action, refusal: ServiceError.tooManyPasswordAttempts)
    }

    /// Records one sign-up for the client's address before its password is hashed, or refuses it
    /// (`tooManySignUps`) past `signUpsPerAddress` in the window; sign-ups stay counted, made or not.
    func beginSignUp(clientAddress: String?) async throws {
        guard let clientAddress else { return }
        _ = try await recordAttempt(
            keys: [(scope: "sign-up", key: clientAddress)], limit: configuration.signUpsPerAddress, action: "sign-up",
            refusal: ServiceError.tooManySignUps)
    }

    /// Counts and records one attempt under each key (``AttemptLimiter``) within the sign-in window.
    private func recordAttempt(
        keys: [(scope: String, key: String)], limit attempts: Int, action: String, refusal: (_ retryAfter: Int) -> ServiceError
    ) async throws -> PasswordAttempt {
        let at = try await AttemptLimiter(database: database, clock: clock, logger: logger)
            .record(keys: keys, limit: attempts, window: configuration.signInWindow, action: action, refusal: refusal)
        return PasswordAttempt(keys: keys, at: at)
    }

    /// A check that succeeded is not a failure: the rows it recorded go (one per key).
    func passwordAttemptSucceeded(_ attempt: PasswordAttempt) async throws {
        for (scope, key) in attempt.keys {
            try await database.client.query(
                """
                DELETE FROM sign_in_failures WHERE ctid IN (
                    SELECT ctid FROM sign_in_failures WHERE scope = \(scope) AND key = \(key) AND failed_at = \(attempt.at) LIMIT 1)
                """, logger: logger)
        }
    }
}
