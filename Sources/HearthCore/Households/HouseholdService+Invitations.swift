import Crypto
import Foundation
import PostgresNIO

extension HouseholdService {
    static let invitationColumns = SQLColumns([
        "id": .init("i.id", .uuid), "householdId": .init("i.household_id", .uuid), "role": .init("i.role", .text),
    ])
    /// An invitation's columns (an ``InvitationRow``; its creator joined as `u`), with the creation
    /// time's exact microseconds (the page cursor).
    static let invitationSelect = """
        i.id, i.household_id, i.role, i.created_by, u.display_name, u.avatar_url, i.created_at, i.expires_at, i.max_uses, i.uses, \
        i.revoked_at, \(Cursor.microsecondsSQL("i.created_at")) AS micros
        """

    /// Creates an invitation code for `role`, lasting `expiresIn` seconds (default 7 days, at most
    /// 30) for `maxUses` joins (1 to 1000). Admins invite members and viewers; owners anyone.
    public func createInvitation(_ caller: Caller, householdID: UUID, role: HouseholdRole, expiresIn: Int?, maxUses: Int?) async throws -> CreatedInvitation {
        let lifetime = TimeInterval(expiresIn ?? Int(configuration.defaultInvitationLifetime))
        guard lifetime >= 60, lifetime <= configuration.maximumInvitationLifetime else {
            throw ServiceError.invalidInput(
                field: "expiresIn", message: "expiresIn must be from 60 to \(Int(configuration.maximumInvitationLifetime)) seconds.")
        }
        let maxUses = maxUses ?? 1
        guard (1...1000).contains(maxUses) else {
            throw ServiceError.invalidInput(field: "maxUses", message: "maxUses must be from 1 to 1000.")
        }
        _ = try await readableHousehold(caller, householdID)
        let now = clock.now
        let invitation = Invitation(
            id: UUID(), householdID: householdID, role: role, createdBy: try await publicUser(caller.userID), createdAt: now,
            expiresAt: now.addingTimeInterval(lifetime), maxUses: maxUses, uses: 0, revokedAt: nil)
        try caller.authorize("create", invitation.subject)
        let code = SessionToken.generate()
        try await database.transaction(logger: logger) { connection in
            try await insertInvitation(id: invitation.id, householdID: householdID, role: role, code: code, by: caller.userID, at: now,
                                       expiresAt: invitation.expiresAt, maxUses: maxUses, on: connection)
        }
        logger.info("invitation created", metadata: ["household": "\(householdID)", "invitation": "\(invitation.id)"])
        return CreatedInvitation(code: code, invitation: invitation)
    }

    /// Writes an invitation (only its code's hash) and its activity.
    func insertInvitation(id: UUID, householdID: UUID, role: HouseholdRole, code: String, by creator: UUID, at now: Date, expiresAt: Date,
                          maxUses: Int, on connection: PostgresConnection) async throws {
        try await connection.query(
            """
            INSERT INTO household_invitations (id, household_id, code_hash, role, created_by, created_at, expires_at, max_uses)
            VALUES (\(id), \(householdID), \(Self.codeHash(code)), \(role.rawValue), \(creator), \(now), \(expiresAt), \(maxUses))
            """, logger: logger)
        try await record(.invitationCreated, household: householdID, by: creator, role: role, invitation: id, on: connection)
    }

    /// The household's invitations the caller may manage, oldest first.
    public func invitations(_ caller: Caller, householdID: UUID, page: PageRequest) async throws -> Page<Invitation> {
        _ = try await readableHousehold(caller, householdID)
        let after = try page.afterKeyset()
        guard caller.ability.can("read", .type("Invitation")),
            let allowed = try caller.ability.sqlCondition("read", subjectType: "Invitation", columns: Self.invitationColumns)
        else {
            let subject = AbilitySubject.ofHousehold("Invitation", householdID)
            throw ServiceError.denied(caller.denial(ForbiddenError(action: "read", subjectType: "Invitation", field: nil, reason: nil), subject: subject))
        }
        let total = try await database.count(
            "SELECT count(*) FROM household_invitations i WHERE i.household_id = \(householdID) AND \(allowed)", wanted: page.countsTotal)
        let rows = try await Self.decodeInvitations(try await database.client.query(
            """
            SELECT \(unescaped: Self.invitationSelect)
            FROM household_invitations i LEFT JOIN users u ON u.id = i.created_by
            WHERE i.household_id = \(householdID) AND \(allowed) AND \(SQLCondition.keyset(after: after, time: "i.created_at", id: "i.id"))
            ORDER BY i.created_at, i.id LIMIT \(page.rowLimit)
            """, logger: logger))
        return Page(rows: rows, request: page, totalCount: total,
                    cursor: { Cursor.make(microseconds: $0.micros, id: $0.invitation.id) }, item: \.invitation)
    }

