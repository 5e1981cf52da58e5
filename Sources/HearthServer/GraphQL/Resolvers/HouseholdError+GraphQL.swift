import GraphQLEngine
import HearthCore

extension HouseholdError {
    /// The client-facing error: its message, `extensions.code`, and `field` for bad input.
    var fieldError: FieldError {
        switch self {
        case .invalidInput(let field, _): FieldError(message, code: "BAD_USER_INPUT", extensions: [("field", .string(field))])
        case .notFound: FieldError(message, code: "NOT_FOUND")
        case .forbidden: FieldError(message, code: "FORBIDDEN")
        case .denied(let denial):
            FieldError(
                message, code: "FORBIDDEN",
                extensions: [("action", .string(denial.action)), ("subject", .string(denial.subjectType)), ("reason", .string(denial.reason))]
                    + (denial.field.map { [("field", .string($0))] } ?? [])
                    + (denial.neededRole.map { [("neededRole", .string($0.rawValue))] } ?? []))
        case .conflict: FieldError(message, code: "CONFLICT")
        }
    }
}
