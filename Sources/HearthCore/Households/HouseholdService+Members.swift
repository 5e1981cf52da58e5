import Foundation
import PostgresNIO

extension HouseholdService {
    static let memberColumns = SQLColumns([
        "householdId": .init("m.household_id", .uuid), "userId": .init("m.user_id", .uuid), "role": .init("m.role", .text),
    ])

    /// The members of several households the caller was shown, in the order they joined, the same
    /// page of each (the households are not read again; the member rule is applied in SQL): one
    /// statement (`LATERAL … LIMIT` per household), plus one grouped count when the page wants totals.
    public func members(_ caller: Caller, households: [UUID], page: PageRequest) async throws -> [UUID: Page<HouseholdMember>] {
        let after = try page.afterKeyset()
        guard let allowed = try caller.ability.sqlCondition("read", subjectType: "Member", columns: Self.memberColumns) else {
            return [:]
        }
        let totals = try await database.counts("SELECT m.household_id AS key, count(*)::int8 AS count FROM household_members m WHERE m.household_id = ANY(\(households)) AND \(allowed) GROUP BY 1", wanted: page.countsTotal)
        let rows = try await database.client.query(
            """
            SELECT m.role, m.user_id, u.display_name, u.avatar_url, m.household_id, m.joined_at, m.version, m.away_until, \(unescaped: Cursor.microsecondsSQL("m.joined_at")) AS micros
            FROM unnest(\(households)::uuid[]) AS parent(id)
            CROSS JOIN LATERAL (
                SELECT m.* FROM household_members m
                WHERE m.household_id = parent.id AND \(allowed) AND \(SQLCondition.keyset(after: after, time: "m.joined_at", id: "m.user_id"))
                ORDER BY m.joined_at, m.user_id LIMIT \(page.rowLimit)
            ) m
            JOIN users u ON u.id = m.user_id
            ORDER BY m.household_id, m.joined_at, m.user_id
            """, logger: logger).rows(as: MemberRow.self)
        return Page.grouped(rows, by: \.member.householdID, parents: households, request: page, totals: totals,
                            cursor: { Cursor.make(microseconds: $0.micros, id: $0.member.user.id) }, item: \.member)
    }

    /// Adds an existing account to the household. Admins add members and viewers; owners anyone.
    public func addMember(_ caller: Caller, householdID: UUID, userID: UUID, role: HouseholdRole) async throws -> HouseholdMember {
        _ = try await readableHousehold(caller, householdID)
        try caller.authorize("create", HouseholdMember.subject(householdID: householdID, userID: userID, role: role))
        guard let user = try await publicUser(userID) else { throw ServiceError.notFound("User") }
        let now = clock.now
        let version = try await database.transaction(logger: logger) { connection in
            let rows = try await connection.query(
                """
                INSERT INTO household_members (household_id, user_id, role, joined_at)
                VALUES (\(householdID), \(userID), \(role.rawValue), \(now))
                ON CONFLICT DO NOTHING RETURNING version
                """, logger: logger)
            var inserted: Int?
            for try await version in rows.decode(Int.self) { inserted = version }
            guard let inserted else { throw ServiceError.conflict("\(user.displayName) is already a member of this household.") }
            try await makeCurrentIfNone(householdID, userID: userID, on: connection)
            try await record(.memberAdded, household: householdID, by: caller.userID, member: userID, role: role, on: connection)
            return inserted
        }
        await forget(users: [userID])
        return HouseholdMember(householdID: householdID, user: user, role: role, joinedAt: now, version: version)
    }

    /// Gives a member another role. The caller must be allowed to update the member both as they
    /// are and as they would be (so admins cannot touch admins or owners, nor make any); the
    /// last owner cannot step down.
    public func changeMemberRole(_ caller: Caller, householdID: UUID, userID: UUID, role: HouseholdRole) async throws -> HouseholdMember {
        _ = try await readableHousehold(caller, householdID)
        let member = try await database.transaction(logger: logger) { connection in
            try await Self.lockHousehold(householdID, on: connection, logger: logger)
            var member = try await existingMember(householdID, userID, caller: caller, on: connection)
            try caller.authorize("update", HouseholdMember.subject(householdID: householdID, userID: userID, role: member.role))
            try caller.authorize("update", HouseholdMember.subject(householdID: householdID, userID: userID, role: role))
            guard member.role != role else { return member }
            if member.role == .owner { try await ensureAnotherOwner(householdID, besides: userID, on: connection) }
            let updated = try await connection.query(
                "UPDATE household_members SET role = \(role.rawValue) WHERE household_id = \(householdID) AND user_id = \(userID) RETURNING version",
                logger: logger)
            for try await version in updated.decode(Int.self) { member.version = version }
            try await record(.memberRoleChanged, household: householdID, by: caller.userID, member: userID, role: role,
                             previousRole: member.role, on: connection)
            member.role = role
            return member
        }
        await forget(users: [userID])
        return member
    }

