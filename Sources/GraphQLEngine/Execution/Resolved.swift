/// What a resolver produces: JSON-shaped data, a host object (the parent of the next level),
/// a list, or null. Leaf fields serialize `.value`; object fields read their fields from any case.
public enum Resolved: Sendable {
    case null
    /// Plain data; the default resolver reads an object's keys, abstract types its `__typename`.
    case value(GraphQLValue)
    /// A host value: its fields come from resolvers, ``GraphQLFieldReadable``, or its stored properties.
    case object(any Sendable)
    case list([Resolved])

    public static func string(_ string: String) -> Resolved { .value(.string(string)) }
    public static func int(_ int: Int) -> Resolved { .value(.int(int)) }
    public static func double(_ double: Double) -> Resolved { .value(.float(double)) }
    public static func bool(_ bool: Bool) -> Resolved { .value(.bool(bool)) }

    /// An optional host value: `.null` when absent.
    public static func optional(_ value: (any Sendable)?) -> Resolved {
        guard let value else { return .null }
        return .object(value)
    }

    /// A list of host values.
    @inlinable
    public static func objects(_ values: some Sequence<some Sendable>) -> Resolved {
        .list(values.map { .object($0) })
    }

    /// The host value, when this is `.object` holding a `T`. Inlinable, so a host's field tables
    /// cast to their concrete types (no generic metadata looked up per field read).
    @inlinable
    public func object<T>(as type: T.Type) -> T? {
        guard case .object(let value) = self else { return nil }
        // Cast the existential directly first: rewrapping it as `Any` copies boxed values.
        if let typed = value as? T { return typed }
        return (value as? ReflectedValue)?.value as? T
    }
}

/// A host value whose fields the default resolver reads by name, without reflection.
public protocol GraphQLFieldReadable: Sendable {
    /// The value of the field named `name`; `.null` for fields it does not know.
    func graphQLField(_ name: String) -> Resolved
}

/// A host value that names its object type, so interfaces and unions resolve without a type resolver.
public protocol GraphQLTypeNamed {
    var graphQLTypeName: String { get }
}

/// A host value that is a leaf (scalar or enum) result: its JSON form before serialization.
public protocol GraphQLLeafRepresentable {
    var graphQLValue: GraphQLValue { get }
}
