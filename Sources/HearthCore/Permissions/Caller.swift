import Foundation

/// The person a service acts for: who they are, their households and roles, and the ability
/// built from them. Made where a request is authenticated (`HouseholdService.caller(for:)`,
/// from the households' cache) and handed to every service method, which checks it and writes
/// `userID` as the one who did it.
public struct Caller: Sendable {
    public let userID: UUID
    public let ability: Ability
    /// Household → the person's role there.
    public let roles: [UUID: HouseholdRole]
    /// Household → its name, for refusals people understand.
    public let householdNames: [UUID: String]
    /// The role rules the ability was built from (to tell which role would be allowed).
    public let permissions: RolePermissions
}

extension Caller {
    /// Refuses `action` on `subject` unless this person's ability allows it, with a denial worded
    /// for them (their role, the household, whom to ask for which role).
    public func authorize(_ action: String, _ subject: AbilitySubject) throws(ServiceError) {
        do {
            try ability.authorize(action, subject)
        } catch {
            throw ServiceError.denied(denial(error, subject: subject))
        }
    }
}
