import Foundation
import GraphQLEngine
import HearthCore

/// `schema.graphql`'s root fields for stores, products, events and notifications, mapped onto
/// ``StoreService`` (which checks every request against the caller's ability); the types they
/// answer with are in `Types/Store+GraphQL.swift`, `Product+GraphQL.swift` and `StoreEvent+GraphQL.swift`.
enum StoreResolvers {
    static func register(_ resolvers: inout Resolvers, stores: StoreService, tasks: TaskService) {
        registerQueries(&resolvers, stores: stores)
        registerMutations(&resolvers, stores: stores)
        registerSubscriptions(&resolvers, stores: stores, tasks: tasks)
    }

    /// The activity feed's filters (shared with `Household.storeChanges`).
    struct ChangesArguments: Decodable {
        var storeIds: [UUID]?
        var types: [StoreEventType]?
        var since: Date?
        var unreadOnly: Bool

        func query() throws -> StoreEventQuery {
            try StoreEventQuery(storeIDs: storeIds, types: types, since: since, unreadOnly: unreadOnly)
        }
    }

    private struct StoreInHousehold: Decodable { var householdId: UUID, storeId: UUID? }
    private struct AddStore: Decodable { var householdId: UUID, domain: String, name: String? }
    private struct RenameStore: Decodable { var id: UUID, name: String }
    private struct StoreEvents: Decodable { var householdId: UUID, storeIds: [UUID]? }

    private static func registerQueries(_ resolvers: inout Resolvers, stores: StoreService) {
        resolvers.field("Query.stores", arguments: HouseholdArgument.self) { input, arguments in
            .object(try await stores.stores(try await input.caller(), householdID: arguments.householdId, page: try input.page()))
        }
        // `events` is the deprecated name of `storeChanges`: one list, one resolver.
        for field in ["Query.storeChanges", "Query.events"] {
            resolvers.field(field, arguments: ChangesArguments.self) { input, arguments in
                .object(try await stores.events(try await input.caller(), householdID: try input.arguments(HouseholdArgument.self).householdId,
                                                query: try arguments.query(), page: try input.page()))
            }
        }
        resolvers.field("Query.store", arguments: IDArgument.self) { input, arguments in
            .object(try await stores.store(try await input.caller(), id: arguments.id))
        }
        resolvers.field("Query.product", arguments: IDArgument.self) { input, arguments in
            let (product, variants) = try await stores.product(try await input.caller(), id: arguments.id)
            Product.variantLoader(input, stores).prime(arguments.id, variants)
            return .object(product)
        }
        resolvers.field("Query.unreadEventCount", arguments: StoreInHousehold.self) { input, arguments in
            .int(try await stores.unreadEventCount(try await input.caller(), householdID: arguments.householdId, storeID: arguments.storeId))
        }
    }

    private static func registerMutations(_ resolvers: inout Resolvers, stores: StoreService) {
        resolvers.field("Mutation.addStore", arguments: AddStore.self) { input, arguments in
            .object(try await stores.addStore(try await input.caller(), householdID: arguments.householdId, domain: arguments.domain,
                                              name: arguments.name))
        }
        resolvers.field("Mutation.renameStore", arguments: RenameStore.self) { input, arguments in
            .object(try await stores.renameStore(try await input.caller(), id: arguments.id, name: arguments.name))
        }
        resolvers.deletion("Mutation.removeStore") { caller, id in try await stores.removeStore(caller, id: id) }
        resolvers.field("Mutation.syncStore", arguments: IDArgument.self) { input, arguments in
            .object(try await stores.syncStore(try await input.caller(), id: arguments.id).store)
        }
        resolvers.field("Mutation.markEventRead", arguments: EventIDArgument.self) { input, arguments in
            let caller = try await input.caller()
            guard let id = arguments.event else { throw ServiceError.notFound("Event") }
            return .object(try await stores.markEventRead(caller, id: id))
        }
        resolvers.field("Mutation.markAllEventsRead", arguments: StoreInHousehold.self) { input, arguments in
            .int(try await stores.markAllEventsRead(try await input.caller(), householdID: arguments.householdId, storeID: arguments.storeId))
        }
    }

    private static func registerSubscriptions(_ resolvers: inout Resolvers, stores: StoreService, tasks: TaskService) {
        resolvers.subscription("Subscription.storeEvents") { input in
            let caller = try await input.caller()
            let arguments = try input.arguments(StoreEvents.self)
            let (household, storeIDs) = (arguments.householdId, arguments.storeIds.map(Set.init))
            // Refused at once when the household cannot be read (NOT_FOUND), as the query would be.
            _ = try await stores.mayReadEvents(caller, householdID: household)
            let batches = stores.changes.subscribe()
            return AsyncThrowingStream { continuation in
                let task = Task {
                    for await batch in batches where batch.householdID == household && (storeIDs?.contains(batch.storeID) ?? true) {
                        // Membership is checked again per batch (the caller made anew): someone removed stops receiving.
                        guard let caller = try? await input.caller(), (try? await stores.mayReadEvents(caller, householdID: household)) == true
                        else { break }
                        guard let events = try? await stores.events(ids: batch.eventIDs, reader: caller.userID) else { continue }
                        for event in events { continuation.yield(.object(event)) }
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
        resolvers.subscription("Subscription.notificationReceived") { input in
            let person = try input.signedIn().user.id
            let batches = stores.changes.subscribe()
            let reminders = tasks.changes.subscribe()
            return AsyncThrowingStream { continuation in
                // Store syncs and fired reminders both leave notifications: one stream of both.
                let fromStores = Task {
                    for await batch in batches {
                        for notification in batch.notifications where notification.userID == person {
                            continuation.yield(.object(notification))
                        }
                    }
                    continuation.finish()
                }
                let fromReminders = Task {
                    for await event in reminders {
                        guard case .reminder(let reminder) = event else { continue }
                        for notification in reminder.notifications where notification.userID == person {
                            continuation.yield(.object(notification))
                        }
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in
                    fromStores.cancel()
                    fromReminders.cancel()
                }
            }
        }
    }
}
