import Logging
import ServiceLifecycle

/// Runs alongside the other services, keeps the embedded cluster running and stops it when Hearth
/// shuts down. It sits first in the service group, so it stops last: after the server and the pool.
///
/// When the cluster ends on its own (an OOM kill, someone's `pg_ctl stop`, a crash) Hearth does
/// not end with it: it keeps serving (`/healthz` 200, `/readyz` 503, requests that need the
/// database get a clear error) and starts the cluster again, waiting longer between failed
/// attempts (``restartDelay`` doubling up to ``maximumRestartDelay``) and logging each attempt and
/// why it failed. The pool reconnects by itself once the server is back at the same socket.
public struct EmbeddedPostgresService: Service {
    public let cluster: EmbeddedPostgres
    /// Told when the server is found away, and when it runs again (the database's status, so
    /// requests are answered at once meanwhile).
    let whenDown: @Sendable () -> Void
    let whenUp: @Sendable () -> Void
    let logger: Logger
    /// The wait before the first attempt to start the server again, doubled after each failed one.
    public var restartDelay: Duration
    public var maximumRestartDelay: Duration
    /// How often the server's process is looked at.
    var watchInterval: Duration = .milliseconds(100)

    public init(cluster: EmbeddedPostgres, logger: Logger, restartDelay: Duration = .seconds(1), maximumRestartDelay: Duration = .seconds(30),
                whenDown: @escaping @Sendable () -> Void = {}, whenUp: @escaping @Sendable () -> Void = {}) {
        self.cluster = cluster
        (self.whenDown, self.whenUp) = (whenDown, whenUp)
        self.logger = logger
        self.restartDelay = restartDelay
        self.maximumRestartDelay = maximumRestartDelay
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await supervise()
        }
        await cluster.stop()
    }

    /// Watches the server until cancelled, starting it again whenever it has ended.
    private func supervise() async {
        while !Task.isCancelled {
            while await cluster.serverPID != nil {
                do { try await Task.sleep(for: watchInterval) } catch { return }
            }
            whenDown()
            logger.error("the embedded PostgreSQL server exited unexpectedly; Hearth keeps running and starts it again",
                         metadata: ["data_dir": "\(cluster.configuration.absoluteDataDirectory)"])
            await cluster.stop()  // releases what the ended server held (its lock, its endpoint)
            guard await restart() else { return }
        }
    }

    /// Starts the cluster again (after ``restartDelay``, which lets what the ended server left
    /// behind go) until it runs (true) or the task is cancelled (false).
    private func restart() async -> Bool {
        var delay = restartDelay
        var attempt = 1
        while !Task.isCancelled {
            do { try await Task.sleep(for: delay) } catch { return false }
            do {
                _ = try await cluster.start()
                whenUp()
                logger.notice("the embedded PostgreSQL server is running again", metadata: ["attempt": "\(attempt)"])
                return true
            } catch {
                delay = max(.milliseconds(250), min(delay * 2, maximumRestartDelay))
                logger.error("starting the embedded PostgreSQL server again failed; trying again", metadata: [
                    "attempt": "\(attempt)", "error": "\(error)", "next_attempt_in": "\(delay)",
                ])
            }
            attempt += 1
        }
        return false
    }
}
