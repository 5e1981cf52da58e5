@_exported import HearthPostgres
import HearthCore

extension DatabaseConfiguration {
    /// The pool to the test cluster's database at `endpoint`.
    public static func embedded(_ endpoint: EmbeddedPostgresEndpoint, poolSize: Int) -> DatabaseConfiguration {
        .unixSocket(endpoint.socketPath, username: endpoint.username, database: endpoint.database, poolSize: poolSize)
    }
}
