import Foundation
import PostgresNIO

extension HouseholdService {
    /// Appends an entry to the household's activity log, in the caller's transaction.
    func record(_ kind: ActivityEntry.Kind, household: UUID, actor: UUID, member: UUID? = nil, role: HouseholdRole? = nil,
                previousRole: HouseholdRole? = nil, invitation: UUID? = nil, on connection: PostgresConnection) async throws {
        try await connection.query(
            """
            INSERT INTO household_activity (household_id, kind, actor_id, member_id, role, previous_role, invitation_id, created_at)
            VALUES (\(household), \(kind.rawValue), \(actor), \(member), \(role?.rawValue), \(previousRole?.rawValue), \(invitation), \(clock.now))
            """, logger: logger)
    }

    /// The household's activity log, newest first. Members of every role may read it.
    public func activity(actor: UUID, householdID: UUID, page: PageRequest) async throws -> Page<ActivityEntry> {
        let caller = try await ability(for: actor)
        _ = try await readableHousehold(caller, householdID)
        try Self.authorize(caller, "read", .instance(type: "Activity", fields: ["householdId": .string(householdID.lowercasedString)]))
        let after = try page.afterInteger()
        let total = try await pageTotal(page, "SELECT count(*) FROM household_activity WHERE household_id = \(householdID)")
        let rows = try await database.client.query(
            """
            SELECT a.id, a.kind, a.actor_id, actor.display_name, actor.avatar_url, a.member_id, member.display_name,
                   member.avatar_url, a.role, a.previous_role, a.invitation_id, a.created_at
            FROM household_activity a
            LEFT JOIN users actor ON actor.id = a.actor_id
            LEFT JOIN users member ON member.id = a.member_id
            WHERE a.household_id = \(householdID) AND a.id < \(after ?? Int64.max)
            ORDER BY a.id DESC LIMIT \(page.first + 1)
            """, logger: logger)
        var entries: [ActivityEntry] = []
        for try await row in rows.decode(
            (Int64, String, UUID?, String?, String?, UUID?, String?, String?, String?, String?, UUID?, Date).self)
        {
            guard let kind = ActivityEntry.Kind(rawValue: row.1) else { continue }
            let actor = row.2.flatMap { id in row.3.map { PublicUser(id: id, displayName: $0, avatarURL: row.4) } } ?? .deleted
            let member = row.5.flatMap { id in row.6.map { PublicUser(id: id, displayName: $0, avatarURL: row.7) } }
                ?? (kind.isAboutMember ? .deleted : nil)
            entries.append(ActivityEntry(
                id: row.0, householdID: householdID, kind: kind, actor: actor, member: member,
                role: row.8.flatMap(HouseholdRole.init(rawValue:)), previousRole: row.9.flatMap(HouseholdRole.init(rawValue:)),
                invitationID: row.10, createdAt: row.11))
        }
        return Page(rows: entries, request: page, totalCount: total, cursor: { Cursor.make([String($0.id)]) }, item: { $0 })
    }
}
