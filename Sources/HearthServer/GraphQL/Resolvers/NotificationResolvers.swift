import Foundation
import GraphQLEngine
import HearthCore

/// `schema.graphql`'s root fields for a person's notifications, mapped onto ``NotificationService``;
/// the `Notification` type is in `Types/HouseholdNotification+GraphQL.swift`.
enum NotificationResolvers {
    static func register(_ resolvers: inout Resolvers, notifications: NotificationService) {
        resolvers.field("Query.notifications") { input in
            let caller = try await input.caller()
            let kinds = input[argument: "kinds"].strings?.compactMap(NotificationKind.init(rawValue:))
            return .object(try await notifications.list(caller, unreadOnly: input.flag("unreadOnly"), kinds: kinds, page: try input.page()))
        }
        resolvers.field("Mutation.markNotificationRead") { input in
            let caller = try await input.caller()
            let id = try input.id("id")
            return .object(try await notifications.markRead(caller, id: id))
        }
    }
}
