import Foundation
import Logging
import ServiceLifecycle

/// The background sync: claims due stores (leased, so instances never sync one store at once),
/// syncs up to ``StoresConfiguration/concurrency`` of them at a time, prunes old snapshots, and
/// sleeps when nothing is due. Stops between stores on graceful shutdown.
public struct StoreSyncLoop: Service {
    let stores: StoreService
    let ready: (@Sendable () async -> Void)?

    /// `ready`, when given, is awaited before the first round (the server's migrations, say).
    public init(stores: StoreService, startWhen ready: (@Sendable () async -> Void)? = nil) {
        self.stores = stores
        self.ready = ready
    }

    public func run() async throws {
        guard await awaitReady(ready) else { return }
        stores.loopState.withLock { $0.running = true }
        defer { stores.loopState.withLock { $0.running = false } }
        let logger = stores.logger
        logger.info("store sync loop started", metadata: [
            "interval": "\(stores.configuration.syncInterval)", "concurrency": "\(stores.configuration.concurrency)",
            "instance": "\(stores.configuration.instanceID)",
        ])
        var lastPrune: ContinuousClock.Instant?
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                let synced = try await runRound()
                if lastPrune.map({ ContinuousClock.now - $0 > .seconds(3600) }) ?? true {
                    let pruned = try await stores.pruneSnapshots()
                    if pruned > 0 { logger.info("old price snapshots deleted", metadata: ["count": "\(pruned)"]) }
                    lastPrune = .now
                }
                if synced > 0 { continue }
            } catch is CancellationError {
                break
            } catch {
                logger.error("store sync loop failed; retrying", metadata: ["error": "\(ErrorText.oneLine(error))"])
            }
            try? await gracefulShutdownSleep(stores.configuration.pollInterval)
        }
        logger.info("store sync loop stopped")
    }

    /// Claims and syncs due stores until none is due; returns how many syncs ran. Each claim
    /// takes at most ``StoresConfiguration/concurrency`` stores, synced concurrently.
    @discardableResult
    public func runRound() async throws -> Int {
        var total = 0
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let claimed = try await stores.claimDue(limit: max(1, stores.configuration.concurrency))
            if claimed.isEmpty { break }
            let service = stores
            let results = await withTaskGroup(of: Bool.self) { group in
                for store in claimed {
                    group.addTask {
                        do {
                            return try await service.sync(store).error == nil
                        } catch {
                            service.logger.error("store sync failed", metadata: ["store": "\(store.id)", "error": "\(ErrorText.oneLine(error))"])
                            return false
                        }
                    }
                }
                var outcomes: [Bool] = []
                for await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
            total += results.count
            let succeeded = results.filter { $0 }.count
            stores.loopState.withLock {
                $0.syncs += succeeded
                $0.failures += results.count - succeeded
            }
            await Task.yield()
        }
        stores.loopState.withLock { $0.lastRunAt = stores.clock.now }
        return total
    }
}
