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

extension Database {
    /// Runs a prepared query; each row is read as the query's typed row.
    func rows<Query: PreparedQuery>(_ query: Query) async throws -> [Query.Output] {
        try await client.execute(query, logger: logger).rows(as: Query.Output.self)
    }
}
