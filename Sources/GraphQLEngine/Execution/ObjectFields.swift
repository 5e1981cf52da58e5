/// The field table of one object type whose values are the host type `Parent`: each resolver
/// receives the parent already typed, so the table reads like the type it maps.
///
/// ```swift
/// resolvers.object("Store", Store.self) { store in
///     store.field("name") { .string($0.name) }
///     store.resolve("products") { parent, input in … }
/// }
/// ```
public struct ObjectFields<Parent: Sendable> {
    public let typeName: String
    @usableFromInline var registered: [(name: String, resolver: FieldResolver)] = []

    init(typeName: String) {
        self.typeName = typeName
    }

    /// A field read from the parent alone, at once: no task, no arguments, no request. Inlinable
    /// (as are the other registrations), so the closures are specialized for `Parent` in the host.
    @inlinable
    public mutating func field(_ name: String, _ read: @escaping @Sendable (Parent) -> Resolved) {
        let coordinate = typeName + "." + name
        registered.append((name, .read { source in
            guard let parent = source.object(as: Parent.self) else {
                throw ResolverError.unexpectedParent(field: coordinate, expected: String(describing: Parent.self))
            }
            return read(parent)
        }))
    }

    /// A field that needs its arguments or the request (the caller, loaders) and may suspend.
    @inlinable
    public mutating func resolve(_ name: String, _ resolve: @escaping @Sendable (Parent, FieldInput) async throws -> Resolved) {
        registered.append((name, .async { input in try await resolve(try input.parent(Parent.self), input) }))
    }

    /// A field that reads its arguments as the host type `Arguments` (``FieldInput/arguments(_:)``).
    @inlinable
    public mutating func resolve<Arguments: Decodable & Sendable>(
        _ name: String, arguments: Arguments.Type,
        _ resolve: @escaping @Sendable (Parent, Arguments, FieldInput) async throws -> Resolved
    ) {
        registered.append((name, .async { input in
            try await resolve(try input.parent(Parent.self), try input.arguments(Arguments.self), input)
        }))
    }
}

extension ObjectFields {
    /// A field resolved for all the parents of a level at once — the items of a list, the nodes of
    /// a page — in one call instead of one task and one DataLoader wait per parent: `resolve` gets
    /// the parents (typed, in order) and the first one's input (the arguments, the request; the
    /// same for all of them) and answers one value per parent, in the same order.
    @inlinable
    public mutating func resolveBatch(
        _ name: String, _ resolve: @escaping @Sendable ([Parent], FieldInput) async throws -> [Resolved]
    ) {
        registered.append((name, .batch { inputs in
            guard let first = inputs.first else { return [] }
            return try await resolve(try inputs.map { try $0.parent(Parent.self) }, first)
        }))
    }

    /// A batched field (``resolveBatch(_:_:)``) that reads its arguments as the host type `Arguments`.
    @inlinable
    public mutating func resolveBatch<Arguments: Decodable & Sendable>(
        _ name: String, arguments: Arguments.Type,
        _ resolve: @escaping @Sendable ([Parent], Arguments, FieldInput) async throws -> [Resolved]
    ) {
        registered.append((name, .batch { inputs in
            guard let first = inputs.first else { return [] }
            return try await resolve(try inputs.map { try $0.parent(Parent.self) }, try first.arguments(Arguments.self), first)
        }))
    }
}

extension Resolvers {
    /// Registers the field table of the object type `typeName`, whose values are `Parent`s.
    public mutating func object<Parent: Sendable>(
        _ typeName: String, _ parent: Parent.Type, _ build: (inout ObjectFields<Parent>) -> Void
    ) {
        var fields = ObjectFields<Parent>(typeName: typeName)
        build(&fields)
        for (name, resolver) in fields.registered { register(typeName + "." + name, resolver) }
    }
}
