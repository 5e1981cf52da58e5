import Foundation
import GraphQLEngine
import HearthCore

extension SyncChange {
    /// `SyncPage`, `SyncChange`, the `SyncRecord` union (each case answered by its own type's
    /// fields), `PushResult`, `PushedMutation` and `SyncPoke`.
    static func registerGraphQL(_ resolvers: inout Resolvers) {
        resolvers.object("SyncPage", SyncPage.self) { page in
            page.field("changes") { .objects($0.changes) }
            page.field("cursor") { .string($0.cursor) }
            page.field("hasMore") { .bool($0.hasMore) }
            page.field("lastMutationId") { .int($0.lastMutationID) }
        }
        resolvers.object("SyncChange", SyncChange.self) { change in
            change.field("type") { .enumeration($0.type) }
            change.field("id") { .string($0.id) }
            change.field("version") { .int($0.version) }
            change.field("deleted") { .bool($0.deleted) }
            change.field("record") { change in
                switch change.record {
                case .household(let household)?: .object(household)
                case .member(let member)?: .object(member)
                case .label(let label)?: .object(label)
                case .task(let item)?: .object(item)
                case .store(let store)?: .object(store)
                case .product(let product)?: .object(product)
                case .storeEvent(let event)?: .object(event)
                case .notification(let notification)?: .object(notification)
                case nil: .null
                }
            }
        }
        resolvers.typeResolver("SyncRecord") { value, _ in
            if value.object(as: Household.self) != nil { return "Household" }
            if value.object(as: HouseholdMember.self) != nil { return "Member" }
            if value.object(as: TaskLabel.self) != nil { return "Label" }
            if value.object(as: TaskItem.self) != nil { return "Task" }
            if value.object(as: Store.self) != nil { return "Store" }
            if value.object(as: Product.self) != nil { return "Product" }
            if value.object(as: StoreEvent.self) != nil { return "StoreEvent" }
            if value.object(as: HouseholdNotification.self) != nil { return "Notification" }
            return nil
        }
        resolvers.object("PushResult", PushResult.self) { result in
            result.field("lastMutationId") { .int($0.lastMutationID) }
            result.field("results") { .objects($0.results) }
        }
        resolvers.object("PushedMutation", PushedMutation.self) { pushed in
            pushed.field("id") { .int($0.id) }
            pushed.field("status") { .enumeration($0.status) }
            pushed.field("code") { .string(orNull: $0.code) }
            pushed.field("message") { .string(orNull: $0.message) }
            pushed.field("fields") { $0.fields.map { .strings($0) } ?? .null }
            pushed.field("version") { .int(orNull: $0.version) }
        }
        resolvers.object("SyncPoke", SyncPoke.self) { poke in
            poke.field("householdId") { .id($0.householdID) }
            poke.field("cursor") { .string(String($0.sequence)) }
            poke.field("fromYourPush") { .bool($0.fromYourPush) }
        }
    }
}
