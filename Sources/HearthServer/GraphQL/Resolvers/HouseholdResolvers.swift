import Foundation
import GraphQLEngine
import HearthCore

/// `schema.graphql`'s households, members, invitations, activity and permissions fields, mapped
/// onto ``HouseholdService`` (which checks every request against the caller's ability).
enum HouseholdResolvers {
    static let plainTypes: Set<String> = [
        "Member", "Invitation", "CreatedInvitation", "ActivityEntry", "PageInfo",
        "HouseholdConnection", "HouseholdEdge", "MemberConnection", "MemberEdge", "InvitationConnection", "InvitationEdge",
        "ActivityConnection", "ActivityEdge", "Household",
    ]

    static func register(_ resolvers: inout Resolvers, households: HouseholdService, users: UserService, clock: any HearthClock) {
        resolvers.field("Query.households") { input in
            let actor = try input.signedIn().user.id
            let page = try await households.households(actor: actor, page: try HouseholdValues.page(input))
            return .value(HouseholdValues.connection(page, HouseholdValues.household))
        }
        resolvers.field("Query.household") { input in
            let actor = try input.signedIn().user.id
            let id = try HouseholdValues.id(input, "id")
            return .value(HouseholdValues.household(try await households.household(actor: actor, id: id)))
        }
        resolvers.field("Query.invitations") { input in
            let actor = try input.signedIn().user.id
            let id = try HouseholdValues.id(input, "householdId")
            let page = try await households.invitations(actor: actor, householdID: id, page: try HouseholdValues.page(input))
            let now = clock.now
            return .value(HouseholdValues.connection(page) { HouseholdValues.invitation($0, now: now) })
        }

        resolvers.field("Household.myRole") { input in
            let actor = try input.signedIn().user.id
            guard let id = UserValues.sourceID(input) else { return .null }
            let caller = try await households.ability(for: actor)
            return caller.roles[id].map { .string($0.rawValue) } ?? .null
        }
        resolvers.field("Household.members") { input in
            let actor = try input.signedIn().user.id
            guard let id = UserValues.sourceID(input) else { return .null }
            let page = try await households.members(actor: actor, householdID: id, page: try HouseholdValues.page(input))
            return .value(HouseholdValues.connection(page, HouseholdValues.member))
        }
        resolvers.field("Household.activity") { input in
            let actor = try input.signedIn().user.id
            guard let id = UserValues.sourceID(input) else { return .null }
            let page = try await households.activity(actor: actor, householdID: id, page: try HouseholdValues.page(input))
            return .value(HouseholdValues.connection(page, HouseholdValues.activity))
        }

        // `Me` is always the person themselves (signed in, or just signed up or in): its id is the actor.
        resolvers.field("Me.permissions") { input in
            guard let actor = UserValues.sourceID(input) else { return .null }
            let caller = try await households.ability(for: actor)
            return .value(UserValues.graphQLValue(caller.ability.packedRules))
        }
        resolvers.field("Me.currentHousehold") { input in
            guard let actor = UserValues.sourceID(input) else { return .null }
            let preferences = try await users.preferences(userID: actor)
            guard let id = preferences.lastHouseholdID else { return .null }
            // A household the person has left (or that is gone) is simply no current household.
            guard let household = try? await households.household(actor: actor, id: id) else { return .null }
            return .value(HouseholdValues.household(household))
        }

        resolvers.field("Mutation.createHousehold") { input in
            let actor = try input.signedIn().user.id
            guard case .object(let fields)? = input[argument: "input"], case .string(let name)? = fields["name"] else { return .null }
            let household = try await households.createHousehold(
                actor: actor, name: name, description: UserValues.string(fields["description"]),
                timeZone: UserValues.string(fields["timeZone"]) ?? "UTC")
            return .value(HouseholdValues.household(household))
        }
        resolvers.field("Mutation.updateHousehold") { input in
            let actor = try input.signedIn().user.id
            let id = try HouseholdValues.id(input, "id")
            guard case .object(let fields)? = input[argument: "input"] else { return .null }
            if case .null? = fields["name"] { throw ServiceError.invalidInput(field: "name", message: "name cannot be null.") }
            if case .null? = fields["timeZone"] {
                throw ServiceError.invalidInput(field: "timeZone", message: "timeZone cannot be null.")
            }
            let description: String?? = switch fields["description"] {
            case .string(let text)?: .some(text)
            case .null?: .some(nil)
            default: nil
            }
            let household = try await households.updateHousehold(
                actor: actor, id: id, name: UserValues.string(fields["name"]), description: description,
                timeZone: UserValues.string(fields["timeZone"]))
            return .value(HouseholdValues.household(household))
        }
        resolvers.field("Mutation.deleteHousehold") { input in
            let actor = try input.signedIn().user.id
            let id = try HouseholdValues.id(input, "id")
            try await households.deleteHousehold(actor: actor, id: id)
            return .string(UserValues.uuid(id))
        }
        resolvers.field("Mutation.addMember") { input in
            let actor = try input.signedIn().user.id
            let (household, user, role) = (try HouseholdValues.id(input, "householdId"), try HouseholdValues.id(input, "userId"),
                                           try HouseholdValues.role(input[argument: "role"]))
            let member = try await households.addMember(actor: actor, householdID: household, userID: user, role: role)
            return .value(HouseholdValues.member(member))
        }
        resolvers.field("Mutation.changeMemberRole") { input in
            let actor = try input.signedIn().user.id
            let (household, user, role) = (try HouseholdValues.id(input, "householdId"), try HouseholdValues.id(input, "userId"),
                                           try HouseholdValues.role(input[argument: "role"]))
            let member = try await households.changeMemberRole(actor: actor, householdID: household, userID: user, role: role)
            return .value(HouseholdValues.member(member))
        }
        resolvers.field("Mutation.removeMember") { input in
            let actor = try input.signedIn().user.id
            let (household, user) = (try HouseholdValues.id(input, "householdId"), try HouseholdValues.id(input, "userId"))
            try await households.removeMember(actor: actor, householdID: household, userID: user)
            return .bool(true)
        }
        resolvers.field("Mutation.leaveHousehold") { input in
            let actor = try input.signedIn().user.id
            let household = try HouseholdValues.id(input, "householdId")
            try await households.leaveHousehold(actor: actor, householdID: household)
            return .bool(true)
        }
        resolvers.field("Mutation.transferOwnership") { input in
            let actor = try input.signedIn().user.id
            let (household, user) = (try HouseholdValues.id(input, "householdId"), try HouseholdValues.id(input, "userId"))
            let updated = try await households.transferOwnership(actor: actor, householdID: household, userID: user)
            return .value(HouseholdValues.household(updated))
        }
        resolvers.field("Mutation.createInvitation") { input in
            let actor = try input.signedIn().user.id
            let household = try HouseholdValues.id(input, "householdId")
            let role = try HouseholdValues.role(input[argument: "role"])
            var expiresIn: Int?
            if case .int(let seconds)? = input[argument: "expiresIn"] { expiresIn = seconds }
            var maxUses: Int?
            if case .int(let uses)? = input[argument: "maxUses"] { maxUses = uses }
            let created = try await households.createInvitation(actor: actor, householdID: household, role: role, expiresIn: expiresIn, maxUses: maxUses)
            return .value(["code": .string(created.code), "invitation": HouseholdValues.invitation(created.invitation, now: clock.now)])
        }
        resolvers.field("Mutation.acceptInvitation") { input in
            let actor = try input.signedIn().user.id
            guard case .string(let code)? = input[argument: "code"] else { return .null }
            return .value(HouseholdValues.household(try await households.acceptInvitation(actor: actor, code: code)))
        }
        resolvers.field("Mutation.revokeInvitation") { input in
            let actor = try input.signedIn().user.id
            let id = try HouseholdValues.id(input, "id")
            let invitation = try await households.revokeInvitation(actor: actor, id: id)
            return .value(HouseholdValues.invitation(invitation, now: clock.now))
        }
    }
}
