import Foundation

/// A person with an account on this installation, as the service hands it out (never a row).
public struct User: Sendable, Equatable, Identifiable {
    public var id: UUID
    /// Trimmed and lower-cased; unique.
    public var email: String
    public var displayName: String
    public var avatarURL: String?
    /// Instance administrators read `/admin/health` and `Query.health`.
    public var isAdmin: Bool
    public var createdAt: Date

    public init(id: UUID, email: String, displayName: String, avatarURL: String?, isAdmin: Bool, createdAt: Date) {
        self.id = id
        self.email = email
        self.displayName = displayName
        self.avatarURL = avatarURL
        self.isAdmin = isAdmin
        self.createdAt = createdAt
    }

    /// What other people may see of this person.
    public var publicProfile: PublicUser {
        PublicUser(id: id, displayName: displayName, avatarURL: avatarURL)
    }
}

/// The fields of a person anyone signed in may see (search results, household members).
public struct PublicUser: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var displayName: String
    public var avatarURL: String?

    public init(id: UUID, displayName: String, avatarURL: String?) {
        self.id = id
        self.displayName = displayName
        self.avatarURL = avatarURL
    }
}
