import Foundation
import GraphQLEngine
import HearthCore

/// `schema.graphql`'s root fields for households, members and invitations, mapped onto
/// ``HouseholdService`` (which checks every request against the caller's ability); the types they
/// answer with are in `Types/Household+GraphQL.swift`.
enum HouseholdResolvers {
    static func register(_ resolvers: inout Resolvers, households: HouseholdService, users: UserService) {
        resolvers.field("Query.households") { input in
            let caller = try await input.caller()
            return .object(try await households.households(caller, page: try input.page()))
        }
        resolvers.field("Query.household") { input in
            let caller = try await input.caller()
            return .object(try await households.household(caller, id: try input.id("id")))
        }
        resolvers.field("Query.invitations") { input in
            let caller = try await input.caller()
            return .object(try await households.invitations(caller, householdID: try input.id("householdId"), page: try input.page()))
        }

        resolvers.field("Mutation.createHousehold") { input in
            let caller = try await input.caller()
            guard case .object(let fields)? = input[argument: "input"], case .string(let name)? = fields["name"] else { return .null }
            // No zone given: the creator's preferred one; UTC only when they have none either.
            var zone = fields["timeZone"].stringValue
            if zone == nil { zone = try await users.preferences(userID: caller.userID).timeZone }
            let household = try await households.createHousehold(
                caller, name: name, description: fields["description"].stringValue, timeZone: zone ?? "UTC")
            return .object(household)
        }
        resolvers.field("Mutation.updateHousehold") { input in
            let caller = try await input.caller()
            let id = try input.id("id")
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
                caller, id: id, name: fields["name"].stringValue, description: description,
                timeZone: fields["timeZone"].stringValue, expectedVersion: input[argument: "expectedVersion"].intValue)
            return .object(household)
        }
        resolvers.deletion("Mutation.deleteHousehold") { caller, id in try await households.deleteHousehold(caller, id: id) }
        resolvers.field("Mutation.addMember") { input in
            let caller = try await input.caller()
            let (household, user, role) = (try input.id("householdId"), try input.id("userId"),
                                           try input.role())
            let member = try await households.addMember(caller, householdID: household, userID: user, role: role)
            return .object(member)
        }
        resolvers.field("Mutation.changeMemberRole") { input in
            let caller = try await input.caller()
            let (household, user, role) = (try input.id("householdId"), try input.id("userId"),
                                           try input.role())
            let member = try await households.changeMemberRole(caller, householdID: household, userID: user, role: role)
            return .object(member)
        }
        resolvers.field("Mutation.removeMember") { input in
            let caller = try await input.caller()
            let (household, user) = (try input.id("householdId"), try input.id("userId"))
            try await households.removeMember(caller, householdID: household, userID: user)
            return .bool(true)
        }
        resolvers.field("Mutation.leaveHousehold") { input in
            let caller = try await input.caller()
            let household = try input.id("householdId")
            try await households.leaveHousehold(caller, householdID: household)
            return .bool(true)
        }
        resolvers.field("Mutation.transferOwnership") { input in
            let caller = try await input.caller()
            let (household, user) = (try input.id("householdId"), try input.id("userId"))
            let updated = try await households.transferOwnership(caller, householdID: household, userID: user)
            return .object(updated)
        }
        resolvers.field("Mutation.createInvitation") { input in
            let caller = try await input.caller()
            let household = try input.id("householdId")
            let role = try input.role()
            let (expiresIn, maxUses) = (input[argument: "expiresIn"].intValue, input[argument: "maxUses"].intValue)
            return .object(try await households.createInvitation(
                caller, householdID: household, role: role, expiresIn: expiresIn, maxUses: maxUses))
        }
        resolvers.field("Mutation.acceptInvitation") { input in
            let caller = try await input.caller()
            guard case .string(let code)? = input[argument: "code"] else { return .null }
            return .object(try await households.acceptInvitation(caller, code: code))
        }
        resolvers.field("Mutation.revokeInvitation") { input in
            let caller = try await input.caller()
            let id = try input.id("id")
            return .object(try await households.revokeInvitation(caller, id: id))
        }
    }
}
