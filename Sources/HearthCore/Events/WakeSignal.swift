import Foundation
import Synchronization

/// A doorbell for background loops: `ring()` wakes whoever waits in `wait(upTo:)`, or the next
/// to wait when nobody does (rings are remembered, not counted).
public final class WakeSignal: Sendable {
    private struct State {
        var rung = false
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    }
    private let state = Mutex(State())

    public init() {}

    public func ring() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.waiters.isEmpty else {
                state.rung = true
                return []
            }
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Whether someone waits now (for tests).
    public var isAwaited: Bool { state.withLock { !$0.waiters.isEmpty } }

    /// Returns once rung (at once when rung since the last wait), after `timeout`, or when cancelled.
    public func wait(upTo timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: timeout) }
            group.addTask { await self.waitForRing() }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitForRing() async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    if state.rung {
                        state.rung = false
                        return true
                    }
                    // Cancelled before registering: the handler below found nothing to resume.
                    if Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
