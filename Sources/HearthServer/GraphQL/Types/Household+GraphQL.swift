import Foundation
import GraphQLEngine
import HearthCore

extension Household {
    /// `Household`: its own fields, and the graph below it (members, activity, stores, tasks, the
    /// agenda), through the same services and loaders as the root fields that take its id.
    static func registerGraphQL(_ resolvers: inout Resolvers, services: HearthServices) {
        let (households, stores, tasks) = (services.households, services.stores, services.tasks)
        resolvers.object("Household", Household.self) { household in
            household.field("version") { .int($0.version) }
            household.field("id") { .id($0.id) }
            household.field("name") { .string($0.name) }
            household.field("description") { .string($0.description) }
            household.field("timeZone") { .string($0.timeZone) }
            household.field("createdAt") { .date($0.createdAt) }
            household.field("updatedAt") { .date($0.updatedAt) }
            household.resolve("myRole") { parent, input in
                .enumeration(try await input.caller().roles[parent.id])
            }
            // Lists below a household are loaded for all the households of the level at once: one
            // statement each, whatever the number of households (they were authorised when read).
            household.resolveBatch("members") { parents, input in
                let (caller, page) = (try await input.caller(), try input.page())
                return try await batched(input, "members", page, parents, empty: .empty) {
                    try await households.members(caller, households: $0, page: page)
                }.map { .object($0) }
            }
            household.resolveBatch("activity") { parents, input in
                let (caller, page) = (try await input.caller(), try input.page())
                return try await batched(input, "activity", page, parents, empty: .empty) {
                    try await households.activity(caller, households: $0, page: page)
                }.map { .object($0) }
            }
            household.resolveBatch("stores") { parents, input in
                let (caller, page) = (try await input.caller(), try input.page())
                return try await batched(input, "stores", page, parents, empty: .empty) {
                    try await stores.stores(caller, households: $0, page: page)
                }.map { .object($0) }
            }
            household.resolveBatch("storeChanges", arguments: StoreResolvers.ChangesArguments.self) { parents, arguments, input in
                let (caller, page, query) = (try await input.caller(), try input.page(), try arguments.query())
                return try await batched(input, "storeChanges", ListArguments(query: query, page: page), parents, empty: .empty) {
                    try await stores.events(caller, households: $0, query: query, page: page)
                }.map { .object($0) }
            }
            household.resolveBatch("unreadEventCount") { parents, input in
                let caller = try await input.caller()
                return try await batched(input, "unreadEventCount", "", parents, empty: 0) {
                    try await stores.unreadEventCounts(caller, households: $0)
                }.map { .int($0) }
            }
            household.resolveBatch("storesInError") { parents, input in
                let caller = try await input.caller()
                return try await batched(input, "storesInError", "", parents, empty: 0) {
                    try await stores.storesInError(caller, households: $0)
                }.map { .int($0) }
            }
            household.resolveBatch("tasks", arguments: TaskArguments.List.self) { parents, arguments, input in
                let (caller, page, query) = (try await input.caller(), try input.page(), try arguments.query())
                let details = TaskArguments.details(input, at: ["edges", "node"])
                return try await batched(input, "tasks", ListArguments(query: query, page: page, details: details.rawValue), parents, empty: .empty) {
                    try await tasks.items(caller, households: $0, query: query, page: page, details: details)
                }.map { .object($0) }
            }
            household.resolveBatch("agenda", arguments: TaskArguments.Agenda.self) { parents, arguments, input in
                let (caller, from, to) = (try await input.caller(), arguments.from, arguments.to)
                let details = TaskArguments.details(input)
                return try await batched(input, "agenda", ListArguments(query: [from, to], details: details.rawValue),
                                     parents, empty: []) {
                    try await tasks.agenda(caller, households: $0, from: from, to: to, details: details)
                }.map { .objects($0) }
            }
            household.resolve("choreStats", arguments: TaskArguments.Agenda.self) { parent, arguments, input in
                .object(try await tasks.choreStats(try await input.caller(), householdID: parent.id, from: arguments.from, to: arguments.to))
            }
            household.resolveBatch("labels") { parents, input in
                let caller = try await input.caller()
                return try await batched(input, "labels", "", parents, empty: []) {
                    try await tasks.labels(caller, households: $0)
                }.map { .objects($0) }
            }
        }
        ConnectionFields.register(&resolvers, "Household", of: Household.self)
        HouseholdMember.registerGraphQL(&resolvers)
        Invitation.registerGraphQL(&resolvers, clock: services.clock)
        ActivityEntry.registerGraphQL(&resolvers)
    }

    /// The values of the households' list `field`, loaded by `load` with every household of the
    /// request asked with the same `arguments` (one loader each, so aliases share it).
    private static func batched<Value: Sendable>(
        _ input: FieldInput, _ field: String, _ arguments: some Hashable & Sendable, _ households: [Household], empty: Value,
        load: @escaping @Sendable ([UUID]) async throws -> [UUID: Value]
    ) async throws -> [Value] {
        let loader = input.request.loader(BatchName(field: field, arguments: arguments)) { (keys: [UUID]) in
            let found = try await load(keys)
            return keys.map { .success(found[$0] ?? empty) }
        }
        return try await loader.loadMany(households.map(\.id))
    }

    /// The name of a households' list loader: the field and its arguments.
    private struct BatchName<Arguments: Hashable & Sendable>: Hashable, Sendable {
        let field: String
        let arguments: Arguments
    }

    /// A list's arguments as a loader's name holds them: its query, page and the details its items come with.
    private struct ListArguments<Query: Hashable & Sendable>: Hashable, Sendable {
        var query: Query
        var page: PageRequest?
        var details = 0
    }
}

extension HouseholdMember {
    static func registerGraphQL(_ resolvers: inout Resolvers) {
        resolvers.object("Member", HouseholdMember.self) { member in
            member.field("version") { .int($0.version) }
            member.field("user") { .object($0.user) }
            member.field("role") { .enumeration($0.role) }
            member.field("joinedAt") { .date($0.joinedAt) }
            member.field("awayUntil") { .date($0.awayUntil) }
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
