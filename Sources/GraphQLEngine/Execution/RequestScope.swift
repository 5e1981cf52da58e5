import Synchronization

/// Services that live for one request: its DataLoaders and the scheduler that batches them.
public final class RequestScope: Sendable {
    @usableFromInline let scheduler = BatchScheduler()
    @usableFromInline let loaders = Mutex(Loaders())

    /// The request's loaders by name. Names are mostly strings, found without boxing them in an
    /// `AnyHashable` (whose hashing and comparison go through a box for every resolver that asks).
    @usableFromInline
    struct Loaders {
        @usableFromInline var byText: [String: AnyObject] = [:]
        @usableFromInline var byName: [AnyHashable: AnyObject] = [:]
        @usableFromInline init() {}
    }

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
            if let text = name as? String {
                return loader(text, in: &loaders.byText, maxBatchSize: maxBatchSize, batch: batch)
            }
            return loader(AnyHashable(name), in: &loaders.byName, maxBatchSize: maxBatchSize, batch: batch)
        }
    }

    /// The loader `name` has in `loaders`, or a new one put there (also when the name's loader has
    /// other key or value types).
    @inlinable
    func loader<Name: Hashable, Key: Hashable & Sendable, Value: Sendable>(
        _ name: Name, in loaders: inout [Name: AnyObject], maxBatchSize: Int, batch: @escaping DataLoader<Key, Value>.Batch
    ) -> DataLoader<Key, Value> {
        if let existing = loaders[name] as? DataLoader<Key, Value> { return existing }
        let loader = DataLoader<Key, Value>(scheduler: scheduler, maxBatchSize: maxBatchSize, batch: batch)
        loaders[name] = loader
        return loader
    }
}
