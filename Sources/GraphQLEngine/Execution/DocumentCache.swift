import Synchronization

/// Parsed and validated documents, kept in a least-recently-used cache bounded both by entries
/// and by the total size of their texts (a few large documents cannot hold much memory).
///
/// Entries are keyed by ``ExecutorConfiguration/documentKey`` of the text (the host passes a
/// SHA-256 digest, so keys stay small whatever the document's size), or by the text itself.
/// Only documents that passed every check are kept: a refused document is prepared again each
/// time, so junk cannot push useful documents out or pin memory.
public final class DocumentCache: Sendable {
    public let capacity: Int
    /// Most bytes of document text held at once.
    public let maxBytes: Int
    private let hitCount = Atomic<Int>(0)
    private let missCount = Atomic<Int>(0)
    private let key: @Sendable (String) -> String

    private struct Entry {
        var document: PreparedDocument
        var bytes: Int
        var previous: String?
        var next: String?
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
        var newest: String?
        var oldest: String?
    }

    private let state = Mutex(State())

    public init(capacity: Int, maxBytes: Int = .max, key: (@Sendable (String) -> String)? = nil) {
        self.capacity = max(0, capacity)
        self.maxBytes = max(0, maxBytes)
        self.key = key ?? { $0 }
    }

    public var hits: Int { hitCount.load(ordering: .relaxed) }
    public var misses: Int { missCount.load(ordering: .relaxed) }
    public var count: Int { state.withLock { $0.entries.count } }
    /// Bytes of document text held now.
    public var bytes: Int { state.withLock { $0.bytes } }

    /// The cached document for `query`, or the one `make` prepares (then cached if it is valid
    /// and fits).
    func document(for query: String, make: () -> PreparedDocument) -> PreparedDocument {
        let size = query.utf8.count
        if capacity == 0 || size > maxBytes { return make() }
        let key = key(query)
        if let found = state.withLock({ state -> PreparedDocument? in
            guard let entry = state.entries[key] else { return nil }
            Self.moveToFront(key, &state)
            return entry.document
        }) {
            hitCount.add(1, ordering: .relaxed)
            return found
        }
        missCount.add(1, ordering: .relaxed)
        let prepared = make()
        guard prepared.refusal == nil, prepared.errors.isEmpty else { return prepared }
        state.withLock { state in
            guard state.entries[key] == nil else { return }
            state.entries[key] = Entry(document: prepared, bytes: size, previous: nil, next: state.newest)
            state.bytes += size
            if let newest = state.newest { state.entries[newest]?.previous = key }
            state.newest = key
            if state.oldest == nil { state.oldest = key }
            while state.entries.count > capacity || state.bytes > maxBytes, let oldest = state.oldest {
                Self.unlink(oldest, &state)
                state.bytes -= state.entries.removeValue(forKey: oldest)?.bytes ?? 0
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
