import Foundation
import Synchronization

/// A bounded in-memory cache whose entries expire `ttl` after they were stored, by the service's
/// clock. Services use it in front of PostgreSQL and drop entries on every write.
public final class TTLCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    public let ttl: TimeInterval
    public let capacity: Int
    private let clock: any HearthClock
    private let state: Mutex<State>

    struct State {
        var entries: [Key: (value: Value, expires: Date)] = [:]
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

    /// Stores `value` for `key` until the TTL passes. When full, expired entries go first, then
    /// (if still full) everything: a cache refills cheaply, and a bound is what matters.
    public func store(_ value: Value, for key: Key) {
        let now = clock.now
        state.withLock { state in
            if state.entries[key] == nil, state.entries.count >= capacity {
                state.entries = state.entries.filter { $0.value.expires > now }
                if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
            }
            state.entries[key] = (value, now.addingTimeInterval(ttl))
        }
    }

    /// Drops the entry for `key`.
    public func remove(_ key: Key) {
        _ = state.withLock { $0.entries.removeValue(forKey: key) }
    }

    /// Drops every entry whose value matches `predicate` (all sessions of one user, say).
    public func removeAll(where predicate: (Value) -> Bool) {
        state.withLock { state in state.entries = state.entries.filter { !predicate($0.value.value) } }
    }

    /// Drops everything.
    public func removeAll() {
        state.withLock { $0.entries.removeAll() }
    }

    public var statistics: Statistics {
        state.withLock { Statistics(count: $0.entries.count, hits: $0.hits, misses: $0.misses) }
    }
}
