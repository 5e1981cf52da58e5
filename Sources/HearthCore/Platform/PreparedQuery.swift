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
    /// in the rows' order (parents without rows are absent).
    func children<Query: PreparedQuery, Value>(
        _ query: Query, by parent: KeyPath<Query.Output, UUID>, _ value: KeyPath<Query.Output, Value>
    ) async throws -> [UUID: [Value]] {
        var result: [UUID: [Value]] = [:]
        for row in try await rows(query) { result[row[keyPath: parent], default: []].append(row[keyPath: value]) }
        return result
    }
}
