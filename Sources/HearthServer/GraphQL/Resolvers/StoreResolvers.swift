import Foundation
import GraphQLEngine
import HearthCore

/// `schema.graphql`'s stores, products, events and notifications fields, mapped onto
/// ``StoreService`` (which checks every request against the caller's ability).
enum StoreResolvers {
    static let plainTypes: Set<String> = [
        "Store", "SyncStatus", "SyncError", "ProductImage", "Product", "Variant", "PriceSnapshot", "StoreEvent", "Notification",
        "StoreConnection", "StoreEdge", "ProductConnection", "ProductEdge", "StoreEventConnection", "StoreEventEdge",
        "NotificationConnection", "NotificationEdge",
    ]

    static func register(_ resolvers: inout Resolvers, stores: StoreService, tasks: TaskService) {
        registerQueries(&resolvers, stores: stores)
        registerMutations(&resolvers, stores: stores)
        registerSubscriptions(&resolvers, stores: stores, tasks: tasks)
    }

    private static func registerQueries(_ resolvers: inout Resolvers, stores: StoreService) {
        // The root fields take the household as an argument; the same fields of `Household` take it from their parent.
        @Sendable func storePage(_ input: FieldInput, _ household: UUID) async throws -> Resolved {
            let actor = try input.signedIn().user.id
            let page = try await stores.stores(actor: actor, householdID: household, page: try HouseholdValues.page(input))
            return .value(HouseholdValues.connection(page, StoreValues.store))
        }
        @Sendable func changes(_ input: FieldInput, _ household: UUID) async throws -> Resolved {
            let actor = try input.signedIn().user.id
            let types = try eventTypes(input[argument: "types"])
            let since = UserValues.string(input[argument: "since"]).flatMap(DateTimeScalar.date(from:))
            let unreadOnly = UserValues.flag(input[argument: "unreadOnly"])
            let storeIDs = try StoreValues.ids(input[argument: "storeIds"], field: "storeIds")
            let query = try StoreEventQuery(storeIDs: storeIDs, types: types, since: since, unreadOnly: unreadOnly)
            let page = try await stores.events(actor: actor, householdID: household, query: query, page: try HouseholdValues.page(input))
            return .value(HouseholdValues.connection(page, StoreValues.event))
        }
        resolvers.field("Query.stores") { input in try await storePage(input, try HouseholdValues.id(input, "householdId")) }
        resolvers.field("Household.stores") { input in try await storePage(input, try HouseholdValues.parentID(input)) }
        resolvers.field("Query.events") { input in try await changes(input, try HouseholdValues.id(input, "householdId")) }
        resolvers.field("Household.storeChanges") { input in try await changes(input, try HouseholdValues.parentID(input)) }
        resolvers.field("Household.unreadEventCount") { input in
            let actor = try input.signedIn().user.id
            return .int(try await stores.unreadEventCount(actor: actor, householdID: try HouseholdValues.parentID(input), storeID: nil))
        }
        resolvers.field("Query.store") { input in
            let actor = try input.signedIn().user.id
            let id = try HouseholdValues.id(input, "id")
            return .value(StoreValues.store(try await stores.store(actor: actor, id: id)))
        }
        resolvers.field("Query.product") { input in
            let actor = try input.signedIn().user.id
            let id = try HouseholdValues.id(input, "id")
            let (product, variants) = try await stores.product(actor: actor, id: id)
            variantLoader(input, stores).prime(id, variants)
            return .value(StoreValues.product(product))
        }
        resolvers.field("Query.unreadEventCount") { input in
            let actor = try input.signedIn().user.id
            let household = try HouseholdValues.id(input, "householdId")
            let store = UserValues.uuid(input[argument: "storeId"])
            return .int(try await stores.unreadEventCount(actor: actor, householdID: household, storeID: store))
        }
        resolvers.field("Query.notifications") { input in
            let actor = try input.signedIn().user.id
            let unreadOnly = UserValues.flag(input[argument: "unreadOnly"])
            let page = try await stores.notifications(actor: actor, unreadOnly: unreadOnly, page: try HouseholdValues.page(input))
            return .value(HouseholdValues.connection(page, StoreValues.notification))
        }

        // A store's unread count and products, batched across the stores of a page: one statement
        // each per request level, whatever the number of stores (the stores were authorised when read).
        resolvers.field("Store.unreadEventCount") { input in
            let actor = try input.signedIn().user.id
            let store = try StoreKey(input)
            let loader = input.request.loader("store-unread") { (keys: [StoreKey]) in
                let counts = try await stores.unreadEventCounts(actor: actor, stores: keys.map { ($0.id, $0.household) })
                return keys.map { .success(counts[$0.id] ?? 0) }
            }
            return .int(try await loader.load(store))
        }
        resolvers.field("Store.products") { input in
            let actor = try input.signedIn().user.id
            let store = try StoreKey(input)
            let stock = UserValues.string(input[argument: "stock"]).flatMap(ProductQuery.Stock.init(rawValue:)) ?? .all
            let sort = UserValues.string(input[argument: "sort"]).flatMap(ProductQuery.Sort.init(rawValue:)) ?? .title
            let search = UserValues.string(input[argument: "search"])
            let query = try ProductQuery(search: search, stock: stock, sort: sort)
            let page = try HouseholdValues.page(input)
            // One loader per distinct set of arguments: stores asked the same way share a batch.
            let name = "store-products\u{1F}\(stock)\u{1F}\(sort)\u{1F}\(search ?? "")\u{1F}\(page.first)\u{1F}\(page.after ?? "")\u{1F}\(page.countsTotal)"
            let loader = input.request.loader(name) { (keys: [StoreKey]) in
                let pages = try await stores.products(actor: actor, stores: keys.map { ($0.id, $0.household) }, query: query, page: page)
                return keys.map { .success(pages[$0.id] ?? .empty) }
            }
            return .value(HouseholdValues.connection(try await loader.load(store)) { StoreValues.product($0) })
        }
        // A product's variants, batched across a page of products (one query per request level).
        resolvers.field("Product.variants") { input in
            guard let id = UserValues.sourceID(input) else { return .null }
            return .value(.list(try await variantLoader(input, stores).load(id).map(StoreValues.variant)))
        }
        resolvers.field("Product.priceHistory") { input in
            guard let id = UserValues.sourceID(input) else { return .null }
            var limit = 50
            if case .int(let first)? = input[argument: "first"] {
                guard (1...500).contains(first) else {
                    throw ServiceError.invalidInput(field: "first", message: "first must be from 1 to 500.")
                }
                limit = first
            }
            return .value(.list(try await stores.priceHistory(productID: id, limit: limit).map(StoreValues.snapshot)))
        }
    }

