import Foundation

/// An invitation to join a household with a role; its code is shown once, when created.
public struct Invitation: Sendable, Equatable {
    public enum State: String, Sendable {
        case active = "ACTIVE", expired = "EXPIRED", usedUp = "USED_UP", revoked = "REVOKED"
    }

    public var id: UUID
    public var householdID: UUID
    public var role: HouseholdRole
    public var createdBy: PublicUser?
    public var createdAt: Date
    public var expiresAt: Date
    public var maxUses: Int
    public var uses: Int
    public var revokedAt: Date?

    public func state(at now: Date) -> State {
        if revokedAt != nil { return .revoked }
        if uses >= maxUses { return .usedUp }
        if expiresAt <= now { return .expired }
        return .active
    }

    var subject: AbilitySubject {
        .instance(type: "Invitation", fields: [
            "id": .string(id.lowercasedString),
            "householdId": .string(householdID.lowercasedString),
            "role": .string(role.rawValue),
        ])
    }
}

/// A new invitation with its code, shown this once.
public struct CreatedInvitation: Sendable {
    public var code: String
    public var invitation: Invitation
}
