import Foundation
import GraphQLEngine

/// A `DateTime` argument decodes to the instant it names (the scalar has already checked the text).
extension Date: GraphQLScalarDecodable {
    public init(graphQLScalar scalar: GraphQLValue) throws {
        guard case .string(let text) = scalar, let date = DateTimeScalar.date(from: text) else {
            throw CoercionError("DateTime cannot represent \(scalar)")
        }
        self = date
    }
}
