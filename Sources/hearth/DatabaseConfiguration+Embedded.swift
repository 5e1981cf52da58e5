import HearthCore
import HearthPostgres

extension DatabaseConfiguration {
    /// The pool to the embedded cluster at `endpoint`.
    static func embedded(_ endpoint: EmbeddedPostgresEndpoint, poolSize: Int) -> DatabaseConfiguration {
        .unixSocket(endpoint.socketPath, username: endpoint.username, database: endpoint.database, poolSize: poolSize)
    }
}
