import Foundation
import PostgresNIO

/// A row of ``DeliveryService/channelColumns``; a notification kind this Hearth does not know is left out.
struct DeliveryChannelRow: TypedRow {
    let channel: DeliveryChannel

    init(_ row: inout RowCells) throws {
        let (id, userID, kind, name, kinds): (UUID, UUID, DeliveryChannel.Kind, String, [String]?) =
            (try row("id"), try row("user_id"), try row("kind"), try row("name"), try row("kinds"))
        channel = DeliveryChannel(
            id: id, userID: userID, kind: kind, name: name, kinds: kinds.map { $0.compactMap(NotificationKind.init(rawValue:)) },
            enabled: try row("enabled"), disabledReason: try row("disabled_reason"), createdAt: try row("created_at"), lastSuccessAt: try row("last_success_at"), lastFailureAt: try row("last_failure_at"),
            lastFailure: try row("last_failure"), consecutiveFailures: try row("consecutive_failures"))
    }
}

/// A channel with where it sends (``DeliveryService/channelColumns``, then `url, push_p256dh,
/// push_auth, secret`); the secret still sealed.
struct ChannelAddressRow: TypedRow {
    let channel: DeliveryChannel
    let url: String
    let pushP256dh: String?
    let pushAuth: String?
    let sealedSecret: Data?

    init(_ row: inout RowCells) throws {
        channel = try DeliveryChannelRow(&row).channel
        (url, pushP256dh, pushAuth, sealedSecret) = (try row("url"), try row("push_p256dh"), try row("push_auth"), try row("secret"))
    }
}

extension DeliveryChannel.Kind: TextColumn {}
