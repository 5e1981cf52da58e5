import GraphQLEngine
import HearthCore

/// Every service's refusal as the client sees it: its message, `extensions.code`, then `field`
/// and the details (`retryAfter`, a denial's rule, a feed's failure). Resolvers just throw.
extension ServiceError: GraphQLReportableError {
    public var code: String { kind.rawValue }

    public var extraExtensions: [(key: String, value: GraphQLError.ExtensionValue)] {
        var extensions: [(key: String, value: GraphQLError.ExtensionValue)] = field.map { [("field", .string($0))] } ?? []
        for detail in details {
            switch detail.value {
            case .string(let text): extensions.append((detail.key, .string(text)))
            case .int(let number): extensions.append((detail.key, .int(number)))
            case .bool(let flag): extensions.append((detail.key, .bool(flag)))
            case .strings(let texts): extensions.append((detail.key, .strings(texts)))
            }
        }
        return extensions
    }
}

/// A refused `first` or `after`: bad input on that argument.
extension PageRequestError: GraphQLReportableError {
    public var code: String { ServiceError.Kind.badUserInput.rawValue }
    public var extraExtensions: [(key: String, value: GraphQLError.ExtensionValue)] { [("field", .string(field))] }
}