    private static func registerMutations(_ resolvers: inout Resolvers, stores: StoreService) {
        resolvers.field("Mutation.addStore") { input in
            let actor = try input.signedIn().user.id
            let household = try HouseholdValues.id(input, "householdId")
            let domain = UserValues.string(input[argument: "domain"]) ?? ""
            let name = UserValues.string(input[argument: "name"])
            return .value(StoreValues.store(try await stores.addStore(actor: actor, householdID: household, domain: domain, name: name)))
        }
        resolvers.field("Mutation.renameStore") { input in
            let actor = try input.signedIn().user.id
            let id = try HouseholdValues.id(input, "id")
            let name = UserValues.string(input[argument: "name"]) ?? ""
            return .value(StoreValues.store(try await stores.renameStore(actor: actor, id: id, name: name)))
        }
        resolvers.field("Mutation.removeStore") { input in
            let actor = try input.signedIn().user.id
            let id = try HouseholdValues.id(input, "id")
            try await stores.removeStore(actor: actor, id: id)
            return .string(UserValues.uuid(id))
        }
        resolvers.field("Mutation.syncStore") { input in
            let actor = try input.signedIn().user.id
            let id = try HouseholdValues.id(input, "id")
            return .value(StoreValues.store(try await stores.syncStore(actor: actor, id: id).store))
        }
        resolvers.field("Mutation.markEventRead") { input in
            let actor = try input.signedIn().user.id
            guard let text = UserValues.string(input[argument: "id"]), let id = Int64(text) else {
                throw ServiceError.notFound("Event")
            }
            return .value(StoreValues.event(try await stores.markEventRead(actor: actor, id: id)))
        }
        resolvers.field("Mutation.markAllEventsRead") { input in
            let actor = try input.signedIn().user.id
            let household = try HouseholdValues.id(input, "householdId")
            let store = UserValues.uuid(input[argument: "storeId"])
            return .int(try await stores.markAllEventsRead(actor: actor, householdID: household, storeID: store))
        }
        resolvers.field("Mutation.markNotificationRead") { input in
            let actor = try input.signedIn().user.id
            let id = try HouseholdValues.id(input, "id")
            return .value(StoreValues.notification(try await stores.markNotificationRead(actor: actor, id: id)))
        }
    }

