/// Thrown by ``withTimeout(_:operation:)`` when the operation did not finish in time.
public struct TimeoutError: Error, CustomStringConvertible, Sendable {
    public let limit: Duration
    public var description: String { "timed out after \(limit)" }
}

/// Runs `operation`, cancelling it and throwing ``TimeoutError`` if it takes longer than `limit`.
public func withTimeout<T: Sendable>(
    _ limit: Duration,
    operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            throw TimeoutError(limit: limit)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw TimeoutError(limit: limit) }
        return first
    }
}
