/// Why the households service refused a request; the API maps each case to `extensions.code`.
public enum HouseholdError: Error, Sendable, Equatable {
    /// A field of the input is not acceptable (`BAD_USER_INPUT`), `field` named as in the API.
    case invalidInput(field: String, message: String)
    /// No such thing, or not one the caller may see (`NOT_FOUND`): the two look the same.
    case notFound(String)
    /// The caller may see it but not do this (`FORBIDDEN`), said in a sentence.
    case forbidden(String)
    /// A permission check refused it (`FORBIDDEN`): a sentence for the person, CASL's details for programs.
    case denied(PermissionDenial)
    /// The request contradicts the household's state (`CONFLICT`): the last owner leaving, a
    /// person added twice.
    case conflict(String)

    public var message: String {
        switch self {
        case .invalidInput(_, let message), .forbidden(let message), .conflict(let message): message
        case .notFound(let what): "\(what) not found."
        case .denied(let denial): denial.message
        }
    }

    /// A users-service input check's refusal, as this service's.
    init(_ error: UserError) {
        switch error {
        case .invalidInput(let field, let message): self = .invalidInput(field: field, message: message)
        default: self = .invalidInput(field: "input", message: error.message)
        }
    }
}
