/// The resolver used where none is bound: reads the parent's same-named key (plain data),
/// ``GraphQLFieldReadable`` field, or stored property (by reflection).
enum DefaultResolver {
    static func resolve(_ name: String, of source: Resolved) -> Resolved {
        switch source {
        case .value(.object(let object)):
            return object[name].map(Resolved.value) ?? .null
        case .object(let object):
            let host = ReflectedValue.unwrap(object)
            if let readable = host as? any GraphQLFieldReadable { return readable.graphQLField(name) }
            for child in Mirror(reflecting: host).children where child.label == name {
                return resolved(child.value)
            }
            return .null
        default:
            return .null
        }
    }

    /// The object type a value names for itself: a `__typename` key, or ``GraphQLTypeNamed``.
    static func typeName(of value: Resolved) -> String? {
        switch value {
        case .value(.object(let object)):
            if case .string(let name) = object["__typename"] { return name }
            return nil
        case .object(let object):
            let host = ReflectedValue.unwrap(object)
            if let named = host as? any GraphQLTypeNamed { return named.graphQLTypeName }
            if let readable = host as? any GraphQLFieldReadable, case .value(.string(let name)) = readable.graphQLField("__typename") {
                return name
            }
            return nil
        default:
            return nil
        }
    }

    /// A reflected property as a resolver result.
    static func resolved(_ value: Any) -> Resolved {
        switch value {
        case let resolved as Resolved: return resolved
        case let value as GraphQLValue: return .value(value)
        case let string as String: return .value(.string(string))
        case let int as Int: return .value(.int(int))
        case let int as Int32: return .value(.int(Int(int)))
        case let int as Int64: return .value(.int(Int(int)))
        case let double as Double: return .value(.float(double))
        case let float as Float: return .value(.float(Double(float)))
        case let bool as Bool: return .value(.bool(bool))
        case let leaf as any GraphQLLeafRepresentable: return .value(leaf.graphQLValue)
        default:
            let mirror = Mirror(reflecting: value)
            switch mirror.displayStyle {
            case .optional:
                guard let wrapped = mirror.children.first else { return .null }
                return resolved(wrapped.value)
            case .collection, .set:
                return .list(mirror.children.map { resolved($0.value) })
            default:
                return .object(ReflectedValue(value: value))
            }
        }
    }
}

/// A value read by reflection from a stored property of a `Sendable` host, hence itself `Sendable`
/// (the compiler checked the host's properties); the cast to a marker protocol is not expressible.
@usableFromInline
struct ReflectedValue: @unchecked Sendable, HostWrapper {
    @usableFromInline let value: Any
    var host: Any { value }

    /// The host value itself: a reflected property's value, a list's element, or `object` as it is.
    static func unwrap(_ object: any Sendable) -> Any {
        (object as? any HostWrapper)?.host ?? object
    }
}
