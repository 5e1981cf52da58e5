import GraphQLEngine
import HearthCore

extension UserError {
    /// The client-facing error: its message, `extensions.code`, and `field` or `retryAfter`.
    var fieldError: FieldError {
        switch self {
        case .invalidInput(let field, _):
            FieldError(message, code: "BAD_USER_INPUT", extensions: [("field", .string(field))])
        case .emailTaken:
            FieldError(message, code: "BAD_USER_INPUT", extensions: [("field", .string("email"))])
        case .wrongPassword(let field):
            FieldError(message, code: "BAD_USER_INPUT", extensions: [("field", .string(field))])
        case .invalidCredentials:
            FieldError(message, code: "UNAUTHENTICATED")
        case .rateLimited(let seconds), .tooManySignUps(let seconds), .busy(let seconds):
            FieldError(message, code: "RATE_LIMITED", extensions: [("retryAfter", .int(seconds))])
        case .signUpClosed:
            FieldError(message, code: "FORBIDDEN")
        case .notFound:
            FieldError(message, code: "NOT_FOUND")
        }
    }
}

/// Runs a service call, turning the service's refusals into client-facing errors (other errors
/// stay internal: logged, and masked for the client).
func serviceCall<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as UserError {
        throw error.fieldError
    } catch let error as HouseholdError {
        throw error.fieldError
    } catch let error as StoreError {
        throw error.fieldError
    } catch let error as PageRequestError {
        throw HouseholdError.invalidInput(field: error.field, message: error.message).fieldError
    }
}

extension FieldInput {
    /// The signed-in person making the request, or `UNAUTHENTICATED`.
    func signedIn() throws -> SignedIn {
        guard let signedIn = try context(GraphQLRequestContext.self).caller.signedIn else {
            throw FieldError("Sign in first: this needs a signed-in user (Authorization: Bearer <token>).", code: "UNAUTHENTICATED")
        }
        return signedIn
    }
}
