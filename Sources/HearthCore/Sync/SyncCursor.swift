import Foundation

/// Where a device's pull stands, opaque to clients (base64url JSON). A pull returns the changes
/// visible in `target` (a PostgreSQL snapshot taken when the pull began) and not visible in `base`
/// (the previous pull's target), in (transaction, type, id) order after `position`. A change
/// committed after `target` was taken is invisible in it, so the next pull — whose base is this
/// target — returns it, however early its transaction began: no change is skipped.
struct SyncCursor: Codable, Equatable {
    /// The household the cursor belongs to.
    var household: UUID
    /// The snapshot the previous pull read up to; nil for a snapshot pull.
    var base: String?
    /// When `base` was taken: a cursor older than the retention time has expired.
    var baseAt: Date?
    /// The snapshot this pull reads up to; nil when the pull finished (the next one takes a new target).
    var target: String?
    var targetAt: Date?
    /// The last change returned in this pull.
    var position: Position?

    struct Position: Codable, Equatable {
        var xid: String
        var type: String
        var id: String
        var person: String
    }

    enum CodingKeys: String, CodingKey {
        case household = "h", base = "b", baseAt = "ba", target = "t", targetAt = "ta", position = "p"
    }

    var encoded: String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return ((try? encoder.encode(self)) ?? Data()).base64URLEncodedString
    }

    /// The cursor in `text`, when it is one of the household's; a clear `BAD_USER_INPUT` otherwise.
    static func decode(_ text: String, household: UUID) throws(ServiceError) -> SyncCursor {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard text.utf8.count <= 16_384, let data = Data(base64URLEncoded: text),
              let cursor = try? decoder.decode(SyncCursor.self, from: data),
              cursor.base.map(Self.isSnapshot) ?? true, cursor.target.map(Self.isSnapshot) ?? true,
              cursor.position.map({ isXID($0.xid) }) ?? true, cursor.base != nil || cursor.target != nil
        else {
            throw .invalidInput(field: "after", message: "after is not a sync cursor; pass the cursor a sync page returned, or null for a snapshot.")
        }
        guard cursor.household == household else {
            throw .invalidInput(field: "after", message: "after is another household's sync cursor; each household has its own.")
        }
        return cursor
    }

    /// `xmin:xmax:xip,…` as PostgreSQL writes a snapshot (checked before it is bound as one).
    static func isSnapshot(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, isXID(String(parts[0])), isXID(String(parts[1])) else { return false }
        return parts[2].isEmpty || parts[2].split(separator: ",").allSatisfy { isXID(String($0)) }
    }

    static func isXID(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 20 && text.allSatisfy(\.isASCII) && text.allSatisfy(\.isNumber)
    }
}

extension Database {
    /// The current PostgreSQL snapshot (`xmin:xmax:xip,…`): what a pull or a calendar sync reads up to.
    func currentSnapshot() async throws -> String {
        let rows = try await client.query("SELECT pg_current_snapshot()::text", logger: logger)
        for try await snapshot in rows.decode(String.self) { return snapshot }
        throw ServiceError.notFound("Snapshot")
    }
}

extension SQLCondition {
    /// Change-log rows (`c`) not yet seen after the snapshot `base`: written by a transaction
    /// invisible in it; with no base, every live record.
    static func changed(since base: String?) -> SQLCondition {
        base.map { base in
            .predicate([.sql("c.xid >= pg_snapshot_xmin("), .bind(.text(base)), .sql("::pg_snapshot) AND NOT pg_visible_in_snapshot(c.xid, "),
                        .bind(.text(base)), .sql("::pg_snapshot)")])
        } ?? .predicate([.sql("NOT c.deleted")])
    }
}
