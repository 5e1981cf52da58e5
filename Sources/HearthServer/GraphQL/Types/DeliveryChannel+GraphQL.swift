import Foundation
import GraphQLEngine
import HearthCore

extension DeliveryChannel {
    /// `Channel` (its `log` is a root-style resolver in `DeliveryResolvers`), `DeliveryAttempt` and `CreatedWebhook`.
    static func registerGraphQL(_ resolvers: inout Resolvers) {
        resolvers.object("Channel", DeliveryChannel.self) { channel in
            channel.field("id") { .id($0.id) }
            channel.field("kind") { .enumeration($0.kind) }
            channel.field("name") { .string($0.name) }
            channel.field("enabled") { .bool($0.enabled) }
            channel.field("disabledReason") { .string(orNull: $0.disabledReason) }
            channel.field("kinds") { $0.kinds.map { .strings($0.map(\.rawValue)) } ?? .null }
            channel.field("createdAt") { .date($0.createdAt) }
            channel.field("lastSuccessAt") { .date($0.lastSuccessAt) }
            channel.field("lastFailureAt") { .date($0.lastFailureAt) }
            channel.field("lastFailure") { .string(orNull: $0.lastFailure) }
            channel.field("consecutiveFailures") { .int($0.consecutiveFailures) }
        }
        resolvers.object("DeliveryAttempt", DeliveryAttempt.self) { attempt in
            attempt.field("at") { .date($0.at) }
            attempt.field("status") { .int(orNull: $0.status) }
            attempt.field("latencyMs") { .int($0.latencyMilliseconds) }
            attempt.field("outcome") { .enumeration($0.outcome) }
            attempt.field("error") { .string(orNull: $0.error) }
            attempt.field("notificationId") { .id($0.notificationID) }
        }
        resolvers.object("CreatedWebhook", CreatedWebhook.self) { created in
            created.field("channel") { .object($0.channel) }
            created.field("secret") { .string($0.secret) }
        }
    }
}
