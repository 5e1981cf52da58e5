import Foundation
import PostgresNIO

/// A row of ``HouseholdService/householdSelect``: the household and its cursor key.
struct HouseholdRow: TypedRow {
    let household: Household
    let micros: Int64

    init(_ row: inout RowCells) throws {
        household = Household(id: try row("id"), name: try row("name"), description: try row("description"), timeZone: try row("time_zone"),
                              createdAt: try row("created_at"), updatedAt: try row("updated_at"), version: try row("version"))
        micros = try row("micros")
    }
}

/// A member's row (`role, user_id, display_name, avatar_url, household_id, joined_at, version,
/// away_until, micros`): the member and their cursor key.
struct MemberRow: TypedRow {
    let member: HouseholdMember
    let micros: Int64

    init(_ row: inout RowCells) throws {
        let role: HouseholdRole = try row("role")
        let user = PublicUser(id: try row("user_id"), displayName: try row("display_name"), avatarURL: try row("avatar_url"))
        member = HouseholdMember(householdID: try row("household_id"), user: user, role: role, joinedAt: try row("joined_at"),
                                 version: try row("version"), awayUntil: try row("away_until"))
        micros = try row("micros")
    }
}

/// A row of ``HouseholdService/invitationSelect``: the invitation (its creator's account may be
/// gone since: shown as deleted) and its cursor key.
struct InvitationRow: TypedRow {
    let invitation: Invitation
    let micros: Int64

    init(_ row: inout RowCells) throws {
        let (id, householdID, role): (UUID, UUID, HouseholdRole) = (try row("id"), try row("household_id"), try row("role"))
        let creator = try PublicUser.read(&row, "created_by", "display_name", "avatar_url") ?? .deleted
        invitation = Invitation(
            id: id, householdID: householdID, role: role, createdBy: creator,
            createdAt: try row("created_at"), expiresAt: try row("expires_at"), maxUses: try row("max_uses"), uses: try row("uses"),
            revokedAt: try row("revoked_at"))
        micros = try row("micros")
    }
}

/// An activity entry's row (`household_id, id, kind, actor_id, actor_name, actor_avatar, member_id,
/// member_name, member_avatar, role, previous_role, invitation_id, created_at`); either person's
/// account may be gone since (shown as deleted).
struct ActivityRow: TypedRow {
    let entry: ActivityEntry

    init(_ row: inout RowCells) throws {
        let (householdID, id, kind): (UUID, Int64, ActivityEntry.Kind) = (try row("household_id"), try row("id"), try row("kind"))
        let actor = try PublicUser.read(&row, "actor_id", "actor_name", "actor_avatar") ?? .deleted
        let member = try PublicUser.read(&row, "member_id", "member_name", "member_avatar") ?? (kind.isAboutMember ? .deleted : nil)
        entry = ActivityEntry(
            id: id, householdID: householdID, kind: kind, actor: actor, member: member,
            role: try row("role"), previousRole: try row("previous_role"), invitationID: try row("invitation_id"), createdAt: try row("created_at"))
    }
}

extension PublicUser {
    /// A person named by three columns (id, display name, avatar), nil when the account is gone.
    static func read(_ row: inout RowCells, _ id: String, _ name: String, _ avatar: String) throws -> PublicUser? {
        let (id, name, avatar): (UUID?, String?, String?) = (try row(id), try row(name), try row(avatar))
        guard let id, let name else { return nil }
        return PublicUser(id: id, displayName: name, avatarURL: avatar)
    }
}

// Stored as their raw values; one this Hearth does not know fails the row.
extension HouseholdRole: TextColumn {}
extension ActivityEntry.Kind: TextColumn {}
