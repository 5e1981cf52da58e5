import Foundation
import Logging
import ServiceLifecycle

/// The background sender: as soon as deliveries are queued (on any instance), and every
/// `pollInterval` for retries that came due, it sends the deliveries that are due (leased per
/// delivery, so with several instances each is attempted by one at a time), until none is left.
/// Stops on graceful shutdown; a delivery cut off mid-send is retried once its lease runs out.
public struct DeliveryLoop: Service {
    let delivery: DeliveryService
    let pollInterval: Duration
    let ready: (@Sendable () async -> Void)?

    /// `ready`, when given, is awaited before the first round (the server's migrations, say).
    public init(delivery: DeliveryService, pollInterval: Duration = .seconds(2), startWhen ready: (@Sendable () async -> Void)? = nil) {
        self.delivery = delivery
        self.pollInterval = pollInterval
        self.ready = ready
    }

    public func run() async throws {
        guard await awaitReady(ready) else { return }
        let logger = delivery.logger
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                let attempted = try await runRound()
                if attempted > 0 { logger.debug("deliveries attempted", metadata: ["count": "\(attempted)"]) }
            } catch is CancellationError {
                break
            } catch {
                logger.error("delivery loop failed; retrying", metadata: ["error": "\(ErrorText.oneLine(error))"])
            }
            await cancelWhenGracefulShutdown { await delivery.queued.wait(upTo: pollInterval) }
        }
    }

    /// Most deliveries one call of `deliverDue` attempts (it stops sooner when none is left).
    static let roundLimit = 10_000

    /// Sends due deliveries until none is left; returns how many were attempted.
    @discardableResult
    public func runRound() async throws -> Int {
        var total = 0
        var attempted = 0
        repeat {
            attempted = try await delivery.deliverDue(limit: Self.roundLimit)
            total += attempted
        } while attempted == Self.roundLimit && !Task.isShuttingDownGracefully && !Task.isCancelled
        return total
    }
}
