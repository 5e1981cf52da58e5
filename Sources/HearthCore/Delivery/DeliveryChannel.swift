import Foundation

/// Where a person's notifications go besides the app: a browser's push subscription, an ntfy
/// topic, or a signed webhook; with its health.
public struct DeliveryChannel: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case webPush = "WEB_PUSH", ntfy = "NTFY", webhook = "WEBHOOK"
    }

    public var id: UUID
    public var userID: UUID
    public var kind: Kind
    /// The device's name, the ntfy topic, or the webhook's host.
    public var name: String
    /// The notification kinds it takes; nil: all of them.
    public var kinds: [NotificationKind]?
    public var enabled: Bool
    /// Why it was switched off (it kept failing, or the push service said the subscription is gone).
    public var disabledReason: String?
    public var createdAt: Date
    public var lastSuccessAt: Date?
    public var lastFailureAt: Date?
    public var lastFailure: String?
    public var consecutiveFailures: Int
}

/// A channel with what sending needs: its address and keys, its secret opened.
struct ChannelTarget: Sendable {
    var channel: DeliveryChannel
    var url: URL
    /// Web Push: the subscription's keys.
    var pushKeys: WebPushEncryption.Keys?
    /// ntfy: the access token; webhooks: the signing secret.
    var secret: String?
}

/// One attempt in a channel's delivery log.
public struct DeliveryAttempt: Sendable, Equatable {
    public var at: Date
    /// The receiver's HTTP status; nil when none came.
    public var status: Int?
    public var latencyMilliseconds: Int
    public var outcome: DeliveryOutcome.Result
    public var error: String?
    /// The notification sent; nil for a test message.
    public var notificationID: UUID?
}
