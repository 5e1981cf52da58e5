import Foundation
import Synchronization

/// The wall clock services read "now" from; injected so tests move time instead of sleeping.
public protocol HearthClock: Sendable {
    var now: Date { get }
}

/// The system's clock.
public struct SystemClock: HearthClock {
    public init() {}
    public var now: Date { Date() }
}

/// A clock that stands still until moved: for tests of expiry, rate-limit windows and TTLs.
public final class ManualClock: HearthClock {
    private let current: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    public var now: Date { current.withLock { $0 } }

    /// Moves the clock forward by `interval` seconds.
    public func advance(by interval: TimeInterval) {
        current.withLock { $0 += interval }
    }
}
