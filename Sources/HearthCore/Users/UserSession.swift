import Foundation

/// One signed-in device: what `sessions` lists and `revokeSession` ends.
public struct UserSession: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var userID: UUID
    /// What the client called itself, or its User-Agent.
    public var deviceName: String
    public var createdAt: Date
    public var lastUsedAt: Date
    /// Slides forward with use; the token stops working after it.
    public var expiresAt: Date

    public init(id: UUID, userID: UUID, deviceName: String, createdAt: Date, lastUsedAt: Date, expiresAt: Date) {
        self.id = id
        self.userID = userID
        self.deviceName = deviceName
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.expiresAt = expiresAt
    }
}

/// A request's proof of sign-in: the person and the session its token belongs to. For a
/// personal access token, `accessToken` is that token and `session` stands for it (its id is
/// the token's, so ending it drops it from every instance's cache like a session).
public struct SignedIn: Sendable, Equatable {
    public var user: User
    public var session: UserSession
    public var accessToken: AccessToken?

    public init(user: User, session: UserSession, accessToken: AccessToken? = nil) {
        self.user = user
        self.session = session
        self.accessToken = accessToken
    }
}

/// What signing up or in returns: the token (shown this once, never stored), when it expires
/// unless used, and the person.
public struct AuthPayload: Sendable, Equatable {
    public var token: String
    public var expiresAt: Date
    public var user: User
    public var sessionID: UUID

    public init(token: String, expiresAt: Date, user: User, sessionID: UUID) {
        self.token = token
        self.expiresAt = expiresAt
        self.user = user
        self.sessionID = sessionID
    }
}
