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
    /// `--public-url` + `/notifications/<id>`, when that is set.
    public var url: String?

    public init(id: UUID, kind: String, title: String, body: String, priority: String, householdId: UUID? = nil, storeId: UUID? = nil,
                taskId: UUID? = nil, actions: [String] = [], url: String? = nil) {
        self.id = id
        self.kind = kind
        self.title = title
        self.body = body
        self.priority = priority
        self.householdId = householdId
        self.storeId = storeId
        self.taskId = taskId
        self.actions = actions
        self.url = url
    }

    /// The JSON sent (keys sorted, so equal payloads are equal bytes).
    public var json: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data("{}".utf8)
    }
}
