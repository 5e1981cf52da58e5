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

    /// A list of host values. A value larger than an existential's inline buffer (three words)
    /// would be copied into a box of its own; such values are held as their place in the list
    /// instead (``ListElement``: two words, no box), and read out where a field reads them.
    @inlinable
    public static func objects<Element: Sendable>(_ values: some Sequence<Element>) -> Resolved {
        guard MemoryLayout<Element>.size > 3 * MemoryLayout<Int>.size else { return .list(values.map { .object($0) }) }
        let list = Array(values)
        return .list(list.indices.map { .object(ListElement(list: list, index: $0)) })
    }

    /// The object, when this is plain data that is one.
    var plainObject: GraphQLObject? {
        if case .value(.object(let object)) = self { return object }
        return nil
    }

    /// The host value, when this is `.object` holding a `T` (or a list's `T`). Inlinable, so a
    /// host's field tables cast to their concrete types (no generic metadata looked up per field read).
    @inlinable
    public func object<T>(as type: T.Type) -> T? {
        guard case .object(let value) = self else { return nil }
        // Cast the existential directly first: rewrapping it as `Any` copies boxed values.
        if let element = value as? ListElement<T> { return element.value }
        if let typed = value as? T { return typed }
        return (value as? ReflectedValue)?.value as? T
    }
}

/// An element of a host list, by its place in the list: what ``Resolved/objects(_:)`` holds for
/// each value too large to sit in an existential unboxed. Every reader of `.object` sees the
/// element itself (``Resolved/object(as:)``, ``ReflectedValue/unwrap(_:)``).
@usableFromInline
struct ListElement<Element>: HostWrapper {
    @usableFromInline let list: [Element]
    @usableFromInline let index: Int

    @inlinable init(list: [Element], index: Int) {
        self.list = list
        self.index = index
    }

    @inlinable var value: Element { list[index] }
    var host: Any { value }
}

extension ListElement: Sendable where Element: Sendable {}

/// A value `.object` holds on behalf of another (a list's element, a reflected property).
protocol HostWrapper {
    /// The value the host gave.
    var host: Any { get }
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
