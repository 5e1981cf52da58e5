import ServiceLifecycle

/// Runs alongside the other services and stops the embedded cluster when Hearth shuts down.
/// It sits first in the service group, so it stops last: after the server and the pool.
/// If the cluster dies on its own, it throws, which shuts Hearth down (it cannot work without it).
public struct EmbeddedPostgresService: Service {
    public let cluster: EmbeddedPostgres

    public init(cluster: EmbeddedPostgres) {
        self.cluster = cluster
    }

    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while await cluster.serverPID != nil {
                    try await Task.sleep(for: .milliseconds(250))
                }
            }
        } catch is CancellationError {
            await cluster.stop()
            return
        }
        if Task.isCancelled {
            await cluster.stop()
            return
        }
        await cluster.stop()
        throw EmbeddedPostgresExited()
    }
}

/// The embedded PostgreSQL server ended while Hearth still needed it.
public struct EmbeddedPostgresExited: Error, CustomStringConvertible {
    public var description: String { "the embedded PostgreSQL server exited unexpectedly; see its log lines above" }
}
