import Foundation
import GraphQLEngine
import HearthCore

extension Household {
    /// `Household`: its own fields, and the graph below it (members, activity, stores, tasks, the
    /// agenda), through the same services and loaders as the root fields that take its id.
    static func registerGraphQL(_ resolvers: inout Resolvers, services: HearthServices) {
        let (households, stores, tasks) = (services.households, services.stores, services.tasks)
        resolvers.object("Household", Household.self) { household in
            household.field("id") { .id($0.id) }
            household.field("name") { .string($0.name) }
            household.field("description") { .string($0.description) }
            household.field("timeZone") { .string($0.timeZone) }
            household.field("createdAt") { .date($0.createdAt) }
            household.field("updatedAt") { .date($0.updatedAt) }
            household.resolve("myRole") { parent, input in
                let caller = try await households.ability(for: try input.signedIn().user.id)
                return .enumeration(caller.roles[parent.id])
            }
            // Members and activity are batched across the households of a page: one statement each
            // per request level (one loader per page request; households asked alike share it).
            household.resolve("members") { parent, input in
                let actor = try input.signedIn().user.id
                let page = try input.page()
                let loader = input.request.loader("household-members\u{1F}\(page.first)\u{1F}\(page.after ?? "")\u{1F}\(page.countsTotal)") {
                    (keys: [UUID]) in
                    let pages = try await households.members(actor: actor, households: keys, page: page)
                    return keys.map { .success(pages[$0] ?? .empty) }
                }
                return .object(try await loader.load(parent.id))
            }
            household.resolve("activity") { parent, input in
                let actor = try input.signedIn().user.id
                let page = try input.page()
                let loader = input.request.loader("household-activity\u{1F}\(page.first)\u{1F}\(page.after ?? "")\u{1F}\(page.countsTotal)") {
                    (keys: [UUID]) in
                    let pages = try await households.activity(actor: actor, households: keys, page: page)
                    return keys.map { .success(pages[$0] ?? .empty) }
                }
                return .object(try await loader.load(parent.id))
            }
            household.resolve("stores") { parent, input in
                let actor = try input.signedIn().user.id
                let page = try input.page()
                let loader = input.request.loader("household-stores\u{1F}\(page.first)\u{1F}\(page.after ?? "")\u{1F}\(page.countsTotal)") {
                    (keys: [UUID]) in
                    let pages = try await stores.stores(actor: actor, households: keys, page: page)
                    return keys.map { .success(pages[$0] ?? .empty) }
                }
                return .object(try await loader.load(parent.id))
            }
            household.resolve("storeChanges") { parent, input in try await StoreResolvers.changes(input, parent.id, stores) }
            household.resolve("unreadEventCount") { parent, input in
                .int(try await stores.unreadEventCount(actor: try input.signedIn().user.id, householdID: parent.id, storeID: nil))
            }
            household.resolve("tasks") { parent, input in try await TaskResolvers.taskPage(input, parent.id, tasks) }
            household.resolve("agenda") { parent, input in
                let actor = try input.signedIn().user.id
                let (from, to) = try TaskResolvers.agendaRange(input)
                let loader = input.request.loader("household-agenda\u{1F}\(from.timeIntervalSince1970)\u{1F}\(to.timeIntervalSince1970)") {
                    (keys: [UUID]) in
                    let agendas = try await tasks.agenda(actor: actor, households: keys, from: from, to: to)
                    return keys.map { .success(agendas[$0] ?? []) }
                }
                return .objects(try await loader.load(parent.id))
            }
            household.resolve("labels") { parent, input in try await TaskResolvers.labels(input, parent.id, tasks) }
        }
        ConnectionFields.register(&resolvers, "Household", of: Household.self)
        HouseholdMember.registerGraphQL(&resolvers)
        Invitation.registerGraphQL(&resolvers, clock: services.clock)
        ActivityEntry.registerGraphQL(&resolvers)
    }
}

extension HouseholdMember {
    static func registerGraphQL(_ resolvers: inout Resolvers) {
        resolvers.object("Member", HouseholdMember.self) { member in
            member.field("user") { .object($0.user) }
            member.field("role") { .enumeration($0.role) }
            member.field("joinedAt") { .date($0.joinedAt) }
        }
        ConnectionFields.register(&resolvers, "Member", of: HouseholdMember.self)
    }
}

extension Invitation {
    /// `Invitation` (its state is read at the moment of the request) and `CreatedInvitation`.
    static func registerGraphQL(_ resolvers: inout Resolvers, clock: any HearthClock) {
        resolvers.object("Invitation", Invitation.self) { invitation in
            invitation.field("id") { .id($0.id) }
            invitation.field("role") { .enumeration($0.role) }
            invitation.field("state") { .enumeration($0.state(at: clock.now)) }
            invitation.field("createdBy") { .object($0.createdBy ?? .deleted) }
            invitation.field("createdAt") { .date($0.createdAt) }
            invitation.field("expiresAt") { .date($0.expiresAt) }
            invitation.field("maxUses") { .int($0.maxUses) }
            invitation.field("uses") { .int($0.uses) }
            invitation.field("revokedAt") { .date($0.revokedAt) }
        }
        ConnectionFields.register(&resolvers, "Invitation", of: Invitation.self)
        resolvers.object("CreatedInvitation", CreatedInvitation.self) { created in
            created.field("code") { .string($0.code) }
            created.field("invitation") { .object($0.invitation) }
        }
    }
}

extension ActivityEntry {
    static func registerGraphQL(_ resolvers: inout Resolvers) {
        resolvers.object("ActivityEntry", ActivityEntry.self) { entry in
            entry.field("id") { .string(String($0.id)) }
            entry.field("kind") { .enumeration($0.kind) }
            entry.field("actor") { .object($0.actor) }
            entry.field("member") { .optional($0.member) }
            entry.field("role") { .enumeration($0.role) }
            entry.field("previousRole") { .enumeration($0.previousRole) }
            entry.field("at") { .date($0.createdAt) }
        }
        ConnectionFields.register(&resolvers, "Activity", of: ActivityEntry.self)
    }
}
