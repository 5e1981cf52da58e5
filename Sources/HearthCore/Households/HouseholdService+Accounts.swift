import Foundation
import PostgresNIO

extension HouseholdService: UserAccountHooks {
    /// Refuses while the person is the last owner of a household (naming it), else logs that
    /// they left each of their households; their rows go with the account.
    public func accountWillBeDeleted(userID: UUID, on connection: PostgresConnection) async throws {
        let rows = try await connection.query(
            """
            SELECT h.id, h.name, m.role FROM household_members m JOIN households h ON h.id = m.household_id
            WHERE m.user_id = \(userID) ORDER BY h.id FOR NO KEY UPDATE OF h
            """, logger: logger)
        let memberships = try await rows.columns(("id", UUID.self), ("name", String.self), ("role", String.self))
        for (household, name, role) in memberships {
            if role == HouseholdRole.owner.rawValue, try await !hasAnotherOwner(household, besides: userID, on: connection) {
                throw ServiceError.conflict(
                    "You are the last owner of \"\(name)\": make another member an owner or delete the household before deleting your account.")
            }
            try await record(.memberLeft, household: household, by: userID, member: userID,
                             previousRole: HouseholdRole(rawValue: role), on: connection)
        }
    }

    public func accountDeleted(userID: UUID) async {
        await forget(users: [userID])
    }

    public func requireReadableHousehold(_ householdID: UUID, userID: UUID) async throws {
        _ = try await readableHousehold(caller(for: userID), householdID)
    }

    /// Makes `householdID` the person's current household (preferences' `lastHouseholdId`) when
    /// they have none, or only one they are no longer a member of: the first household someone
    /// creates or joins is where their apps open. Runs in the joining transaction.
    func makeCurrentIfNone(_ householdID: UUID, userID: UUID, on connection: PostgresConnection) async throws {
        try await connection.query(
            """
            UPDATE users SET preferences = jsonb_set(preferences, '{lastHouseholdId}', to_jsonb(\(householdID.lowercasedString)::text))
            WHERE id = \(userID) AND NOT EXISTS (
                SELECT 1 FROM household_members m
                WHERE m.user_id = \(userID) AND m.household_id::text = users.preferences->>'lastHouseholdId')
            """, logger: logger)
    }
}
