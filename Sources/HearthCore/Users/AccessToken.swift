import Foundation

/// A personal access token: a program acting for its owner (an assistant, a script, home
/// automation) within its scopes, never beyond its owner's roles.
public struct AccessToken: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var userID: UUID
    public var name: String
    public var scopes: [AccessScope]
    public var createdAt: Date
    public var expiresAt: Date
    public var lastUsedAt: Date?

    public init(id: UUID, userID: UUID, name: String, scopes: [AccessScope], createdAt: Date, expiresAt: Date, lastUsedAt: Date?) {
        self.id = id
        self.userID = userID
        self.name = name
        self.scopes = scopes
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.lastUsedAt = lastUsedAt
    }

    /// Whether the token may do what `scope` covers.
    public func allows(_ scope: AccessScope) -> Bool { scopes.contains(scope) }
}

/// What a token may do. There is no ADMIN: a token never administers the server.
public enum AccessScope: String, Sendable, CaseIterable, Codable {
    /// Queries and subscriptions.
    case read = "READ"
    /// Tasks, events, labels, read marks and syncs.
    case write = "WRITE"
}

/// What `createAccessToken` returns: the token (shown this once, never stored) and its record.
public struct CreatedAccessToken: Sendable, Equatable {
    public var token: String
    public var accessToken: AccessToken

    public init(token: String, accessToken: AccessToken) {
        self.token = token
        self.accessToken = accessToken
    }
}
