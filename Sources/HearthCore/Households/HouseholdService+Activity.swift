import Foundation
import PostgresNIO

extension HouseholdService {
    /// Appends an entry to the household's activity log, in the caller's transaction.
    func record(_ kind: ActivityEntry.Kind, household: UUID, by person: UUID, member: UUID? = nil, role: HouseholdRole? = nil,
                previousRole: HouseholdRole? = nil, invitation: UUID? = nil, on connection: PostgresConnection) async throws {
        try await connection.query(
            """
            INSERT INTO household_activity (household_id, kind, actor_id, member_id, role, previous_role, invitation_id, created_at)
            VALUES (\(household), \(kind.rawValue), \(person), \(member), \(role?.rawValue), \(previousRole?.rawValue), \(invitation), \(clock.now))
            """, logger: logger)
        try await notifyMembership(kind, household: household, by: person, member: member, role: role, on: connection)
    }

    /// The people a membership change is news to, told in the same transaction (a MEMBERSHIP
    /// notification, delivered to their channels): the member added, removed, promoted or made
    /// owner by someone else; the owners and admins when someone joins by invitation. People who
    /// switched notifications off get none.
    private func notifyMembership(_ kind: ActivityEntry.Kind, household: UUID, by person: UUID, member: UUID?, role: HouseholdRole?,
                                  on connection: PostgresConnection) async throws {
        guard let member else { return }
        let body: String
        var recipients: [UUID] = []
        switch kind {
        case .memberAdded: body = "You were added to this household as \(role?.rawValue.lowercased() ?? "member")."
        case .memberRemoved: body = "You were removed from this household."
        case .memberRoleChanged: body = "Your role here is now \(role?.rawValue.lowercased() ?? "member")."
        case .ownershipTransferred: body = "You are now an owner of this household."
        case .memberJoined:
            let name = try await publicUser(member, on: connection)?.displayName ?? "Someone"
            body = "\(name) joined as \(role?.rawValue.lowercased() ?? "member")."
            let admins = try await connection.query("""
                SELECT user_id FROM household_members WHERE household_id = \(household) AND role IN ('OWNER', 'ADMIN') AND user_id <> \(member)
                """, logger: logger)
            for try await admin in admins.decode(UUID.self) { recipients.append(admin) }
        default: return
        }
        if kind != .memberJoined {
            guard member != person else { return }
            recipients = [member]
        }
        guard !recipients.isEmpty else { return }
        let rows = try await connection.query("""
            SELECT h.name, u.id FROM households h, users u
            WHERE h.id = \(household) AND u.id = ANY(\(recipients)) AND \(unescaped: Preferences.NotificationSwitch.membership.isOn(in: "u"))
            ORDER BY u.id
            """, logger: logger)
        let now = clock.now
        var notifications: [HouseholdNotification] = []
        for (title, user) in try await rows.columns(("name", String.self), ("id", UUID.self)) {
            notifications.append(HouseholdNotification(id: UUID(), userID: user, householdID: household, storeID: nil, title: title, body: body,
                                                       priority: .normal, counts: [:], createdAt: now, readAt: nil, kind: .membership))
        }
        try await NotificationOutbox.write(notifications, householdID: household, storeID: nil, at: now, on: connection, logger: logger)
    }

    /// The activity logs of several households the caller was shown, newest first, the same page of
    /// each (members of every role may read them; households whose log they may not read are
    /// left out, and none is read again): one statement (`LATERAL … LIMIT` per household), plus
    /// one grouped count when the page wants totals.
    public func activity(_ caller: Caller, households: [UUID], page: PageRequest) async throws -> [UUID: Page<ActivityEntry>] {
        return try await activity(households: households.filter { caller.ability.can("read", Self.activitySubject($0)) }, page: page)
    }

    private static func activitySubject(_ householdID: UUID) -> AbilitySubject {
        .instance(type: "Activity", fields: ["householdId": .string(householdID.lowercasedString)])
    }

    private func activity(households: [UUID], page: PageRequest) async throws -> [UUID: Page<ActivityEntry>] {
        guard !households.isEmpty else { return [:] }
        let after = try page.afterInteger()
        let totals = try await database.counts("SELECT household_id AS key, count(*)::int8 AS count FROM household_activity WHERE household_id = ANY(\(households)) GROUP BY 1", wanted: page.countsTotal)
        let rows = try await database.client.query(
            """
            SELECT a.household_id, a.id, a.kind, a.actor_id, actor.display_name AS actor_name, actor.avatar_url AS actor_avatar, a.member_id,
                   member.display_name AS member_name, member.avatar_url AS member_avatar, a.role, a.previous_role, a.invitation_id, a.created_at
            FROM unnest(\(households)::uuid[]) AS parent(id)
            CROSS JOIN LATERAL (
                SELECT * FROM household_activity a WHERE a.household_id = parent.id AND a.id < \(after ?? Int64.max)
                ORDER BY a.id DESC LIMIT \(page.rowLimit)
            ) a
            LEFT JOIN users actor ON actor.id = a.actor_id
            LEFT JOIN users member ON member.id = a.member_id
            ORDER BY a.household_id, a.id DESC
            """, logger: logger).rows(as: ActivityRow.self).map(\.entry)
        return Page.grouped(rows, by: \.householdID, parents: households, request: page, totals: totals,
                            cursor: { Cursor.make([String($0.id)]) }, item: { $0 })
    }}
