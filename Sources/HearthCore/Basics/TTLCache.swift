import Foundation
import Synchronization

/// A bounded in-memory cache whose entries expire `ttl` after they were stored, by the service's
/// clock. Services use it in front of PostgreSQL and drop entries on every write.
///
/// A read that misses takes a ``ReadTicket`` before it queries; its ``store(_:for:readSince:)`` is
/// dropped when any invalidation came in between, so a value read before a write can never be
/// cached after the write's invalidation (which would resurrect it for a whole TTL).
public final class TTLCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    public let ttl: TimeInterval
    public let capacity: Int
    private let clock: any HearthClock
    private let state: Mutex<State>

    struct State {
        var entries: [Key: (value: Value, expires: Date)] = [:]
        /// Counts invalidations; a ticket remembers the count when its read began.
        var generation: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    /// What the cache holds and how often it answered.
    public struct Statistics: Sendable, Equatable {
        public var count: Int
        public var hits: Int
        public var misses: Int
        /// Hits over lookups; 0 before the first lookup.
        public var hitRate: Double { hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses) }
    }

    public init(ttl: TimeInterval, capacity: Int = 10_000, clock: any HearthClock) {
        self.ttl = ttl
        self.capacity = max(1, capacity)
        self.clock = clock
        self.state = Mutex(State())
    }

    /// The live value for `key`, counting a hit or a miss.
    public func value(for key: Key) -> Value? {
        let now = clock.now
        return state.withLock { state in
            guard let entry = state.entries[key] else {
                state.misses += 1
                return nil
            }
            guard entry.expires > now else {
                state.entries[key] = nil
                state.misses += 1
                return nil
            }
            state.hits += 1
            return entry.value
        }
    }

    /// When a read began, relative to invalidations.
    public struct ReadTicket: Sendable {
        fileprivate let generation: UInt64
    }

    /// Take before reading what will be stored.
    public func beginRead() -> ReadTicket {
        ReadTicket(generation: state.withLock { $0.generation })
    }

    /// Stores `value` for `key` until the TTL passes, unless an invalidation came since `ticket`
    /// was taken (then the value may predate a write: it is used once, not kept). When full,
    /// expired entries go first, then (if still full) everything: a cache refills cheaply, and a
    /// bound is what matters.
    public func store(_ value: Value, for key: Key, readSince ticket: ReadTicket) {
        let now = clock.now
        state.withLock { state in
            guard state.generation == ticket.generation else { return }
            if state.entries[key] == nil, state.entries.count >= capacity {
                state.entries = state.entries.filter { $0.value.expires > now }
                if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
            }
            state.entries[key] = (value, now.addingTimeInterval(ttl))
        }
    }

    /// Drops the entry for `key`.
    public func remove(_ key: Key) {
        state.withLock { state in
            state.generation &+= 1
            state.entries.removeValue(forKey: key)
        }
    }

    /// Drops every entry whose value matches `predicate` (all sessions of one user, say).
    public func removeAll(where predicate: (Value) -> Bool) {
        state.withLock { state in
            state.generation &+= 1
            state.entries = state.entries.filter { !predicate($0.value.value) }
        }
    }

    /// Drops everything.
    public func removeAll() {
        state.withLock { state in
            state.generation &+= 1
            state.entries.removeAll()
        }
    }

    public var statistics: Statistics {
        state.withLock { Statistics(count: $0.entries.count, hits: $0.hits, misses: $0.misses) }
    }
}
