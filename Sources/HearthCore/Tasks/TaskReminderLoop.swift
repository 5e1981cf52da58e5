import Foundation
import Logging
import ServiceLifecycle

/// The background reminder sender: every `pollInterval` it delivers the reminders that are due
/// (leased per item, so with several instances each reminder is sent once) and announces each
/// to subscribers (here and, over the event bus, elsewhere). It also runs the installation's
/// housekeeping (pruning sync tombstones) once an hour. Stops on graceful shutdown.
public struct TaskReminderLoop: Service {
    let tasks: TaskService
    let pollInterval: Duration
    let housekeeping: (@Sendable () async throws -> Void)?
    let ready: (@Sendable () async -> Void)?

    /// `ready`, when given, is awaited before the first round (the server's migrations, say);
    /// `housekeeping` runs at the first round and then hourly.
    public init(tasks: TaskService, pollInterval: Duration = .seconds(15), housekeeping: (@Sendable () async throws -> Void)? = nil,
                startWhen ready: (@Sendable () async -> Void)? = nil) {
        self.tasks = tasks
        self.pollInterval = pollInterval
        self.housekeeping = housekeeping
        self.ready = ready
    }

    public func run() async throws {
        guard await awaitReady(ready) else { return }
        let logger = tasks.logger
        var lastHousekeeping: ContinuousClock.Instant?
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                let sent = try await runRound()
                if sent > 0 { logger.info("reminders sent", metadata: ["count": "\(sent)"]) }
                if let housekeeping, lastHousekeeping.map({ ContinuousClock.now - $0 > .seconds(3600) }) ?? true {
                    lastHousekeeping = .now
                    try await housekeeping()
                }
            } catch is CancellationError {
                break
            } catch {
                logger.error("reminder loop failed; retrying", metadata: ["error": "\(ErrorText.oneLine(error))"])
            }
            try? await gracefulShutdownSleep(pollInterval)
        }
    }

    /// Delivers due reminders until none is left; returns how many were sent.
    @discardableResult
    public func runRound() async throws -> Int {
        var total = 0
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let sent = try await tasks.deliverDueReminders()
            guard !sent.isEmpty else { break }
            total += sent.count
            await tasks.announce(sent)
            await Task.yield()
        }
        return total
    }
}
