import Synchronization

/// Batches and caches loads by key for one request, so a level of a query costs one batch call
/// per loader instead of one call per field.
///
/// Loads issued while the executor resolves a level are queued; when every running resolver of
/// the level is waiting on a loader (or done), the queued keys go to the batch function together.
/// Values (and errors) are cached per key for the rest of the request.
public final class DataLoader<Key: Hashable & Sendable, Value: Sendable>: Sendable, BatchDispatching {
    /// The batch function: one result per key, in the keys' order.
    public typealias Batch = @Sendable ([Key]) async throws -> [Result<Value, any Error>]

    // The load path is inlinable so that callers get it specialized for their key and value
    // types (unspecialized, every call looks up generic metadata at run time).

    /// One key's value: pending until its batch answers, with the loads waiting for it.
    @usableFromInline
    enum Entry {
        case pending
        /// One load waits (most keys): no array for it.
        case waiting(UnsafeContinuation<Value, any Error>)
        case waitingMany([UnsafeContinuation<Value, any Error>])
        case done(Result<Value, any Error>)
    }

    /// Every key's entry lives in one array under the loader's lock, found by position: no object
    /// and no lock of its own per key.
    @usableFromInline
    struct State {
        @usableFromInline var positions: [Key: Int] = [:]
        @usableFromInline var entries: [Entry] = []
        /// The keys for the next batch, and their entries' positions in the same order.
        @usableFromInline var queue: [Key] = []
        @usableFromInline var queuedPositions: [Int] = []
        @usableFromInline init() {}
    }

    /// Hands the entries at some positions their batch's results. Made where the loader is made
    /// (inlined into the host's code), so it runs specialized for `Value`: ``dispatchQueued()`` is
    /// reached through the scheduler, where the types are not known.
    @usableFromInline typealias Settle = @Sendable (DataLoader, ArraySlice<Int>, [Result<Value, any Error>]) -> Void

    private let batch: Batch
    private let maxBatchSize: Int
    private let settle: Settle
    @usableFromInline let scheduler: BatchScheduler
    @usableFromInline let state = Mutex(State())

    /// A loader tied to a request's scheduler (see ``RequestScope/loader(_:maxBatchSize:batch:)``).
    @inlinable
    convenience init(scheduler: BatchScheduler, maxBatchSize: Int, batch: @escaping Batch) {
        self.init(scheduler: scheduler, maxBatchSize: maxBatchSize, batch: batch) { loader, positions, results in
            loader.fulfil(positions, with: results)
        }
    }

    @usableFromInline
    init(scheduler: BatchScheduler, maxBatchSize: Int, batch: @escaping Batch, settle: @escaping Settle) {
        self.scheduler = scheduler
        self.maxBatchSize = max(1, maxBatchSize)
        self.batch = batch
        self.settle = settle
    }

    /// A loader outside any execution: each load is dispatched at once (no batching, still cached).
    @inlinable
    public convenience init(maxBatchSize: Int = 100, batch: @escaping Batch) {
        self.init(scheduler: BatchScheduler(), maxBatchSize: maxBatchSize, batch: batch)
    }

    /// The value for `key`, from the cache or the next batch.
    @inlinable
    public func load(_ key: Key) async throws -> Value {
        let (position, ready) = state.withLock { Self.entry(for: key, in: &$0) }
        if let ready { return try ready.get() }
        if scheduler.park(self) { await scheduler.dispatch() }
        return try await value(at: position)
    }

    /// Values for several keys, in order (each key's error thrown for the first that failed).
    @inlinable
    public func loadMany(_ keys: [Key]) async throws -> [Value] {
        let entries = state.withLock { state in keys.map { Self.entry(for: $0, in: &state) } }
        if entries.contains(where: { $0.ready == nil }), scheduler.park(self) { await scheduler.dispatch() }
        var values: [Value] = []
        values.reserveCapacity(entries.count)
        for (position, ready) in entries {
            if let ready {
                values.append(try ready.get())
            } else {
                values.append(try await value(at: position))
            }
        }
        return values
    }

    /// The position of `key`'s entry and its result when it has one; a new entry queued for the
    /// next batch when the key is new.
    @inlinable
    static func entry(for key: Key, in state: inout State) -> (position: Int, ready: Result<Value, any Error>?) {
        if let position = state.positions[key] {
            if case .done(let result) = state.entries[position] { return (position, result) }
            return (position, nil)
        }
        let position = state.entries.count
        state.entries.append(.pending)
        state.positions[key] = position
        state.queue.append(key)
        state.queuedPositions.append(position)
        return (position, nil)
    }

    /// The value of the entry at `position`, waiting for its batch when it has none yet. Resumed
    /// exactly once: by ``fulfil(_:with:)``, which takes every waiting continuation out of the entry
    /// under the lock, or here when the value arrived in between. (An unsafe continuation: a
    /// checked one allocates a canary per load.)
    @inlinable
    func value(at position: Int) async throws -> Value {
        try await withUnsafeThrowingContinuation { continuation in
            let result = state.withLock { state -> Result<Value, any Error>? in
                switch state.entries[position] {
                case .done(let result): return result
                case .pending: state.entries[position] = .waiting(continuation)
                case .waiting(let first): state.entries[position] = .waitingMany([first, continuation])
                case .waitingMany(var continuations):
                    state.entries[position] = .pending  // so the array is uniquely held while it grows
                    continuations.append(continuation)
                    state.entries[position] = .waitingMany(continuations)
                }
                return nil
            }
            if let result { continuation.resume(with: result) }
        }
    }

