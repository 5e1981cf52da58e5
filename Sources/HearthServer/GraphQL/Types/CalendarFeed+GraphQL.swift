import Foundation
import GraphQLEngine
import HearthCore

extension CalendarFeed {
    /// `CalendarFeed` and `CreatedCalendarFeed`.
    static func registerGraphQL(_ resolvers: inout Resolvers) {
        resolvers.object("CalendarFeed", CalendarFeed.self) { feed in
            feed.field("id") { .id($0.id) }
            feed.field("name") { .string($0.name) }
            feed.field("householdIds") { feed in
                feed.householdIDs.map { .value(.list($0.map { .string($0.lowercasedString) })) } ?? .value(.null)
            }
            feed.field("kinds") { .strings($0.kinds.map(\.rawValue)) }
            feed.field("createdAt") { .date($0.createdAt) }
            feed.field("lastFetchedAt") { .date($0.lastFetchedAt) }
        }
        resolvers.object("CreatedCalendarFeed", CreatedCalendarFeed.self) { created in
            created.field("url") { .string($0.path) }
            created.field("feed") { .object($0.feed) }
        }
    }
}
