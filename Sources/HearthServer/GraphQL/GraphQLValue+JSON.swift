import Foundation
import GraphQLEngine
import HearthCore

/// Values the services read as JSON documents (preferences) and JSON they answer with.
extension GraphQLValue {
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