    /// Revokes an invitation: its code stops working. Revoking twice changes nothing.
    public func revokeInvitation(_ caller: Caller, id: UUID) async throws -> Invitation {
        guard var invitation = try await invitation(id: id),
            caller.ability.can("read", Household.subject(invitation.householdID))
        else { throw ServiceError.notFound("Invitation") }
        try caller.authorize("delete", invitation.subject)
        guard invitation.revokedAt == nil else { return invitation }
        let now = clock.now
        let householdID = invitation.householdID
        try await database.transaction(logger: logger) { connection in
            try await connection.query(
                "UPDATE household_invitations SET revoked_at = \(now) WHERE id = \(id) AND revoked_at IS NULL", logger: logger)
            try await record(.invitationRevoked, household: householdID, by: caller.userID, role: invitation.role, invitation: id, on: connection)
        }
        invitation.revokedAt = now
        return invitation
    }

    /// Joins the household an invitation code is for.
    public func acceptInvitation(_ caller: Caller, code: String) async throws -> Household {
        try caller.authorize("accept", .type("Invitation"))
        let householdID = try await database.transaction(logger: logger) { connection in
            try await redeem(code: code, userID: caller.userID, on: connection)
        }
        await forget(users: [caller.userID])
        // The caller's memberships changed: their caller is made anew to read the household they joined.
        return try await readableHousehold(try await self.caller(for: caller.userID), householdID)
    }

    /// Uses a code for `userID` inside the caller's transaction (sign-up uses it too): checks it
    /// is active, counts the use, adds the member, and logs it. Returns the household's id.
    public func redeem(code: String, userID: UUID, on connection: PostgresConnection) async throws -> UUID {
        let trimmed = code.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 100 else {
            throw ServiceError.invalidInput(field: "code", message: "This invitation code is not valid.")
        }
        let rows = try await connection.query(
            """
            SELECT \(unescaped: Self.invitationSelect)
            FROM household_invitations i LEFT JOIN users u ON u.id = i.created_by
            WHERE i.code_hash = \(Self.codeHash(trimmed)) FOR UPDATE OF i
            """, logger: logger)
        guard let invitation = try await Self.decodeInvitations(rows).first?.invitation else { throw ServiceError.invalidInput(field: "code", message: "This invitation code is not valid.") }
        switch invitation.state(at: clock.now) {
        case .active: break
        case .revoked: throw ServiceError.invalidInput(field: "code", message: "This invitation has been revoked.")
        case .usedUp: throw ServiceError.invalidInput(field: "code", message: "This invitation has already been used.")
        case .expired: throw ServiceError.invalidInput(field: "code", message: "This invitation has expired.")
        }
        let inserted = try await connection.query(
            """
            INSERT INTO household_members (household_id, user_id, role, joined_at)
            VALUES (\(invitation.householdID), \(userID), \(invitation.role.rawValue), \(clock.now))
            ON CONFLICT DO NOTHING RETURNING user_id
            """, logger: logger)
        var joined = false
        for try await _ in inserted.decode(UUID.self) { joined = true }
        guard joined else { throw ServiceError.conflict("You are already a member of this household.") }
        try await connection.query("UPDATE household_invitations SET uses = uses + 1 WHERE id = \(invitation.id)", logger: logger)
        try await makeCurrentIfNone(invitation.householdID, userID: userID, on: connection)
        try await record(.memberJoined, household: invitation.householdID, by: userID, member: userID, role: invitation.role,
                         invitation: invitation.id, on: connection)
        logger.info("invitation used", metadata: ["household": "\(invitation.householdID)", "invitation": "\(invitation.id)", "user": "\(userID)"])
        return invitation.householdID
    }

    func invitation(id: UUID) async throws -> Invitation? {
        let rows = try await database.client.query(
            "SELECT \(unescaped: Self.invitationSelect) FROM household_invitations i LEFT JOIN users u ON u.id = i.created_by WHERE i.id = \(id)",
            logger: logger)
        return try await Self.decodeInvitations(rows).first?.invitation
    }

    static func decodeInvitations(_ rows: PostgresRowSequence) async throws -> [(invitation: Invitation, micros: Int64)] {
        try await rows.rows(as: InvitationRow.self).map { ($0.invitation, $0.micros) }
    }

    static func codeHash(_ code: String) -> Data {
        Data(SHA256.hash(data: Data(code.utf8)))
    }
}
