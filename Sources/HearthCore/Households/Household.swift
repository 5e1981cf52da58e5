import Foundation

/// A household: people sharing stores, tasks and events.
public struct Household: Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var description: String
    public var timeZone: String
    public var createdAt: Date
    public var updatedAt: Date
    /// Grows with every change of the record (for sync).
    public var version: Int = 0

    /// The household as a permission subject.
    var subject: AbilitySubject { Self.subject(id) }

    /// A household as a permission subject: `id`, and `householdId` (the same), so rules on
    /// `all` things of a household cover the household itself.
    static func subject(_ id: UUID) -> AbilitySubject {
        let id = JSONValue.string(id.lowercasedString)
        return .instance(type: "Household", fields: ["id": id, "householdId": id])
    }
}

/// One person's place in a household.
public struct HouseholdMember: Sendable, Equatable {
    public var householdID: UUID
    public var user: PublicUser
    public var role: HouseholdRole
    public var joinedAt: Date
    /// Grows with every change of the record (for sync).
    public var version: Int = 0
    /// Away until then: rotations pass over them meanwhile (nil: at home).
    public var awayUntil: Date?

    static func subject(householdID: UUID, userID: UUID, role: HouseholdRole) -> AbilitySubject {
        .instance(type: "Member", fields: [
            "householdId": .string(householdID.lowercasedString),
            "userId": .string(userID.lowercasedString),
            "role": .string(role.rawValue),
        ])
    }
}

extension PublicUser {
    /// Who did something when their account has since been deleted.
    public static let deleted = PublicUser(id: .zero, displayName: "Deleted user", avatarURL: nil)
}