    private static func registerSubscriptions(_ resolvers: inout Resolvers, stores: StoreService, tasks: TaskService) {
        resolvers.subscription("Subscription.storeEvents") { input in
            let actor = try input.signedIn().user.id
            let household = try HouseholdValues.id(input, "householdId")
            let storeIDs = try StoreValues.ids(input[argument: "storeIds"], field: "storeIds").map(Set.init)
            // Refused at once when the household cannot be read (NOT_FOUND), as the query would be.
            _ = try await stores.mayReadEvents(actor: actor, householdID: household)
            let batches = stores.changes.subscribe()
            return AsyncThrowingStream { continuation in
                let task = Task {
                    for await batch in batches where batch.householdID == household && (storeIDs?.contains(batch.storeID) ?? true) {
                        // Membership is checked again per batch: someone removed stops receiving.
                        guard (try? await stores.mayReadEvents(actor: actor, householdID: household)) == true else { break }
                        guard let events = try? await stores.events(ids: batch.eventIDs, reader: actor) else { continue }
                        for event in events { continuation.yield(.value(StoreValues.event(event))) }
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
        resolvers.subscription("Subscription.notificationReceived") { input in
            let actor = try input.signedIn().user.id
            let batches = stores.changes.subscribe()
            let reminders = tasks.changes.subscribe()
            return AsyncThrowingStream { continuation in
                // Store syncs and fired reminders both leave notifications: one stream of both.
                let fromStores = Task {
                    for await batch in batches {
                        for notification in batch.notifications where notification.userID == actor {
                            continuation.yield(.value(StoreValues.notification(notification)))
                        }
                    }
                    continuation.finish()
                }
                let fromReminders = Task {
                    for await event in reminders {
                        guard case .reminder(let reminder) = event else { continue }
                        for notification in reminder.notifications where notification.userID == actor {
                            continuation.yield(.value(StoreValues.notification(notification)))
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

    /// The request's loader of variants by product, so a page of products costs one query — also
    /// the pages of a page of stores (at most 100 × 100 products: one batch holds them all).
    private static func variantLoader(_ input: FieldInput, _ stores: StoreService) -> DataLoader<UUID, [ProductVariant]> {
        input.request.loader("variants", maxBatchSize: PageRequest.maximumSize * PageRequest.maximumSize) { (keys: [UUID]) in
            let found = try await stores.variants(productIDs: keys)
            return keys.map { .success(found[$0] ?? []) }
        }
    }

    /// A `Store` parent's id and household, the key of the per-store loaders.
    struct StoreKey: Hashable, Sendable {
        let id: UUID
        let household: UUID

        init(_ input: FieldInput) throws {
            guard let id = UserValues.sourceID(input), let household = UserValues.uuid(UserResolvers.plainField(input.source, "householdId")) else {
                throw ResolverError.unexpectedParent(field: input.info.coordinate, expected: "a Store")
            }
            self.id = id
            self.household = household
        }
    }

    static func eventTypes(_ value: GraphQLValue?) throws -> [StoreEventType]? {
        guard case .list(let items)? = value else { return nil }
        return items.compactMap { UserValues.string($0).flatMap(StoreEventType.init(rawValue:)) }
    }
}
