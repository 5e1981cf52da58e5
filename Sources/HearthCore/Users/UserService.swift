import Foundation
import Logging
import PostgresNIO

/// Accounts, sessions, profiles and preferences (the users service).
///
/// Passwords are bcrypt hashes; session tokens are shown once and stored only as SHA-256.
/// Token lookups are cached by hash for ``UsersConfiguration/cacheTTL`` and dropped on every
/// change to the user or session, so a revoked token stops working at once on this instance.
public final class UserService: ServiceHealth {
    public let configuration: UsersConfiguration
    let database: Database
    let clock: any HearthClock
    let logger: Logger
    let hasher: PasswordHasher
    /// The households service's part in sign-up by invitation and in account deletion.
    let accountHooks: (any UserAccountHooks)?
    /// Signed-in lookups by token hash.
    let sessions: TTLCache<Data, SignedIn>
    /// Sessions are touched (expiry slid forward) at most this often, not on every request.
    static let touchInterval: TimeInterval = 60

    public init(database: Database, configuration: UsersConfiguration = UsersConfiguration(),
                clock: any HearthClock = SystemClock(), logger: Logger? = nil, accountHooks: (any UserAccountHooks)? = nil) {
        self.database = database
        self.accountHooks = accountHooks
        self.configuration = configuration
        self.clock = clock
        self.logger = logger ?? database.logger
        self.hasher = PasswordHasher(cost: configuration.bcryptCost)
        self.sessions = TTLCache(ttl: configuration.cacheTTL, clock: clock)
        database.bus.on(SessionCacheChange.topic) { [weak self] message in
            if let change = message.decode(SessionCacheChange.self) { self?.sessions.removeAll(where: change.matches) }
        }
        // Sessions ended while the listener was away were not heard of: start over.
        database.bus.onConnect { [weak self] in self?.sessions.removeAll() }
    }

    // MARK: Accounts

    /// Creates an account and signs it in, when the sign-up mode allows. With an invitation code
    /// (required when sign-up is invite-only) the account joins that household in the same
    /// transaction: an unusable code creates no account.
    /// Sign-ups are limited per client address (``UsersConfiguration/signUpsPerAddress``), counted
    /// before any hashing.
    public func signUp(email: String, password: String, displayName: String, deviceName: String?,
                       invitationCode: String? = nil, clientAddress: String? = nil) async throws -> AuthPayload {
        let code = invitationCode.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        switch configuration.signUpMode {
        case .open: break
        case .closed: throw ServiceError.signUpClosed(.closed)
        case .inviteOnly:
            guard code != nil, accountHooks != nil else { throw ServiceError.signUpClosed(.inviteOnly) }
        }
        try await beginSignUp(clientAddress: clientAddress)
        let user = try await createUser(email: email, password: password, displayName: displayName, isAdmin: false, invitationCode: code)
        logger.info("user signed up", metadata: ["user": "\(user.id)"])
        return try await openSession(for: user, deviceName: deviceName)
    }

    /// Creates an account whatever the sign-up mode (administrators, `hearth user create`).
    public func createUser(email: String, password: String, displayName: String, isAdmin: Bool,
                           invitationCode: String? = nil) async throws -> User {
        let email = try UserInput.email(email)
        let displayName = try UserInput.displayName(displayName)
        let password = try UserInput.password(password)
        let hash = try await hasher.hash(password)
        let now = clock.now
        let user = User(id: UUID(), email: email, displayName: displayName, avatarURL: nil, isAdmin: isAdmin, createdAt: now)
        let hooks = accountHooks
        do {
            try await database.transaction(logger: logger) { connection in
                try await connection.query(
                    """
                    INSERT INTO users (id, email, display_name, password_hash, is_admin, preferences, created_at, updated_at)
                    VALUES (\(user.id), \(email), \(displayName), \(hash), \(isAdmin), \(String(decoding: Preferences().json, as: UTF8.self))::jsonb, \(now), \(now))
                    """, logger: logger)
                if let invitationCode, let hooks {
                    _ = try await hooks.redeem(code: invitationCode, userID: user.id, on: connection)
                }
            }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw ServiceError.emailTaken
        }
        return user
    }

    public func user(id: UUID) async throws -> User? {
        try await Self.decodeUsers(try await database.client.query(
            "SELECT \(unescaped: Self.userColumns) FROM users WHERE id = \(id)", logger: logger)).first
    }

    public func user(email: String) async throws -> User? {
        let email = try UserInput.email(email)
        return try await Self.decodeUsers(try await database.client.query(
            "SELECT \(unescaped: Self.userColumns) FROM users WHERE email = \(email)", logger: logger)).first
    }

    /// Every account, oldest first (`hearth user list`).
    public func allUsers() async throws -> [User] {
        try await Self.decodeUsers(try await database.client.query(
            "SELECT \(unescaped: Self.userColumns) FROM users ORDER BY created_at, id", logger: logger))
    }

