import Foundation
import GraphQLEngine
import HearthCore

/// `schema.graphql`'s root fields for households, members and invitations, mapped onto
/// ``HouseholdService`` (which checks every request against the caller's ability); the types they
/// answer with are in `Types/Household+GraphQL.swift`.
enum HouseholdResolvers {
    private struct CreateHousehold: Decodable {
        struct Fields: Decodable { var name: String, description: String?, timeZone: String? }
        var input: Fields
    }
    private struct UpdateHousehold: Decodable {
        struct Fields: Decodable { var name: InputPatch<String>, description: InputPatch<String>, timeZone: InputPatch<String> }
        var id: UUID, input: Fields, expectedVersion: Int?
    }
    private struct Membership: Decodable { var householdId: UUID, userId: UUID }
    private struct Away: Decodable { var householdId: UUID, until: Date?, userId: UUID? }
    private struct MemberRole: Decodable { var householdId: UUID, userId: UUID, role: HouseholdRole }
    private struct CreateInvitation: Decodable { var householdId: UUID, role: HouseholdRole, expiresIn: Int?, maxUses: Int? }
    private struct Code: Decodable { var code: String }

    static func register(_ resolvers: inout Resolvers, households: HouseholdService, users: UserService) {
        resolvers.field("Query.households") { input in
            .object(try await households.households(try await input.caller(), page: try input.page()))
        }
        resolvers.field("Query.household", arguments: IDArgument.self) { input, arguments in
            .object(try await households.household(try await input.caller(), id: arguments.id))
        }
        resolvers.field("Query.invitations", arguments: HouseholdArgument.self) { input, arguments in
            .object(try await households.invitations(try await input.caller(), householdID: arguments.householdId, page: try input.page()))
        }

        resolvers.field("Mutation.createHousehold", arguments: CreateHousehold.self) { input, arguments in
            let (caller, fields) = (try await input.caller(), arguments.input)
            // No zone given: the creator's preferred one; UTC only when they have none either.
            var zone = fields.timeZone
            if zone == nil { zone = try await users.preferences(userID: caller.userID).timeZone }
            return .object(try await households.createHousehold(caller, name: fields.name, description: fields.description,
                                                                timeZone: zone ?? "UTC"))
        }
        resolvers.field("Mutation.updateHousehold", arguments: UpdateHousehold.self) { input, arguments in
            let fields = arguments.input
            let household = try await households.updateHousehold(
                try await input.caller(), id: arguments.id, name: try fields.name.notNull("name"), description: fields.description.change,
                timeZone: try fields.timeZone.notNull("timeZone"), expectedVersion: arguments.expectedVersion)
            return .object(household)
        }
        resolvers.deletion("Mutation.deleteHousehold") { caller, id in try await households.deleteHousehold(caller, id: id) }
        resolvers.field("Mutation.addMember", arguments: MemberRole.self) { input, arguments in
            .object(try await households.addMember(try await input.caller(), householdID: arguments.householdId, userID: arguments.userId,
                                                   role: arguments.role))
        }
        resolvers.field("Mutation.changeMemberRole", arguments: MemberRole.self) { input, arguments in
            .object(try await households.changeMemberRole(try await input.caller(), householdID: arguments.householdId,
                                                          userID: arguments.userId, role: arguments.role))
        }
        resolvers.field("Mutation.removeMember", arguments: Membership.self) { input, arguments in
            try await households.removeMember(try await input.caller(), householdID: arguments.householdId, userID: arguments.userId)
            return .bool(true)
        }
        resolvers.field("Mutation.leaveHousehold", arguments: HouseholdArgument.self) { input, arguments in
            try await households.leaveHousehold(try await input.caller(), householdID: arguments.householdId)
            return .bool(true)
        }
        resolvers.field("Mutation.setAway", arguments: Away.self) { input, arguments in
            .object(try await households.setAway(try await input.caller(), householdID: arguments.householdId, userID: arguments.userId,
                                                 until: arguments.until))
        }
        resolvers.field("Mutation.transferOwnership", arguments: Membership.self) { input, arguments in
            .object(try await households.transferOwnership(try await input.caller(), householdID: arguments.householdId,
                                                           userID: arguments.userId))
        }
        resolvers.field("Mutation.createInvitation", arguments: CreateInvitation.self) { input, arguments in
            .object(try await households.createInvitation(try await input.caller(), householdID: arguments.householdId, role: arguments.role,
                                                          expiresIn: arguments.expiresIn, maxUses: arguments.maxUses))
        }
        resolvers.field("Mutation.acceptInvitation", arguments: Code.self) { input, arguments in
            .object(try await households.acceptInvitation(try await input.caller(), code: arguments.code))
        }
        resolvers.field("Mutation.revokeInvitation", arguments: IDArgument.self) { input, arguments in
            .object(try await households.revokeInvitation(try await input.caller(), id: arguments.id))
        }
    }
}
