/// Decodes coerced input values (a field's arguments, an input object) into host `Decodable`
/// types, so a resolver reads a typed struct instead of looking arguments up by name.
///
/// The engine has already coerced the value to the schema's types and applied its defaults, so a
/// failure here is a binding mistake (the Swift type does not match the schema), reported as
/// ``GraphQLValueDecodingError`` — an internal error, never the client's.
///
/// An argument that is absent decodes as `nil` for an optional property; a property of a type
/// conforming to ``DecodableWhenAbsent`` (such as ``InputPatch``) tells absent from null. Given the
/// schema's definitions of the value's fields, an explicit `null` for an argument or input field
/// that has a default decodes into a non-optional property as that default (the schema stays the
/// only place defaults are written).
public enum GraphQLValueDecoder {
    /// `value` as `T`; `fields` define its keys when it is an object (arguments, an input object's fields).
    public static func decode<T: Decodable>(
        _ type: T.Type, from value: GraphQLValue, fields: [GraphQLInputValue] = [], schema: GraphQLSchema? = nil
    ) throws -> T {
        try ValueDecoder(value: value, codingPath: [], shape: InputShape(fields: fields, schema: schema)).decodeValue(type)
    }
}

/// The schema's definitions of an object value's fields, for their defaults; empty when unknown.
private struct InputShape {
    let fields: [GraphQLInputValue]
    let schema: GraphQLSchema?

    static let unknown = InputShape(fields: [], schema: nil)

    /// The shape of a value of `type`: its input object's fields, through lists and non-null.
    func of(_ type: GraphQLType) -> InputShape {
        guard let schema else { return .unknown }
        switch type {
        case .nonNull(let inner), .list(let inner): return of(inner)
        case .named(let id): return InputShape(fields: schema[id].inputFields, schema: schema)
        }
    }

    /// The coerced default of the field `name`, when the schema gives it one.
    func defaultValue(of name: String) -> GraphQLValue? {
        guard let schema, let field = fields.first(where: { $0.name == name }), let literal = field.defaultValue else { return nil }
        return InputCoercion.literalValue(literal, type: field.type, schema: schema, variables: nil)
    }

    func field(_ name: String) -> InputShape {
        guard let field = fields.first(where: { $0.name == name }) else { return .unknown }
        return of(field.type)
    }
}

/// A host type a custom scalar's coerced value becomes by its own rule rather than through its
/// `Decodable` conformance (Foundation's `Date` decodes a number, a `DateTime` is text).
public protocol GraphQLScalarDecodable {
    /// The value of `scalar`; throw when it cannot be one (a message naming what was expected).
    init(graphQLScalar scalar: GraphQLValue) throws
}

/// A type that has a value for an argument or input field nobody wrote (distinct from `null`).
public protocol DecodableWhenAbsent: Decodable {
    static var absent: Self { get }
}

/// An input field of an update: left as it is (absent), cleared (`null`) or set to a value.
public enum InputPatch<Value: Decodable>: DecodableWhenAbsent {
    case unchanged
    case cleared
    case set(Value)

    public static var absent: InputPatch { .unchanged }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .cleared : .set(try container.decode(Value.self))
    }

    /// The change as a double optional: nil unchanged, `.some(nil)` cleared, `.some(value)` set.
    public var change: Value?? {
        switch self {
        case .unchanged: nil
        case .cleared: .some(nil)
        case .set(let value): .some(value)
        }
    }
}

extension InputPatch: Sendable where Value: Sendable {}
extension InputPatch: Equatable where Value: Equatable {}

/// The coerced value did not fit the host type: which argument (its path) and why.
public struct GraphQLValueDecodingError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String

    init(_ codingPath: [any CodingKey], _ reason: String) {
        path = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        self.reason = reason
    }

    public var description: String { "argument \(path.isEmpty ? "(root)" : path): \(reason)" }
}

