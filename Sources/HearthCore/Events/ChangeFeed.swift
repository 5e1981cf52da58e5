import Foundation
import Synchronization

/// Fans committed changes out to this process's subscribers (GraphQL subscriptions); other
/// instances' changes are published here too when they arrive over the event bus. A slow
/// subscriber keeps the newest 256 events.
public final class ChangeFeed<Event: Sendable>: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<Event>.Continuation]>([:])

    public init() {}

    /// Every event published from now on, until the stream is dropped.
    public func subscribe() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    func publish(_ event: Event) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(event) }
    }

    /// Subscribers now (for health and tests).
    public var subscriberCount: Int { subscribers.withLock { $0.count } }
}
