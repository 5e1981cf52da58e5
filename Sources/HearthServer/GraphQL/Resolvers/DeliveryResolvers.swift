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
        resolvers.field("Mutation.registerPushSubscription", arguments: PushSubscription.self) { input, arguments in
            let subscription = arguments.input
            return .object(try await delivery.registerPushSubscription(
                try await input.caller(), endpoint: subscription.endpoint, p256dh: subscription.keys.p256dh, auth: subscription.keys.auth,
                deviceName: subscription.deviceName))
        }
        resolvers.field("Mutation.addNtfyChannel", arguments: NtfyChannel.self) { input, arguments in
            let channel = arguments.input
            return .object(try await delivery.addNtfyChannel(
                try await input.caller(), serverURL: channel.serverUrl, topic: channel.topic, accessToken: channel.accessToken))
        }
        resolvers.field("Mutation.addWebhook", arguments: Webhook.self) { input, arguments in
            let (channel, secret) = try await delivery.addWebhook(try await input.caller(), url: arguments.input.url, kinds: arguments.input.kinds)
            return .object(CreatedWebhook(channel: channel, secret: secret))
        }
        resolvers.field("Mutation.testChannel", arguments: IDArgument.self) { input, arguments in
            .bool(try await delivery.testChannel(try await input.caller(), id: arguments.id))
        }
        resolvers.field("Mutation.removeChannel", arguments: IDArgument.self) { input, arguments in
            try await delivery.removeChannel(try await input.caller(), id: arguments.id)
            return .bool(true)
        }
    }

    /// `registerPushSubscription(input: PushSubscriptionInput!)`.
    private struct PushSubscription: Decodable {
        struct Keys: Decodable { var p256dh: String, auth: String }
        struct Subscription: Decodable { var endpoint: String, keys: Keys, deviceName: String? }
        var input: Subscription
    }

    /// `addNtfyChannel(input: NtfyChannelInput!)`.
    private struct NtfyChannel: Decodable {
        struct Channel: Decodable { var serverUrl: String, topic: String, accessToken: String? }
        var input: Channel
    }

    /// `addWebhook(input: WebhookInput!)`.
    private struct Webhook: Decodable {
        struct Hook: Decodable { var url: String, kinds: [NotificationKind]? }
        var input: Hook
    }
}

/// `addWebhook`'s answer: the channel and its signing secret, shown once.
struct CreatedWebhook: Sendable {
    var channel: DeliveryChannel
    var secret: String
}