    /// Gives the entries at `positions` their results, then wakes the loads that waited for them
    /// (outside the lock, so that none of them finds it taken).
    @inlinable
    func fulfil(_ positions: ArraySlice<Int>, with results: [Result<Value, any Error>]) {
        let waiting = state.withLock { state in
            var waiting: [(UnsafeContinuation<Value, any Error>, Result<Value, any Error>)] = []
            for (position, result) in zip(positions, results) {
                switch state.entries[position] {
                case .waiting(let continuation): waiting.append((continuation, result))
                case .waitingMany(let continuations): for continuation in continuations { waiting.append((continuation, result)) }
                case .pending: break
                case .done: continue  // settled already (a key is queued once): the first result stays
                }
                state.entries[position] = .done(result)
            }
            return waiting
        }
        for (continuation, result) in waiting { continuation.resume(with: result) }
    }

    /// Puts a value in the cache (for example one loaded by another query).
    public func prime(_ key: Key, _ value: Value) {
        state.withLock { state in
            guard state.positions[key] == nil else { return }
            state.positions[key] = state.entries.count
            state.entries.append(.done(.success(value)))
        }
    }

    @usableFromInline
    func dispatchQueued() async -> [@Sendable () -> Void] {
        let (keys, positions) = state.withLock { state -> ([Key], [Int]) in
            defer {
                state.queue = []
                state.queuedPositions = []
            }
            return (state.queue, state.queuedPositions)
        }
        guard !keys.isEmpty else { return [] }
        var fulfilments: [@Sendable () -> Void] = []
        let settle = settle
        var start = 0
        while start < keys.count {
            let end = min(start + maxBatchSize, keys.count)
            let chunk = Array(keys[start..<end])
            let results: [Result<Value, any Error>]
            do {
                let answered = try await batch(chunk)
                if answered.count == chunk.count {
                    results = answered
                } else {
                    let error = DataLoaderError.countMismatch(keys: chunk.count, values: answered.count)
                    results = Array(repeating: .failure(error), count: chunk.count)
                }
            } catch {
                results = Array(repeating: .failure(error), count: chunk.count)
            }
            // One piece of work per batch, handing every key of it its result.
            let batchPositions = positions[start..<end]
            fulfilments.append { settle(self, batchPositions, results) }
            start = end
        }
        return fulfilments
    }
}

/// A batch function broke its contract.
public enum DataLoaderError: Error, Sendable, CustomStringConvertible {
    case countMismatch(keys: Int, values: Int)
    /// The batch function returned no value for a key (see ``DataLoader/results(for:from:)``).
    case missing(String)

    public var description: String {
        switch self {
        case .countMismatch(let keys, let values): "DataLoader batch returned \(values) values for \(keys) keys"
        case .missing(let key): "DataLoader batch returned no value for key \(key)"
        }
    }
}

extension DataLoader {
    /// Aligns a batch's answer given as a dictionary with its keys; a missing key becomes an error.
    public static func results(for keys: [Key], from values: [Key: Value]) -> [Result<Value, any Error>] {
        keys.map { key in
            if let value = values[key] { return .success(value) }
            return .failure(DataLoaderError.missing(String(describing: key)))
        }
    }
}

/// Something the scheduler can ask to send its queued keys.
@usableFromInline
protocol BatchDispatching: AnyObject, Sendable {
    /// Runs the batch for the queued keys; returns the work that hands each waiting load its result.
    func dispatchQueued() async -> [@Sendable () -> Void]
}

/// Knows how many resolvers of the current level are running, and dispatches the queued loads
/// when none is: the moment every outstanding resolver waits on a loader (or has finished).
@usableFromInline
final class BatchScheduler: Sendable {
    private struct State {
        var active = 0
        var parked = 0
        var queued: [ObjectIdentifier: any BatchDispatching] = [:]
    }

    private let state = Mutex(State())

    @usableFromInline init() {}

    /// The executor is about to start `count` resolvers that may load.
    func expect(_ count: Int) {
        state.withLock { $0.active += count }
    }

    /// A resolver queued loads on `loader` and is about to wait; true when it must dispatch now.
    @usableFromInline
    func park(_ loader: any BatchDispatching) -> Bool {
        state.withLock { state in
            state.queued[ObjectIdentifier(loader)] = loader
            state.active -= 1
            state.parked += 1
            return state.active <= 0
        }
    }

    /// A resolver the executor started has returned.
    func finished() async {
        let dispatchNow = state.withLock { state in
            state.active -= 1
            return state.active <= 0 && !state.queued.isEmpty
        }
        if dispatchNow { await dispatch() }
    }

    /// Sends every queued batch (again while batches queue more), then wakes the parked resolvers.
    /// The parked resolvers are counted as running again before any of them wakes, so the count
    /// never touches zero while they resume.
    @usableFromInline
    func dispatch() async {
        var fulfilments: [@Sendable () -> Void] = []
        while true {
            let loaders = state.withLock { state -> [any BatchDispatching] in
                defer { state.queued.removeAll() }
                return Array(state.queued.values)
            }
            if loaders.isEmpty { break }
            if loaders.count == 1 {
                fulfilments += await loaders[0].dispatchQueued()
                continue
            }
            // Several loaders' batches go out together (each its own statement, on its own connection).
            fulfilments += await withTaskGroup(of: [@Sendable () -> Void].self) { group in
                for loader in loaders { group.addTask { await loader.dispatchQueued() } }
                var all: [@Sendable () -> Void] = []
                for await some in group { all += some }
                return all
            }
        }
        state.withLock { state in
            state.active += state.parked
            state.parked = 0
        }
        for fulfil in fulfilments { fulfil() }
    }
}
