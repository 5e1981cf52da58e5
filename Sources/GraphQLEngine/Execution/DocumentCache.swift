import Synchronization

/// Parsed and validated documents, kept in a bounded least-recently-used cache keyed by the
/// query text (hashed by the dictionary; the text itself is compared, so collisions are harmless).
public final class DocumentCache: Sendable {
    public let capacity: Int
    private let hitCount = Atomic<Int>(0)
    private let missCount = Atomic<Int>(0)

    private struct Entry {
        var document: PreparedDocument
        var previous: String?
        var next: String?
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var newest: String?
        var oldest: String?
    }

    private let state = Mutex(State())

    public init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    public var hits: Int { hitCount.load(ordering: .relaxed) }
    public var misses: Int { missCount.load(ordering: .relaxed) }
    public var count: Int { state.withLock { $0.entries.count } }

    /// The cached document for `query`, or the one `make` prepares (then cached).
    func document(for query: String, make: () -> PreparedDocument) -> PreparedDocument {
        if capacity == 0 { return make() }
        if let found = state.withLock({ state -> PreparedDocument? in
            guard let entry = state.entries[query] else { return nil }
            Self.moveToFront(query, &state)
            return entry.document
        }) {
            hitCount.add(1, ordering: .relaxed)
            return found
        }
        missCount.add(1, ordering: .relaxed)
        let prepared = make()
        state.withLock { state in
            guard state.entries[query] == nil else { return }
            state.entries[query] = Entry(document: prepared, previous: nil, next: state.newest)
            if let newest = state.newest { state.entries[newest]?.previous = query }
            state.newest = query
            if state.oldest == nil { state.oldest = query }
            while state.entries.count > capacity, let oldest = state.oldest {
                Self.unlink(oldest, &state)
                state.entries[oldest] = nil
            }
        }
        return prepared
    }

    private static func unlink(_ key: String, _ state: inout State) {
        guard let entry = state.entries[key] else { return }
        if let previous = entry.previous { state.entries[previous]?.next = entry.next } else { state.newest = entry.next }
        if let next = entry.next { state.entries[next]?.previous = entry.previous } else { state.oldest = entry.previous }
        state.entries[key]?.previous = nil
        state.entries[key]?.next = nil
    }

    private static func moveToFront(_ key: String, _ state: inout State) {
        guard state.newest != key else { return }
        unlink(key, &state)
        state.entries[key]?.next = state.newest
        if let newest = state.newest { state.entries[newest]?.previous = key }
        state.newest = key
        if state.oldest == nil { state.oldest = key }
    }
}