    /// Changes the display name and/or avatar (`.some(nil)` clears the avatar).
    public func updateProfile(userID: UUID, displayName: String?, avatarURL: String??) async throws -> User {
        let name = try displayName.map { name throws(ServiceError) in try UserInput.displayName(name) }
        let avatar: String?? = try avatarURL.map { url throws(ServiceError) in try UserInput.avatarURL(url) }
        let now = clock.now
        let rows = try await database.client.query(
            """
            UPDATE users SET display_name = COALESCE(\(name), display_name),
                avatar_url = CASE WHEN \(avatar != nil) THEN \(avatar ?? nil) ELSE avatar_url END, updated_at = \(now)
            WHERE id = \(userID)
            RETURNING \(unescaped: Self.userColumns)
            """, logger: logger)
        guard let user = try await Self.decodeUsers(rows).first else { throw ServiceError.notFound("User") }
        await forget(SessionCacheChange(user: userID))
        return user
    }

    /// Changes the password after checking the current one; every other session is signed out.
    /// Checks count toward the account's and the client address's password-attempt limits.
    public func changePassword(
        userID: UUID, keepingSession sessionID: UUID, current: String, new: String, revokingAccessTokens: Bool = true, clientAddress: String? = nil
    ) async throws {
        let new = try UserInput.password(new, field: "newPassword")
        guard let (email, stored) = try await passwordHash(userID: userID) else { throw ServiceError.notFound("User") }
        let attempt = try await beginPasswordAttempt(email: email, clientAddress: clientAddress, action: "change-password")
        guard try await hasher.verify(current, against: stored) else { throw ServiceError.wrongPassword(field: "currentPassword") }
        try await passwordAttemptSucceeded(attempt)
        let hash = try await hasher.hash(new)
        let now = clock.now
        try await database.transaction(logger: logger) { connection in
            try await connection.query(
                "UPDATE users SET password_hash = \(hash), updated_at = \(now) WHERE id = \(userID)", logger: logger)
            try await connection.query(
                "DELETE FROM user_sessions WHERE user_id = \(userID) AND id <> \(sessionID)", logger: logger)
            if revokingAccessTokens { try await Self.revokeCredentials(of: userID, on: connection, logger: logger) }
        }
        await forget(SessionCacheChange(user: userID, keeping: sessionID))
        logger.info(revokingAccessTokens ? "password changed; other sessions signed out, access tokens and calendar feeds revoked"
                        : "password changed; other sessions signed out", metadata: ["user": "\(userID)"])
    }

    /// Sets a new password without the old one (`hearth user reset-password`); every session ends,
    /// and every access token and calendar feed link is revoked.
    public func resetPassword(email: String, password: String) async throws -> User {
        let password = try UserInput.password(password)
        guard let user = try await user(email: email) else { throw ServiceError.notFound("User") }
        let hash = try await hasher.hash(password)
        let now = clock.now
        try await database.transaction(logger: logger) { connection in
            try await connection.query(
                "UPDATE users SET password_hash = \(hash), updated_at = \(now) WHERE id = \(user.id)", logger: logger)
            try await connection.query("DELETE FROM user_sessions WHERE user_id = \(user.id)", logger: logger)
            try await Self.revokeCredentials(of: user.id, on: connection, logger: logger)
        }
        await forget(SessionCacheChange(user: user.id))
        logger.info("password reset; every session signed out, access tokens and calendar feeds revoked", metadata: ["user": "\(user.id)"])
        return user
    }

    /// Makes a person an instance administrator, or not (`hearth user set-admin`).
    public func setAdmin(email: String, isAdmin: Bool) async throws -> User {
        let email = try UserInput.email(email)
        let rows = try await database.client.query(
            """
            UPDATE users SET is_admin = \(isAdmin), updated_at = \(clock.now) WHERE email = \(email)
            RETURNING \(unescaped: Self.userColumns)
            """, logger: logger)
        guard let user = try await Self.decodeUsers(rows).first else { throw ServiceError.notFound("User") }
        await forget(SessionCacheChange(user: user.id))
        return user
    }

    /// Deletes the account after checking the password; its sessions and memberships end with
    /// it (refused while the person is the last owner of a household), and the households'
    /// history keeps them as a deleted user.
    public func deleteAccount(userID: UUID, password: String, clientAddress: String? = nil) async throws {
        guard let (email, stored) = try await passwordHash(userID: userID) else { throw ServiceError.notFound("User") }
        let attempt = try await beginPasswordAttempt(email: email, clientAddress: clientAddress, action: "delete-account")
        guard try await hasher.verify(password, against: stored) else { throw ServiceError.wrongPassword(field: "password") }
        try await passwordAttemptSucceeded(attempt)
        let hooks = accountHooks
        try await database.transaction(logger: logger) { connection in
            try await hooks?.accountWillBeDeleted(userID: userID, on: connection)
            try await connection.query("DELETE FROM users WHERE id = \(userID)", logger: logger)
        }
        await hooks?.accountDeleted(userID: userID)
        await forget(SessionCacheChange(user: userID))
        logger.info("account deleted", metadata: ["user": "\(userID)"])
    }

