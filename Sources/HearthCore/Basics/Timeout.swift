import Synchronization

/// Thrown by ``withTimeout(_:operation:)`` when the operation did not finish in time.
public struct TimeoutError: Error, CustomStringConvertible, Sendable {
    public let limit: Duration
    public var description: String { "timed out after \(limit)" }
}

/// Runs `operation`, throwing ``TimeoutError`` if it takes longer than `limit`.
///
/// Returns at the limit even when the operation ignores cancellation (a connection-pool lease
/// waiting for a server that is down does): the operation is cancelled and left to finish alone.
public func withTimeout<T: Sendable>(
    _ limit: Duration,
    operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = TimeoutOutcome<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            outcome.install(continuation)
            let work = Task {
                do {
                    outcome.finish(.success(try await operation()))
                } catch {
                    outcome.finish(.failure(error))
                }
            }
            let timer = Task {
                try? await Task.sleep(for: limit)
                outcome.finish(.failure(TimeoutError(limit: limit)))
                work.cancel()
            }
            outcome.onFinish { work.cancel(); timer.cancel() }
        }
    } onCancel: {
        outcome.finish(.failure(CancellationError()))
    }
}

/// The first of (result, timeout, cancellation) wins and resumes the waiting caller once.
private final class TimeoutOutcome<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var early: Result<T, any Error>?
        var finished = false
        var cleanup: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    func install(_ continuation: CheckedContinuation<T, any Error>) {
        let early = state.withLock { state -> Result<T, any Error>? in
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    func onFinish(_ cleanup: @escaping @Sendable () -> Void) {
        let already = state.withLock { state -> Bool in
            if state.finished { return true }
            state.cleanup = cleanup
            return false
        }
        if already { cleanup() }
    }

    func finish(_ result: Result<T, any Error>) {
        let (continuation, cleanup) = state.withLock { state -> (CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?) in
            guard !state.finished else { return (nil, nil) }
            state.finished = true
            if state.continuation == nil { state.early = result }
            defer { state.continuation = nil; state.cleanup = nil }
            return (state.continuation, state.cleanup)
        }
        continuation?.resume(with: result)
        cleanup?()
    }
}
