import Foundation
import PostgresNIO

/// A statement of fixed text that PostgreSQL parses and plans once per connection (PostgresNIO
/// prepares it on a connection's first use, by the type's name) instead of on every call: the
/// hot statements of a request's batched loads. Its rows are read as ``Output`` (a typed row);
/// its text must name its columns (no `*`) so a migration cannot change what a prepared plan returns.
protocol PreparedQuery: PostgresPreparedStatement where Row == PostgresRow {
    associatedtype Output: TypedRow
}

extension PreparedQuery {
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }

    /// The statement's name on a connection: its text's digest. PostgreSQL cuts names at 63 bytes,
    /// which a type's full name (`HearthCore.StoreService.UnreadCounts<HearthCore.StoreService.ByStore>`)
    /// passes, so two variants of one generic statement would share a name; the same text, by
    /// whichever type, shares one prepared statement.
    static var name: String { preparedName(sql) }
}

/// The parents of a batched prepared statement, the uuid[] parameter `ids`, as rows of `id`. Their
/// number, the parameter `count`, is bound as a `LIMIT` that keeps them all: it makes PostgreSQL
/// cost its generic plan for one parent (what most calls ask) rather than ten (its guess for an
/// array), so it keeps that plan for every call instead of planning each one again.
///
/// `page`, a bigint parameter, rides along as each parent's column `page`: a child query that
/// ends `LIMIT parent.page` then costs the same whatever the page's size, where `LIMIT $n` is
/// costed at a tenth of the rows until its value is known, so PostgreSQL planned such a page
/// again on every call (a plan for 51 rows looked cheaper than the generic one).
func parentRows(_ ids: String, count: String, page: String? = nil) -> String {
    let pageColumn = page.map { ", \($0)::int8 AS page" } ?? ""
    return "(SELECT unnest(\(ids)::uuid[]) AS id\(pageColumn) LIMIT \(count))"
}

extension PostgresBindings {
    /// `$1` and `$2` of a statement reading its parents as ``parentRows(_:count:page:)`` does: the
    /// parents' ids and their number; the statement's own parameters follow.
    init(parents ids: [UUID]) {
        self.init()
        append(ids)
        append(ids.count)
    }
}

/// A type standing for one value of a list's `Sort`, so that a prepared statement has one text
/// per sort (PostgresNIO reads a statement's text from its type).
protocol SortCase<Sort>: Sendable {
    associatedtype Sort
    static var sort: Sort { get }
}

/// A typed row followed by its page's sort key, `sort_key`, as text (NULL when there is none).
struct KeyedRow<Row: TypedRow>: TypedRow {
    let row: Row
    let key: String?

    init(_ cells: inout RowCells) throws {
        row = try Row(&cells)
        key = try cells("sort_key")
    }
}

/// `hearth_` and the FNV-1a digest of `sql` in hex: 23 bytes, the same for the same text.
func preparedName(_ sql: String) -> String {
    var digest: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in sql.utf8 {
        digest ^= UInt64(byte)
        digest = digest &* 0x0000_0100_0000_01b3
    }
    let hex = String(digest, radix: 16)
    return "hearth_" + String(repeating: "0", count: 16 - hex.count) + hex
}

/// A prepared query whose one parameter, `$1`, is a list of ids: the parents of a batched load.
protocol IDListQuery: PreparedQuery {
    var ids: [UUID] { get }
}

extension IDListQuery {
    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(ids)
        return bindings
    }
}

extension Database {
    /// Runs a prepared query; each row is read as the query's typed row.
    func rows<Query: PreparedQuery>(_ query: Query) async throws -> [Query.Output] {
        try await client.execute(query, logger: logger).rows(as: Query.Output.self)
    }

    /// Runs a prepared query of a batch's children: each row's `value`, grouped by its `parent`
    /// in the rows' order (parents without rows are absent). A statement that orders its rows by
    /// parent first hands each parent one array made at its size: one allocation a parent.
    /// `parent` and `value` are closures, not key paths: a key path (or one passed where a
    /// function is expected) is read through the runtime, which looks its types up for every row.
    func children<Query: PreparedQuery, Value>(
        _ query: Query, by parent: (Query.Output) -> UUID, _ value: (Query.Output) -> Value
    ) async throws -> [UUID: [Value]] {
        let rows = try await rows(query)
        var result: [UUID: [Value]] = [:]
        result.reserveCapacity(rows.count)  // at most one parent a row: no growing on the way
        var start = rows.startIndex
        while start < rows.endIndex {
            let key = parent(rows[start])
            var end = start + 1
            while end < rows.endIndex, parent(rows[end]) == key { end += 1 }
            let run = rows[start..<end].map(value)
            if result[key] == nil { result[key] = run } else { result[key]?.append(contentsOf: run) }
            start = end
        }
        return result
    }
}
