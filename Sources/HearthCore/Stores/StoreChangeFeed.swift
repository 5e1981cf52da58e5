import Foundation
import Synchronization

/// What one committed sync changed, for live subscribers.
public struct StoreChangeBatch: Sendable {
    public var householdID: UUID
    public var storeID: UUID
    /// The change events written, oldest first.
    public var eventIDs: [Int64]
    /// The notifications the sync wrote, one per member at most.
    public var notifications: [StoreNotification]
}

/// Fans committed syncs out to this process's subscribers (`storeEvents`,
/// `notificationReceived`). Subscribers read the events themselves, so a batch carries ids only.
public final class StoreChangeFeed: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<StoreChangeBatch>.Continuation]>([:])

    public init() {}

    /// Every batch published from now on, until the stream is dropped.
    public func subscribe() -> AsyncStream<StoreChangeBatch> {
        let (stream, continuation) = AsyncStream.makeStream(of: StoreChangeBatch.self, bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    func publish(_ batch: StoreChangeBatch) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(batch) }
    }

    /// Subscribers now (for health and tests).
    public var subscriberCount: Int { subscribers.withLock { $0.count } }
}