    /// Removes a member (the caller themselves too: then it is leaving). The last owner stays.
    public func removeMember(_ caller: Caller, householdID: UUID, userID: UUID) async throws {
        _ = try await readableHousehold(caller, householdID)
        try await database.transaction(logger: logger) { connection in
            try await Self.lockHousehold(householdID, on: connection, logger: logger)
            let member = try await existingMember(householdID, userID, caller: caller, on: connection)
            try caller.authorize("delete", HouseholdMember.subject(householdID: householdID, userID: userID, role: member.role))
            if member.role == .owner { try await ensureAnotherOwner(householdID, besides: userID, on: connection) }
            try await connection.query(
                "DELETE FROM household_members WHERE household_id = \(householdID) AND user_id = \(userID)", logger: logger)
            try await record(userID == caller.userID ? .memberLeft : .memberRemoved, household: householdID, by: caller.userID, member: userID,
                             previousRole: member.role, on: connection)
        }
        await forget(users: [userID])
    }

    /// Marks a member away until `until` (nil: back home): rotations pass over them meanwhile.
    /// Anyone may say so of themselves (`userID` nil or their own); of another member, only who may
    /// update that member (admins and owners).
    public func setAway(_ caller: Caller, householdID: UUID, userID: UUID?, until: Date?) async throws -> HouseholdMember {
        _ = try await readableHousehold(caller, householdID)
        let person = userID ?? caller.userID
        return try await database.transaction(logger: logger) { connection in
            var member = try await existingMember(householdID, person, caller: caller, on: connection)
            if person != caller.userID {
                try caller.authorize("update", HouseholdMember.subject(householdID: householdID, userID: person, role: member.role))
            }
            let updated = try await connection.query(
                "UPDATE household_members SET away_until = \(until) WHERE household_id = \(householdID) AND user_id = \(person) RETURNING version",
                logger: logger)
            for try await version in updated.decode(Int.self) { member.version = version }
            member.awayUntil = until
            return member
        }
    }

    /// The caller leaves the household; refused while they are its last owner.
    public func leaveHousehold(_ caller: Caller, householdID: UUID) async throws {
        try await removeMember(caller, householdID: householdID, userID: caller.userID)
    }

    /// Makes another member an owner and the caller an admin. Owners only.
    public func transferOwnership(_ caller: Caller, householdID: UUID, userID: UUID) async throws -> Household {
        let household = try await readableHousehold(caller, householdID)
        guard userID != caller.userID else {
            throw ServiceError.invalidInput(field: "userId", message: "userId must be another member: you cannot transfer ownership to yourself.")
        }
        guard caller.roles[householdID] == .owner else {
            throw ServiceError.forbidden("Only an owner can transfer ownership of a household.")
        }
        try await database.transaction(logger: logger) { connection in
            try await Self.lockHousehold(householdID, on: connection, logger: logger)
            let target = try await existingMember(householdID, userID, caller: caller, on: connection)
            try caller.authorize("update", HouseholdMember.subject(householdID: householdID, userID: userID, role: .owner))
            try await connection.query(
                """
                UPDATE household_members SET role = CASE WHEN user_id = \(userID) THEN 'OWNER' ELSE 'ADMIN' END
                WHERE household_id = \(householdID) AND user_id IN (\(userID), \(caller.userID))
                """, logger: logger)
            try await record(.ownershipTransferred, household: householdID, by: caller.userID, member: userID, role: .owner,
                             previousRole: target.role, on: connection)
        }
        await forget(users: [userID, caller.userID])
        return household
    }

    // MARK: Helpers

