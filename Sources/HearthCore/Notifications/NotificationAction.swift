import Crypto
import Foundation

/// What a reminder's action links do without a session: complete its item, or fire its reminder
/// again in 15 minutes. The raw values are the payload's `actions`, as webhook consumers read them.
public enum NotificationAction: String, Sendable, CaseIterable, Codable {
    case complete = "COMPLETE"
    case snooze = "SNOOZE"

    /// The button's words on a phone.
    public var title: String { self == .complete ? "Complete" : "Snooze 15 min" }

    /// How long a snooze puts the reminder off.
    static let snoozeMinutes = 15

    fileprivate var code: UInt8 { self == .complete ? 1 : 2 }
}

/// Action link tokens: a notification's id and an action, signed with HMAC-SHA256 under a key
/// derived from the server's secret key, in base64url. A token is not stored anywhere: any
/// instance sharing the key checks it, and a changed byte fails the check.
public struct ActionLinkSigner: Sendable {
    private let key: SymmetricKey
    private static let messageBytes = 17

    public init(secrets: SecretBox) {
        key = secrets.derivedKey(for: "hearth notification action links v1")
    }

    public func token(_ notification: UUID, _ action: NotificationAction) -> String {
        let message = Self.message(notification, action)
        return (message + Data(HMAC<SHA256>.authenticationCode(for: message, using: key))).base64URLEncodedString
    }

    /// The notification and action a token names, or nil when it is not one this key signed.
    public func verify(_ token: String) -> (notification: UUID, action: NotificationAction)? {
        guard token.utf8.count <= 80, let data = Data(base64URLEncoded: token), data.count == Self.messageBytes + 32 else { return nil }
        let message = data.prefix(Self.messageBytes)
        guard HMAC<SHA256>.isValidAuthenticationCode(data.suffix(32), authenticating: message, using: key),
              let action = NotificationAction.allCases.first(where: { $0.code == message.last }) else { return nil }
        let bytes = Array(message.prefix(16))
        let id = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                             bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return (id, action)
    }

    private static func message(_ notification: UUID, _ action: NotificationAction) -> Data {
        var data = withUnsafeBytes(of: notification.uuid) { Data($0) }
        data.append(action.code)
        return data
    }
}

/// A link a reminder carries: `POST` to it performs the action (`--public-url` + `/actions/<token>`).
public struct ActionLink: Sendable, Equatable, Codable {
    public var action: NotificationAction
    public var title: String
    public var url: String
}

extension ActionLinkSigner {
    /// A reminder's links under `publicURL`; none for other kinds of notification.
    func links(for notification: HouseholdNotification, publicURL: URL) -> [ActionLink] {
        guard notification.kind == .reminder, notification.taskID != nil else { return [] }
        return NotificationAction.allCases.map { action in
            ActionLink(action: action, title: action.title,
                       url: publicURL.appendingPathComponent("actions").appendingPathComponent(token(notification.id, action)).absoluteString)
        }
    }
}
