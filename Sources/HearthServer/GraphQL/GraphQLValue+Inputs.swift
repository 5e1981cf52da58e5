import Foundation
import GraphQLEngine
import HearthCore

/// Arguments and input-object fields as Swift values. The engine has already coerced them to
/// their declared types, so each reader only picks the case its type allows (nil when absent or null).
extension GraphQLValue {
    var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    var intValue: Int? {
        guard case .int(let int) = self else { return nil }
        return int
    }

    var boolValue: Bool? {
        guard case .bool(let bool) = self else { return nil }
        return bool
    }

    /// A `UUID`, as a Foundation UUID.
    var uuidValue: UUID? { stringValue.flatMap(UUID.init(uuidString:)) }

    /// A `DateTime`.
    var dateValue: Date? { stringValue.flatMap(DateTimeScalar.date(from:)) }

    /// An input object's fields (empty when absent).
    var objectValue: GraphQLObject {
        guard case .object(let object) = self else { return [:] }
        return object
    }

    var listValue: [GraphQLValue]? {
        guard case .list(let items) = self else { return nil }
        return items
    }

    /// The value as the JSON the services validate (an input object, a `JSON` argument).
    var json: JSONValue {
        switch self {
        case .null: .null
        case .bool(let bool): .bool(bool)
        case .int(let int): .number(Double(int))
        case .float(let double): .number(double)
        case .string(let string): .string(string)
        case .list(let items): .array(items.map(\.json))
        case .object(let object): .object(Dictionary(object.map { ($0.key, $0.value.json) }, uniquingKeysWith: { _, last in last }))
        }
    }

    /// Service JSON as a `JSON` result; integral numbers become Ints.
    init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let bool): self = .bool(bool)
        case .number(let number):
            self = number == number.rounded() && abs(number) < 9_007_199_254_740_992 ? .int(Int(number)) : .float(number)
        case .string(let string): self = .string(string)
        case .array(let items): self = .list(items.map(GraphQLValue.init))
        case .object(let members): self = .object(GraphQLObject(members.keys.sorted().map { (key: $0, value: GraphQLValue(members[$0] ?? .null)) }))
        }
    }
}

extension Optional<GraphQLValue> {
    var stringValue: String? { self?.stringValue }
    var intValue: Int? { self?.intValue }
    var boolValue: Bool? { self?.boolValue }
    var uuidValue: UUID? { self?.uuidValue }
    var dateValue: Date? { self?.dateValue }
    var objectValue: GraphQLObject { self?.objectValue ?? [:] }
    var listValue: [GraphQLValue]? { self?.listValue }
    var strings: [String]? { listValue?.compactMap(\.stringValue) }
    var uuids: [UUID]? { listValue?.compactMap(\.uuidValue) }
    var json: JSONValue { self?.json ?? .null }
}
