import GraphQLEngine
import HearthCore

/// Every service's refusal as the client sees it: its message, `extensions.code`, then `field`
/// and the details (`retryAfter`, a denial's rule, a feed's failure). Resolvers just throw.
extension ServiceError: GraphQLReportableError {
    public var code: String { kind.rawValue }

    public var extraExtensions: [(key: String, value: GraphQLError.ExtensionValue)] {
        var extensions: [(key: String, value: GraphQLError.ExtensionValue)] = field.map { [("field", .string($0))] } ?? []
        if details.retryable { extensions.append(("retryable", .bool(true))) }
        if let seconds = details.retryAfter { extensions.append(("retryAfter", .int(seconds))) }
        if let fields = details.conflictingFields { extensions.append(("conflictingFields", .strings(fields))) }
        if let version = details.currentVersion { extensions.append(("currentVersion", .int(version))) }
        if let denial = details.denial {
            extensions += [("action", .string(denial.action)), ("subject", .string(denial.subjectType)), ("reason", .string(denial.reason))]
            if let role = denial.neededRole { extensions.append(("neededRole", .string(role))) }
        }
        if let code = details.syncError { extensions.append(("syncError", .string(code))) }
        if let suggestion = details.suggestion { extensions.append(("suggestion", .string(suggestion))) }
        return extensions
    }
}

/// A refused `first` or `after`: bad input on that argument.
extension PageRequestError: GraphQLReportableError {
    public var code: String { ServiceError.Kind.badUserInput.rawValue }
    public var extraExtensions: [(key: String, value: GraphQLError.ExtensionValue)] { [("field", .string(field))] }
}
