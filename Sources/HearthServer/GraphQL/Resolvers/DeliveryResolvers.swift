import Foundation
import GraphQLEngine
import HearthCore

/// `schema.graphql`'s delivery fields (channels and their tests) mapped onto ``DeliveryService``;
/// the types they answer with are in `Types/DeliveryChannel+GraphQL.swift`.
enum DeliveryResolvers {
    static func register(_ resolvers: inout Resolvers, delivery: DeliveryService) {
        resolvers.field("ServerInfo.webPushPublicKey") { _ in
            .string(orNull: try await delivery.webPushPublicKey())
        }
        resolvers.field("Channel.log") { input in
            let channel = try input.parent(DeliveryChannel.self)
            return .objects(try await delivery.log(try await input.caller(), channelID: channel.id))
        }
        resolvers.field("Query.channels") { input in
            .objects(try await delivery.channels(try await input.caller()))
        }
        resolvers.field("Mutation.registerPushSubscription") { input in
            let caller = try await input.caller()
            let fields = input[argument: "input"].objectValue
            let keys = fields["keys"].objectValue
            return .object(try await delivery.registerPushSubscription(
                caller, endpoint: fields["endpoint"].stringValue ?? "", p256dh: keys["p256dh"].stringValue ?? "",
                auth: keys["auth"].stringValue ?? "", deviceName: fields["deviceName"].stringValue))
        }
        resolvers.field("Mutation.addNtfyChannel") { input in
            let caller = try await input.caller()
            let fields = input[argument: "input"].objectValue
            return .object(try await delivery.addNtfyChannel(
                caller, serverURL: fields["serverUrl"].stringValue ?? "", topic: fields["topic"].stringValue ?? "",
                accessToken: fields["accessToken"].stringValue))
        }
        resolvers.field("Mutation.addWebhook") { input in
            let caller = try await input.caller()
            let fields = input[argument: "input"].objectValue
            let kinds = fields["kinds"].strings?.compactMap(NotificationKind.init(rawValue:))
            let (channel, secret) = try await delivery.addWebhook(caller, url: fields["url"].stringValue ?? "", kinds: kinds)
            return .object(CreatedWebhook(channel: channel, secret: secret))
        }
        resolvers.field("Mutation.testChannel") { input in
            .bool(try await delivery.testChannel(try await input.caller(), id: try input.id("id")))
        }
        resolvers.field("Mutation.removeChannel") { input in
            try await delivery.removeChannel(try await input.caller(), id: try input.id("id"))
            return .bool(true)
        }
    }
}

/// `addWebhook`'s answer: the channel and its signing secret, shown once.
struct CreatedWebhook: Sendable {
    var channel: DeliveryChannel
    var secret: String
}