    /// People whose display name starts with `query` (case-insensitively) or whose email is
    /// exactly `query`; public fields only, at most 20.
    public func searchUsers(query: String, first: Int) async throws -> [PublicUser] {
        let text = try UserInput.text(query, field: "query", maxLength: 80)
        guard (1...20).contains(first) else {
            throw ServiceError.invalidInput(field: "first", message: "first must be from 1 to 20; got \(first).")
        }
        let pattern = LikePattern.prefix(text.lowercased())
        let rows = try await database.client.query(
            """
            SELECT id, display_name, avatar_url FROM users
            WHERE lower(display_name) LIKE \(pattern) ESCAPE '\\' OR email = \(text.lowercased())
            ORDER BY lower(display_name), id LIMIT \(first)
            """, logger: logger)
        var found: [PublicUser] = []
        for (id, name, avatar) in try await rows.columns(("id", UUID.self), ("display_name", String.self), ("avatar_url", String?.self)) {
            found.append(PublicUser(id: id, displayName: name, avatarURL: avatar))
        }
        return found
    }

    // MARK: Preferences

    public func preferences(userID: UUID) async throws -> Preferences {
        let rows = try await database.client.query("SELECT preferences FROM users WHERE id = \(userID)", logger: logger)
        for try await json in rows.decode(JSONColumn.self) { return try Preferences.stored(json.data) }
        throw ServiceError.notFound("User")
    }

    /// Applies `patch` (validated as a whole before anything is written) and returns the result.
    /// A `lastHouseholdId` must name a household the person may read (else `notFound`).
    public func updatePreferences(userID: UUID, _ patch: PreferencesPatch) async throws -> Preferences {
        if case .some(.some(let householdID)) = patch.lastHouseholdID {
            guard let accountHooks else { throw ServiceError.notFound("Household") }
            try await accountHooks.requireReadableHousehold(householdID, userID: userID)
        }
        return try await database.transaction(logger: logger) { connection in
            let rows = try await connection.query(
                "SELECT preferences FROM users WHERE id = \(userID) FOR NO KEY UPDATE", logger: logger)
            var current: Preferences?
            for try await json in rows.decode(JSONColumn.self) { current = try Preferences.stored(json.data) }
            guard let current else { throw ServiceError.notFound("User") }
            let updated = try patch.applied(to: current)
            try await connection.query(
                """
                UPDATE users SET preferences = \(String(decoding: updated.json, as: UTF8.self))::jsonb, updated_at = \(clock.now)
                WHERE id = \(userID)
                """, logger: logger)
            return updated
        }
    }

    /// Reads an exported JSON document strictly (unknown keys refused) and applies it.
    public func importPreferences(userID: UUID, json: Data) async throws -> Preferences {
        try await updatePreferences(userID: userID, try PreferencesPatch.parse(json: json))
    }

    /// The same for a document already decoded.
    public func importPreferences(userID: UUID, json: JSONValue) async throws -> Preferences {
        try await updatePreferences(userID: userID, try PreferencesPatch.parse(json))
    }

    // MARK: Queries shared by the methods above

    /// A user's columns (a ``UserRow``).
    static let userColumns = "id, email, display_name, avatar_url, is_admin, created_at"

    static func decodeUsers(_ rows: PostgresRowSequence) async throws -> [User] {
        try await rows.rows(as: UserRow.self).map(\.user)
    }

    /// The account's email and password hash.
    func passwordHash(userID: UUID) async throws -> (email: String, hash: String)? {
        let rows = try await database.client.query("SELECT email, password_hash FROM users WHERE id = \(userID)", logger: logger)
        return try await rows.firstColumns(("email", String.self), ("password_hash", String.self)).map { (email: $0.0, hash: $0.1) }
    }

    /// Drops the cached sign-ins a committed write made stale, here and (over the event bus)
    /// in the other instances, so a session ended on one instance is refused by all.
    func forget(_ change: SessionCacheChange) async {
        sessions.removeAll(where: change.matches)
        await database.bus.publish(SessionCacheChange.topic, change)
    }

    // MARK: Health

    public var healthName: String { "users" }

    /// A round trip to the users table (how many people have accounts), with the session cache's size and hit rate.
    public func performHealthCheck() async -> ServiceHealthStatus {
        let started = ContinuousClock.now
        let checkedAt = Date()
        do {
            var details = cacheDetails
            details["people"] = .int(try await database.count("SELECT count(*) FROM users"))
            return ServiceHealthStatus(isHealthy: true, lastChecked: checkedAt, responseTime: ContinuousClock.now - started,
                                       details: details)
        } catch {
            return ServiceHealthStatus(
                isHealthy: false, lastChecked: checkedAt, errors: ["users table unreachable: \(ErrorText.oneLine(error))"],
                responseTime: ContinuousClock.now - started, details: cacheDetails)
        }
    }

    private var cacheDetails: [String: HealthDetail] {
        let statistics = sessions.statistics
        return ["sessionCacheSize": .int(statistics.count), "sessionCacheHitRate": .rate(statistics.hitRate)]
    }
}
