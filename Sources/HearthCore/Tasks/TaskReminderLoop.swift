import Foundation
import Logging
import ServiceLifecycle

/// The background reminder sender: every `pollInterval` it delivers the reminders that are due
/// (leased per item, so with several instances each reminder is sent once) and announces each
/// to subscribers (here and, over the event bus, elsewhere). Stops on graceful shutdown.
public struct TaskReminderLoop: Service {
    let tasks: TaskService
    let pollInterval: Duration
    let ready: (@Sendable () async -> Void)?

    /// `ready`, when given, is awaited before the first round (the server's migrations, say).
    public init(tasks: TaskService, pollInterval: Duration = .seconds(15), startWhen ready: (@Sendable () async -> Void)? = nil) {
        self.tasks = tasks
        self.pollInterval = pollInterval
        self.ready = ready
    }

    public func run() async throws {
        guard await awaitReady(ready) else { return }
        let logger = tasks.logger
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                let sent = try await runRound()
                if sent > 0 { logger.info("reminders sent", metadata: ["count": "\(sent)"]) }
            } catch is CancellationError {
                break
            } catch {
                logger.error("reminder loop failed; retrying", metadata: ["error": "\(Database.describe(error))"])
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
