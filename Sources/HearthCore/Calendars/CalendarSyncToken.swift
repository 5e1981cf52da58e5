import Foundation

/// A calendar's sync token (RFC 6578), a URI opaque to apps: `http://hearth.invalid/ns/sync/<base64url
/// JSON>`. Like a sync cursor it holds PostgreSQL snapshots, so no change is skipped however late
/// its transaction commits: the next sync returns what is visible in a new snapshot (`target`)
/// and was not in the last one (`base`). A truncated answer's token keeps the target and the last
/// change returned (`position`), so the next request continues it.
struct CalendarSyncToken: Codable, Equatable {
    /// The calendar (`<household id>-tasks` or `-events`) it belongs to.
    var collection: String
    var base: String?
    var baseAt: Date?
    var target: String?
    var targetAt: Date?
    var position: Position?

    struct Position: Codable, Equatable {
        var xid: String
        var id: String
    }

    enum CodingKeys: String, CodingKey {
        case collection = "c", base = "b", baseAt = "ba", target = "t", targetAt = "ta", position = "p"
    }

    static let prefix = "http://hearth.invalid/ns/sync/"

    var uri: String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return Self.prefix + ((try? encoder.encode(self)) ?? Data()).base64URLEncodedString
    }

    /// The token `uri` stands for; nil when it is not one Hearth gave.
    init?(uri: String) {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard uri.utf8.count <= 4096, uri.hasPrefix(Self.prefix), let data = Data(base64URLEncoded: String(uri.dropFirst(Self.prefix.count))),
              let token = try? decoder.decode(CalendarSyncToken.self, from: data),
              token.base.map(SyncCursor.isSnapshot) ?? true, token.target.map(SyncCursor.isSnapshot) ?? true,
              token.position.map({ SyncCursor.isXID($0.xid) && $0.id.utf8.count <= 64 }) ?? true, token.base != nil || token.target != nil
        else { return nil }
        self = token
    }

    init(collection: String, base: String? = nil, baseAt: Date? = nil) {
        self.collection = collection
        self.base = base
        self.baseAt = baseAt
    }
}
