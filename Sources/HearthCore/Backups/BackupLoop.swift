import Foundation
import ServiceLifecycle

/// The background backup maker: every `pollInterval` it looks whether a scheduled backup is due
/// (``ScheduledBackups/runRound()``) and refreshes the backup metrics. Stops on graceful shutdown;
/// a backup cut off mid-way leaves only a `.partial` file, and the next start makes one again.
public struct BackupLoop: Service {
    let backups: ScheduledBackups
    let ready: (@Sendable () async -> Void)?

    /// `ready`, when given, is awaited before the first round (the server's migrations, say).
    public init(backups: ScheduledBackups, startWhen ready: (@Sendable () async -> Void)? = nil) {
        self.backups = backups
        self.ready = ready
    }

    public func run() async throws {
        guard await awaitReady(ready) else { return }
        var first = true
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            defer { first = false }
            do {
                // A start may follow mended settings: a failed backup is tried again at once.
                if case .notDue = try await backups.runRound(retryingNow: first) { await backups.refreshMetrics() }
            } catch is CancellationError {
                break
            } catch {
                backups.logger.error("backup loop failed; retrying", metadata: ["error": "\(ErrorText.oneLine(error))"])
            }
            try? await gracefulShutdownSleep(backups.schedule.pollInterval)
        }
    }
}
