import GraphQLEngine
import HearthCore

extension FieldInput {
    /// The signed-in person making the request, or `UNAUTHENTICATED`.
    func signedIn() throws -> SignedIn {
        guard let signedIn = try context(GraphQLRequestContext.self).caller.signedIn else {
            throw FieldError("Sign in first: this needs a signed-in user (Authorization: Bearer <token>).", code: "UNAUTHENTICATED")
        }
        return signedIn
    }
}
