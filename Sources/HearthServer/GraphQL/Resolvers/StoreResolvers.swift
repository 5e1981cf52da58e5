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

    /// The activity feed's filters (shared with `Household.storeChanges`) (`storeIds`, `types`, `since`, `unreadOnly`).
    static func changesQuery(_ input: FieldInput) throws -> StoreEventQuery {
        let types = input[argument: "types"].strings?.compactMap(StoreEventType.init(rawValue:))
        return try StoreEventQuery(
            storeIDs: try input.ids("storeIds"), types: types, since: input[argument: "since"].dateValue, unreadOnly: input.flag("unreadOnly"))
    }

    private static func registerQueries(_ resolvers: inout Resolvers, stores: StoreService) {
        resolvers.field("Query.stores") { input in
            let caller = try await input.caller()
            return .object(try await stores.stores(caller, householdID: try input.id("householdId"), page: try input.page()))
        }
        // `events` is the deprecated name of `storeChanges`: one list, one resolver.
        for field in ["Query.storeChanges", "Query.events"] {
            resolvers.field(field) { input in
                let caller = try await input.caller()
                return .object(try await stores.events(
                    caller, householdID: try input.id("householdId"), query: try changesQuery(input), page: try input.page()))
            }
        }
        resolvers.field("Query.store") { input in
            let caller = try await input.caller()
            return .object(try await stores.store(caller, id: try input.id("id")))
        }
        resolvers.field("Query.product") { input in
            let caller = try await input.caller()
            let id = try input.id("id")
            let (product, variants) = try await stores.product(caller, id: id)
            Product.variantLoader(input, stores).prime(id, variants)
            return .object(product)
        }
        resolvers.field("Query.unreadEventCount") { input in
            let caller = try await input.caller()
            let household = try input.id("householdId")
            return .int(try await stores.unreadEventCount(caller, householdID: household, storeID: input[argument: "storeId"].uuidValue))
        }
    }

    private static func registerMutations(_ resolvers: inout Resolvers, stores: StoreService) {
        resolvers.field("Mutation.addStore") { input in
            let caller = try await input.caller()
            let household = try input.id("householdId")
            let domain = input[argument: "domain"].stringValue ?? ""
            let name = input[argument: "name"].stringValue
            return .object(try await stores.addStore(caller, householdID: household, domain: domain, name: name))
        }
        resolvers.field("Mutation.renameStore") { input in
            let caller = try await input.caller()
            let id = try input.id("id")
            let name = input[argument: "name"].stringValue ?? ""
            return .object(try await stores.renameStore(caller, id: id, name: name))
        }
        resolvers.deletion("Mutation.removeStore") { caller, id in try await stores.removeStore(caller, id: id) }
        resolvers.field("Mutation.syncStore") { input in
            let caller = try await input.caller()
            let id = try input.id("id")
            return .object(try await stores.syncStore(caller, id: id).store)
        }
        resolvers.field("Mutation.markEventRead") { input in
            let caller = try await input.caller()
            guard let text = input[argument: "id"].stringValue, let id = Int64(text) else {
                throw ServiceError.notFound("Event")
            }
            return .object(try await stores.markEventRead(caller, id: id))
        }
        resolvers.field("Mutation.markAllEventsRead") { input in
            let caller = try await input.caller()
            let household = try input.id("householdId")
            let store = input[argument: "storeId"].uuidValue
            return .int(try await stores.markAllEventsRead(caller, householdID: household, storeID: store))
        }
    }

    private static func registerSubscriptions(_ resolvers: inout Resolvers, stores: StoreService, tasks: TaskService) {
        resolvers.subscription("Subscription.storeEvents") { input in
            let caller = try await input.caller()
            let household = try input.id("householdId")
            let storeIDs = try input.ids("storeIds").map(Set.init)
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
