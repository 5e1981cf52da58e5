import Foundation
import GraphQLEngine
import HearthCore

/// The households service's DTOs as the plain data of their schema types.
enum HouseholdValues {
    static func household(_ household: Household) -> GraphQLValue {
        [
            "id": .string(UserValues.uuid(household.id)), "name": .string(household.name),
            "description": .string(household.description), "timeZone": .string(household.timeZone),
            "createdAt": .string(DateTimeScalar.string(from: household.createdAt)),
            "updatedAt": .string(DateTimeScalar.string(from: household.updatedAt)),
        ]
    }

    static func member(_ member: HouseholdMember) -> GraphQLValue {
        ["user": UserValues.publicUser(member.user), "role": .string(member.role.rawValue),
         "joinedAt": .string(DateTimeScalar.string(from: member.joinedAt))]
    }

    static func invitation(_ invitation: Invitation, now: Date) -> GraphQLValue {
        [
            "id": .string(UserValues.uuid(invitation.id)), "role": .string(invitation.role.rawValue),
            "state": .string(invitation.state(at: now).rawValue),
            "createdBy": UserValues.publicUser(invitation.createdBy ?? .deleted),
            "createdAt": .string(DateTimeScalar.string(from: invitation.createdAt)),
            "expiresAt": .string(DateTimeScalar.string(from: invitation.expiresAt)),
            "maxUses": .int(invitation.maxUses), "uses": .int(invitation.uses),
            "revokedAt": invitation.revokedAt.map { .string(DateTimeScalar.string(from: $0)) } ?? .null,
        ]
    }

    static func activity(_ entry: ActivityEntry) -> GraphQLValue {
        [
            "id": .string(String(entry.id)), "kind": .string(entry.kind.rawValue), "actor": UserValues.publicUser(entry.actor),
            "member": entry.member.map(UserValues.publicUser) ?? .null, "role": entry.role.map { .string($0.rawValue) } ?? .null,
            "previousRole": entry.previousRole.map { .string($0.rawValue) } ?? .null,
            "at": .string(DateTimeScalar.string(from: entry.createdAt)),
        ]
    }

    /// A connection: edges with cursors, page info and the total.
    static func connection<Item>(_ page: Page<Item>, _ node: (Item) -> GraphQLValue) -> GraphQLValue {
        [
            "edges": .list(page.items.map { ["node": node($0.item), "cursor": .string($0.cursor)] }),
            "pageInfo": ["hasNextPage": .bool(page.hasNextPage), "endCursor": page.items.last.map { .string($0.cursor) } ?? .null],
            "totalCount": .int(page.totalCount),
        ]
    }

    /// `first` and `after` arguments as a page request (counting the total only when the selection
    /// asks for `totalCount`); a refusal is `BAD_USER_INPUT` naming the argument.
    static func page(_ input: FieldInput) throws(PageRequestError) -> PageRequest {
        var first: Int?
        if case .int(let value)? = input[argument: "first"] { first = value }
        return try PageRequest(first: first, after: UserValues.string(input[argument: "after"]), countsTotal: input.info.selects("totalCount"))
    }

    static func role(_ value: GraphQLValue?, field: String = "role") throws -> HouseholdRole {
        guard case .string(let name)? = value else { throw ServiceError.invalidInput(field: field, message: "\(field) is required.") }
        return try HouseholdRole.parse(name, field: field)
    }

    /// The id of the parent object (a `Household` for its fields).
    static func parentID(_ input: FieldInput) throws -> UUID {
        guard let id = UserValues.sourceID(input) else { throw ResolverError.unexpectedParent(field: input.info.coordinate, expected: "an object with an id") }
        return id
    }

    /// A required `UUID` argument.
    static func id(_ input: FieldInput, _ name: String) throws -> UUID {
        guard let id = UserValues.uuid(input[argument: name]) else {
            throw ServiceError.invalidInput(field: name, message: "\(name) must be a UUID.")
        }
        return id
    }
}
