import Foundation

/// One thing that happened in a household, for its members to read.
public struct ActivityEntry: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case householdCreated = "HOUSEHOLD_CREATED"
        case householdUpdated = "HOUSEHOLD_UPDATED"
        case memberAdded = "MEMBER_ADDED"
        case memberJoined = "MEMBER_JOINED"
        case memberLeft = "MEMBER_LEFT"
        case memberRemoved = "MEMBER_REMOVED"
        case memberRoleChanged = "MEMBER_ROLE_CHANGED"
        case ownershipTransferred = "OWNERSHIP_TRANSFERRED"
        case invitationCreated = "INVITATION_CREATED"
        case invitationRevoked = "INVITATION_REVOKED"

        /// Whether the entry is about one member (then a missing member is a deleted account).
        var isAboutMember: Bool {
            switch self {
            case .memberAdded, .memberJoined, .memberLeft, .memberRemoved, .memberRoleChanged, .ownershipTransferred: true
            case .householdCreated, .householdUpdated, .invitationCreated, .invitationRevoked: false
            }
        }
    }

    public var id: Int64
    public var householdID: UUID
    public var kind: Kind
    /// Who did it; ``PublicUser/deleted`` once their account is gone.
    public var actor: PublicUser
    /// Whom it is about, for member entries; ``PublicUser/deleted`` once their account is gone.
    public var member: PublicUser?
    public var role: HouseholdRole?
    public var previousRole: HouseholdRole?
    public var invitationID: UUID?
    public var createdAt: Date
}
