import Foundation
import GraphQLEngine
import HearthCore

/// `schema.graphql`'s calendar-feed fields mapped onto ``CalendarFeedService``; the types they
/// answer with are in `Types/CalendarFeed+GraphQL.swift`.
enum CalendarFeedResolvers {
    /// `createCalendarFeed(input: CalendarFeedInput!)`.
    private struct Create: Decodable {
        struct Feed: Decodable { var name: String, householdIds: [UUID]?, kinds: [TaskKind]? }
        var input: Feed
    }

    static func register(_ resolvers: inout Resolvers, feeds: CalendarFeedService) {
        resolvers.field("Query.calendarFeeds") { input in
            .objects(try await feeds.feeds(try await input.caller()))
        }
        resolvers.field("Mutation.createCalendarFeed", arguments: Create.self) { input, arguments in
            let feed = arguments.input
            var created = try await feeds.create(try await input.caller(), name: feed.name, householdIDs: feed.householdIds, kinds: feed.kinds)
            // Absolute: the public address when configured, else the one the client reached Hearth at.
            if let base = feeds.publicURL?.absoluteString ?? (try? input.context(GraphQLRequestContext.self))?.origin {
                created.path = (base.hasSuffix("/") ? String(base.dropLast()) : base) + created.path
            }
            return .object(created)
        }
        resolvers.field("Mutation.revokeCalendarFeed", arguments: IDArgument.self) { input, arguments in
            .object(try await feeds.revoke(try await input.caller(), id: arguments.id))
        }
    }
}
