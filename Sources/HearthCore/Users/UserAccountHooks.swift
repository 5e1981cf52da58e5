import Foundation
import PostgresNIO

/// What accounts need from the services that hold people's memberships (households), without
/// the users service depending on them. Each call runs inside the account change's transaction.
public protocol UserAccountHooks: Sendable {
    /// Joins a new account to the household of an invitation code; throws when the code is not
    /// usable, and then the account is not created either.
    func redeem(code: String, userID: UUID, on connection: PostgresConnection) async throws -> UUID
    /// Before an account is deleted: refuses while the person is the last owner of something,
    /// else records their departure.
    func accountWillBeDeleted(userID: UUID, on connection: PostgresConnection) async throws
    /// After the deletion committed (caches drop the person).
    func accountDeleted(userID: UUID) async
    /// Refuses (not found) a household the person may not read, so preferences never point at one.
    func requireReadableHousehold(_ householdID: UUID, userID: UUID) async throws
}
