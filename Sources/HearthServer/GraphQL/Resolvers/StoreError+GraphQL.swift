import GraphQLEngine
import HearthCore

extension StoreError {
    /// The client-facing error: its message, `extensions.code`, and `field`, `retryAfter` or
    /// `syncError` where they apply.
    var fieldError: FieldError {
        switch self {
        case .invalidInput(let field, _): FieldError(message, code: "BAD_USER_INPUT", extensions: [("field", .string(field))])
        case .notFound: FieldError(message, code: "NOT_FOUND")
        case .conflict: FieldError(message, code: "CONFLICT")
        case .rateLimited(let seconds, _): FieldError(message, code: "RATE_LIMITED", extensions: [("retryAfter", .int(seconds))])
        case .feedUnusable(let error):
            FieldError(message, code: "BAD_USER_INPUT", extensions: [
                ("field", .string("domain")), ("syncError", .string(error.code.rawValue)),
                ("suggestion", .string(error.suggestion)),
            ])
        }
    }
}