    /// The household's row lock, the one every writer that needs it takes (membership changes, so
    /// "is there another owner?" stays true until they commit; label counts): `FOR NO KEY UPDATE`,
    /// which waits for other holders of it but not for the key-share locks taken by inserting
    /// rows that reference the household (items, labels, members). `FOR UPDATE` would, and two
    /// writers that each inserted such a row and then asked for it would wait on each other.
    static func lockHousehold(_ id: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        let rows = try await connection.query("SELECT id FROM households WHERE id = \(id) FOR NO KEY UPDATE", logger: logger)
        var found = false
        for try await _ in rows.decode(UUID.self) { found = true }
        guard found else { throw ServiceError.notFound("Household") }
    }

    /// Members of one household by user id (for sync; the caller checks what they may read).
    func members(householdID: UUID, userIDs: [UUID]) async throws -> [HouseholdMember] {
        guard !userIDs.isEmpty else { return [] }
        let rows = try await database.client.query("""
            SELECT m.user_id, u.display_name, u.avatar_url, m.role, m.joined_at, m.version, m.away_until
            FROM household_members m JOIN users u ON u.id = m.user_id
            WHERE m.household_id = \(householdID) AND m.user_id = ANY(\(userIDs))
            """, logger: logger)
        var members: [HouseholdMember] = []
        for (user, name, avatar, role, joined, version, away) in try await rows.columns(
            ("user_id", UUID.self), ("display_name", String.self), ("avatar_url", String?.self), ("role", String.self), ("joined_at", Date.self),
            ("version", Int.self), ("away_until", Date?.self)) {
            guard let role = HouseholdRole(rawValue: role) else { continue }
            members.append(HouseholdMember(householdID: householdID, user: PublicUser(id: user, displayName: name, avatarURL: avatar),
                                           role: role, joinedAt: joined, version: version, awayUntil: away))
        }
        return members
    }

    /// A member of the household; `notFound` when they are not one or the caller may not see them.
    func existingMember(_ householdID: UUID, _ userID: UUID, caller: Caller, on connection: PostgresConnection) async throws -> HouseholdMember {
        let rows = try await connection.query(
            """
            SELECT u.display_name, u.avatar_url, m.role, m.joined_at, m.version, m.away_until
            FROM household_members m JOIN users u ON u.id = m.user_id
            WHERE m.household_id = \(householdID) AND m.user_id = \(userID)
            """, logger: logger)
        for (name, avatar, role, joined, version, away) in try await rows.columns(
            ("display_name", String.self), ("avatar_url", String?.self), ("role", String.self), ("joined_at", Date.self), ("version", Int.self),
            ("away_until", Date?.self)) {
            guard let role = HouseholdRole(rawValue: role),
                caller.ability.can("read", HouseholdMember.subject(householdID: householdID, userID: userID, role: role))
            else { break }
            return HouseholdMember(householdID: householdID, user: PublicUser(id: userID, displayName: name, avatarURL: avatar),
                                   role: role, joinedAt: joined, version: version, awayUntil: away)
        }
        throw ServiceError.notFound("Member")
    }

    /// Refuses (`conflict`) when `userID` is the household's only owner.
    func ensureAnotherOwner(_ householdID: UUID, besides userID: UUID, on connection: PostgresConnection) async throws {
        guard try await hasAnotherOwner(householdID, besides: userID, on: connection) else {
            throw ServiceError.conflict(
                "A household always keeps an owner: make another member an owner (transferOwnership) or delete the household first.")
        }
    }

    func hasAnotherOwner(_ householdID: UUID, besides userID: UUID, on connection: PostgresConnection) async throws -> Bool {
        let rows = try await connection.query(
            """
            SELECT EXISTS (SELECT 1 FROM household_members
                           WHERE household_id = \(householdID) AND role = 'OWNER' AND user_id <> \(userID))
            """, logger: logger)
        for try await exists in rows.decode(Bool.self) { return exists }
        return false
    }

    func publicUser(_ id: UUID, on connection: PostgresConnection? = nil) async throws -> PublicUser? {
        let rows = try await database.query("SELECT display_name, avatar_url FROM users WHERE id = \(id)", on: connection, logger: logger)
        for (name, avatar) in try await rows.columns(("display_name", String.self), ("avatar_url", String?.self)) {
            return PublicUser(id: id, displayName: name, avatarURL: avatar)
        }
        return nil
    }
}
