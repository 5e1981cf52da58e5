import Synchronization

/// Services that live for one request: its DataLoaders and the scheduler that batches them.
public final class RequestScope: Sendable {
    @usableFromInline let scheduler = BatchScheduler()
    @usableFromInline let loaders = Mutex<[AnyHashable: any Sendable]>([:])

    public init() {}

    /// The request's loader named `name`, made on first use with `batch`. Every resolver asking for
    /// the same name gets the same loader (and cache) for the rest of the request. A name may be any
    /// hashable value (a field and its arguments), so building one costs no formatting. Inlinable, so
    /// the loader is made and found specialized for its key and value types.
    @inlinable
    public func loader<Key: Hashable & Sendable, Value: Sendable>(
        _ name: some Hashable & Sendable, maxBatchSize: Int = 100, batch: @escaping DataLoader<Key, Value>.Batch
    ) -> DataLoader<Key, Value> {
        loaders.withLock { loaders in
            let name = AnyHashable(name)
            if let existing = loaders[name] as? DataLoader<Key, Value> { return existing }
            let loader = DataLoader<Key, Value>(scheduler: scheduler, maxBatchSize: maxBatchSize, batch: batch)
            loaders[name] = loader
            return loader
        }
    }
}
