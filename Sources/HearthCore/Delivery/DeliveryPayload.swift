import Foundation

/// What a channel receives about one notification: small JSON (well within Web Push's 4 KiB),
/// the same for every channel kind (webhooks wrap it in the Standard Webhooks envelope).
public struct DeliveryPayload: Sendable, Equatable, Codable {
    public var id: UUID
    /// A ``NotificationKind`` raw value, or `TEST` for `testChannel`.
    public var kind: String
    public var title: String
    public var body: String
    /// LOW, NORMAL or HIGH.
    public var priority: String
    public var householdId: UUID?
    public var storeId: UUID?
    public var taskId: UUID?
    /// `COMPLETE` and `SNOOZE` for reminders (the client calls completeTask / snoozeReminder).
    public var actions: [String]
    /// A reminder's actions as links that work without a session (`POST` performs the action),
    /// when `--public-url` is set.
    public var actionLinks: [ActionLink]
    /// `--public-url` + `/notifications/<id>`, when that is set.
    public var url: String?

    public init(id: UUID, kind: String, title: String, body: String, priority: String, householdId: UUID? = nil, storeId: UUID? = nil,
                taskId: UUID? = nil, actions: [String] = [], actionLinks: [ActionLink] = [], url: String? = nil) {
        self.id = id
        self.kind = kind
        self.title = title
        self.body = body
        self.priority = priority
        self.householdId = householdId
        self.storeId = storeId
        self.taskId = taskId
        self.actions = actions
        self.actionLinks = actionLinks
        self.url = url
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, title, body, priority, householdId, storeId, taskId, actions, actionLinks, url
    }

    /// The `kind` of the message that closes a delivered reminder on the device once its item is
    /// completed or deleted: `{"id", "kind": "DISMISS"}`, nothing else.
    public static let dismissKind = "DISMISS"

    /// The message that closes notification `id` where it was shown.
    public static func dismissal(of id: UUID) -> DeliveryPayload {
        DeliveryPayload(id: id, kind: dismissKind, title: "", body: "", priority: "LOW")
    }

    /// Ids in lower case, as the API writes them; absent ones as null. A dismissal is its id and kind.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.lowercasedString, forKey: .id)
        try container.encode(kind, forKey: .kind)
        guard kind != Self.dismissKind else { return }
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(priority, forKey: .priority)
        try container.encode(householdId?.lowercasedString, forKey: .householdId)
        try container.encode(storeId?.lowercasedString, forKey: .storeId)
        try container.encode(taskId?.lowercasedString, forKey: .taskId)
        try container.encode(actions, forKey: .actions)
        try container.encode(actionLinks, forKey: .actionLinks)
        try container.encode(url, forKey: .url)
    }

    /// The JSON sent (keys sorted, so equal payloads are equal bytes).
    public var json: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data("{}".utf8)
    }
}
