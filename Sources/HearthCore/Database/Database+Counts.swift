import Foundation
import PostgresNIO

extension Database {
    /// The count a `SELECT count(*) …` statement returns (on `connection`, inside its transaction,
    /// when given); 0 without running it when not `wanted` (a page that does not show its total).
    func count(_ query: PostgresQuery, wanted: Bool = true, on connection: PostgresConnection? = nil) async throws -> Int {
        guard wanted else { return 0 }
        for try await total in try await self.query(query, on: connection, logger: logger).decode(Int.self) { return total }
        return 0
    }

    /// The counts of a grouped statement (`SELECT … AS key, count(*)::int8 AS count … GROUP BY 1`, a ``GroupCountRow``) by key; keys
    /// with no rows are absent. With `wanted` false nothing runs (a page that does not show its total).
    func counts(_ query: PostgresQuery, wanted: Bool = true) async throws -> [UUID: Int] {
        guard wanted else { return [:] }
        var counts: [UUID: Int] = [:]
        for row in try await client.query(query, logger: logger).rows(as: GroupCountRow.self) { counts[row.key] = Int(row.count) }
        return counts
    }

    /// The counts of a grouped prepared statement (``GroupCountRow``s) by key; keys with no rows are absent.
    func counts<Query: PreparedQuery>(_ query: Query) async throws -> [UUID: Int] where Query.Output == GroupCountRow {
        var counts: [UUID: Int] = [:]
        for row in try await rows(query) { counts[row.key] = Int(row.count) }
        return counts
    }
}

/// A row of a grouped count: its `key` and its `count`.
struct GroupCountRow: TypedRow {
    let key: UUID
    let count: Int64

    init(_ row: inout RowCells) throws {
        key = try row("key")
        count = try row("count")
    }
}
