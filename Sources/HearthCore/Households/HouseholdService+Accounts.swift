import Foundation
import PostgresNIO

extension HouseholdService: UserAccountHooks {
    /// Refuses while the person is the last owner of a household (naming it), else logs that
    /// they left each of their households; their rows go with the account.
    public func accountWillBeDeleted(userID: UUID, on connection: PostgresConnection) async throws {
        let rows = try await connection.query(
            """
            SELECT h.id, h.name, m.role FROM household_members m JOIN households h ON h.id = m.household_id
            WHERE m.user_id = \(userID) ORDER BY h.id FOR UPDATE OF h
            """, logger: logger)
        var memberships: [(UUID, String, String)] = []
        for try await row in rows.decode((UUID, String, String).self) { memberships.append(row) }
        for (household, name, role) in memberships {
            if role == HouseholdRole.owner.rawValue, try await !hasAnotherOwner(household, besides: userID, on: connection) {
                throw HouseholdError.conflict(
                    "You are the last owner of \"\(name)\": make another member an owner or delete the household before deleting your account.")
            }
            try await record(.memberLeft, household: household, actor: userID, member: userID,
                             previousRole: HouseholdRole(rawValue: role), on: connection)
        }
    }

    public func accountDeleted(userID: UUID) async {
        await forget(users: [userID])
    }
}
