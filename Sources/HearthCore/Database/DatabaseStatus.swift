import Synchronization

/// Whether the database is known to be away — the embedded server ended and is being started
/// again — so requests are answered at once (`SERVICE_UNAVAILABLE`, readiness 503) instead of
/// waiting for a pooled connection that cannot come until their deadline.
public final class DatabaseStatus: Sendable {
    private let down = Atomic<Bool>(false)

    public init() {}

    public var isKnownDown: Bool { down.load(ordering: .acquiring) }

    public func markDown() { down.store(true, ordering: .releasing) }
    public func markUp() { down.store(false, ordering: .releasing) }
}