private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct ValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: GraphQLValue
    let codingPath: [any CodingKey]
    var shape = InputShape.unknown
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch("an input object") }
        return KeyedDecodingContainer(ObjectContainer<Key>(object: object, codingPath: codingPath, shape: shape))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .list(let items) = value else { throw mismatch("a list") }
        return ListContainer(items: items, codingPath: codingPath, shape: shape)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func mismatch(_ expected: String) -> GraphQLValueDecodingError {
        GraphQLValueDecodingError(codingPath, "expected \(expected), found \(value)")
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        // A `JSON`-like argument read as it came: no conversion.
        if let raw = value as? T { return raw }
        if let scalar = type as? any GraphQLScalarDecodable.Type {
            do {
                if let typed = try scalar.init(graphQLScalar: value) as? T { return typed }
            } catch {
                throw GraphQLValueDecodingError(codingPath, "\(error)")
            }
        }
        do {
            return try T(from: self)
        } catch let error as DecodingError {
            // A host type's own refusal (an enum without that case): where, in the argument's terms.
            let context: DecodingError.Context? = switch error {
            case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context): context
            @unknown default: nil
            }
            throw GraphQLValueDecodingError(codingPath, context?.debugDescription ?? "\(error)")
        }
    }

    func decodeNil() -> Bool { value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch("a Boolean") }
        return bool
    }
    func decode(_ type: String.Type) throws -> String {
        guard case .string(let string) = value else { throw mismatch("a string") }
        return string
    }
    func decode(_ type: Double.Type) throws -> Double {
        guard let number = value.number else { throw mismatch("a number") }
        return number
    }
    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    func decode(_ type: Int.Type) throws -> Int {
        guard let integer = value.integer else { throw mismatch("an integer") }
        return integer
    }
    func decode(_ type: Int8.Type) throws -> Int8 { try narrow(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try narrow(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try narrow(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try narrow(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try narrow(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try narrow(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try narrow(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try narrow(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try narrow(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }

    private func narrow<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard let narrowed = T(exactly: try decode(Int.self)) else { throw mismatch("an integer that fits \(T.self)") }
        return narrowed
    }
}

private struct ObjectContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: GraphQLObject
    let codingPath: [any CodingKey]
    let shape: InputShape
    var allKeys: [Key] { object.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool { object[key.stringValue]?.isNull ?? true }

    // The primitives go the one generic way (the value's own container checks its case).
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type as Bool.Type, at: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type as String.Type, at: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type as Double.Type, at: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type as Float.Type, at: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type as Int.Type, at: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type as Int8.Type, at: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type as Int16.Type, at: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type as Int32.Type, at: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type as Int64.Type, at: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type as UInt.Type, at: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type as UInt8.Type, at: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type as UInt16.Type, at: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type as UInt32.Type, at: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type as UInt64.Type, at: key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decode(type, at: key) }

    /// A non-optional property's value (optional ones arrive here only when neither absent nor null).
    private func decode<T: Decodable>(_ type: T.Type, at key: Key) throws -> T {
        let whenAbsent = type as? any DecodableWhenAbsent.Type
        guard var value = object[key.stringValue] else {
            if let whenAbsent, let typed = whenAbsent.absent as? T { return typed }
            throw GraphQLValueDecodingError(codingPath + [key], "missing (the schema gives it no default)")
        }
        // An explicit null where the host wants a value: the schema's default, as if it were left out.
        if value.isNull, whenAbsent == nil, let fallback = shape.defaultValue(of: key.stringValue) { value = fallback }
        return try child(key, value).decodeValue(type)
    }

    private func child(_ key: Key, _ value: GraphQLValue?) -> ValueDecoder {
        ValueDecoder(value: value ?? .null, codingPath: codingPath + [key], shape: shape.field(key.stringValue))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key, object[key.stringValue]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key, object[key.stringValue]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ValueDecoder(value: .object(object), codingPath: codingPath, shape: shape) }
    func superDecoder(forKey key: Key) throws -> any Decoder { child(key, object[key.stringValue]) }
}

private struct ListContainer: UnkeyedDecodingContainer {
    let items: [GraphQLValue]
    let codingPath: [any CodingKey]
    /// The items' shape (a list's items share its named type).
    let shape: InputShape
    var currentIndex = 0
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    init(items: [GraphQLValue], codingPath: [any CodingKey], shape: InputShape) {
        self.items = items
        self.codingPath = codingPath
        self.shape = shape
    }

    private mutating func next() throws -> ValueDecoder {
        guard !isAtEnd else { throw GraphQLValueDecodingError(codingPath + [IndexKey(currentIndex)], "past the end of the list") }
        defer { currentIndex += 1 }
        return ValueDecoder(value: items[currentIndex], codingPath: codingPath + [IndexKey(currentIndex)], shape: shape)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(type) }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try next().decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next().decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next().decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next().decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next().decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next().decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().decode(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

/// A value read as it is (a `JSON` argument, an input the host validates itself).
extension GraphQLValue: Decodable {
    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var entries: [(key: String, value: GraphQLValue)] = []
            for key in object.allKeys { entries.append((key.stringValue, try object.decode(GraphQLValue.self, forKey: key))) }
            self = .object(GraphQLObject(entries))
        } else if var list = try? decoder.unkeyedContainer() {
            var items: [GraphQLValue] = []
            while !list.isAtEnd { items.append(try list.decode(GraphQLValue.self)) }
            self = .list(items)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let bool = try? single.decode(Bool.self) {
                self = .bool(bool)
            } else if let int = try? single.decode(Int.self) {
                self = .int(int)
            } else if let double = try? single.decode(Double.self) {
                self = .float(double)
            } else {
                self = .string(try single.decode(String.self))
            }
        }
    }
}
