import Synchronization

/// Services that live for one request: its DataLoaders and the scheduler that batches them.
public final class RequestScope: Sendable {
    @usableFromInline let scheduler = BatchScheduler()
    @usableFromInline let loaders = Mutex<[String: any Sendable]>([:])

    public init() {}

    /// The request's loader named `name`, made on first use with `batch`. Every resolver asking for
    /// the same name gets the same loader (and cache) for the rest of the request. Inlinable, so
    /// the loader is made and found specialized for its key and value types.
    @inlinable
    public func loader<Key: Hashable & Sendable, Value: Sendable>(
        _ name: String, maxBatchSize: Int = 100, batch: @escaping DataLoader<Key, Value>.Batch
    ) -> DataLoader<Key, Value> {
        loaders.withLock { loaders in
            if let existing = loaders[name] as? DataLoader<Key, Value> { return existing }
            let loader = DataLoader<Key, Value>(scheduler: scheduler, maxBatchSize: maxBatchSize, batch: batch)
            loaders[name] = loader
            return loader
        }
    }
}
