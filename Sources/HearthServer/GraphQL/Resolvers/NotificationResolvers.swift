import Foundation
import GraphQLEngine
import HearthCore

/// `schema.graphql`'s root fields for a person's notifications, mapped onto ``NotificationService``;
/// the `Notification` type is in `Types/HouseholdNotification+GraphQL.swift`.
enum NotificationResolvers {
    private struct ListArguments: Decodable { var unreadOnly: Bool, kinds: [NotificationKind]? }
    private struct InstanceArguments: Decodable { var unreadOnly: Bool }

    static func register(_ resolvers: inout Resolvers, notifications: NotificationService) {
        resolvers.field("Query.notifications", arguments: ListArguments.self) { input, arguments in
            .object(try await notifications.list(try await input.caller(), unreadOnly: arguments.unreadOnly, kinds: arguments.kinds,
                                                 page: try input.page()))
        }
        resolvers.field("Mutation.markNotificationRead", arguments: IDArgument.self) { input, arguments in
            .object(try await notifications.markRead(try await input.caller(), id: arguments.id))
        }
        resolvers.field("Query.instanceNotices", arguments: InstanceArguments.self) { input, arguments in
            .object(try await notifications.instanceNotices(try await input.caller(), unreadOnly: arguments.unreadOnly, page: try input.page()))
        }
        resolvers.field("Mutation.markInstanceNoticeRead", arguments: IDArgument.self) { input, arguments in
            .object(try await notifications.markInstanceNoticeRead(try await input.caller(), id: arguments.id))
        }
    }
}
