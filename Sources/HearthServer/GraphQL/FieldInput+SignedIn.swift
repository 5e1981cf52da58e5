import GraphQLEngine
import HearthCore

extension FieldInput {
    /// The signed-in person making the request, or `UNAUTHENTICATED`. With an access token, a
    /// root field must be within the token's scopes (`FORBIDDEN` otherwise): queries and
    /// subscriptions need READ, the mutations of ``AccessScope/writableMutations`` WRITE, and
    /// no other mutation is open to a token.
    func signedIn() throws -> SignedIn {
        guard let signedIn = try context(GraphQLRequestContext.self).identity.signedIn else {
            throw FieldError("Sign in first: this needs a signed-in user (Authorization: Bearer <token>).", code: .unauthenticated)
        }
        if let token = signedIn.accessToken { try checkScope(of: token) }
        return signedIn
    }

    /// The signed-in person as the services' caller (their ability looked up in the households'
    /// cache), or `UNAUTHENTICATED` / `FORBIDDEN` as ``signedIn()`` says.
    func caller() async throws -> Caller {
        try await context(GraphQLRequestContext.self).callers(try signedIn())
    }

    private func checkScope(of token: AccessToken) throws {
        let schema = info.schema
        func isRoot(_ id: TypeID?) -> Bool { id.map { schema[$0].name == info.parentType.name } ?? false }
        if isRoot(schema.mutationType) {
            guard AccessScope.writableMutations.contains(info.fieldName) else {
                throw FieldError("An access token cannot use \(info.fieldName); sign in as the person instead.", code: .forbidden)
            }
            guard token.allows(.write) else {
                throw FieldError("This access token may only read: \(info.fieldName) needs the WRITE scope.", code: .forbidden)
            }
        } else if isRoot(schema.queryType) || isRoot(schema.subscriptionType), !token.allows(.read) {
            throw FieldError("This access token may not read: \(info.fieldName) needs the READ scope.", code: .forbidden)
        }
    }
}

extension AccessScope {
    /// The mutations a WRITE token may call: tasks, events, labels, read marks and syncs.
    static let writableMutations: Set<String> = [
        "createTask", "createEvent", "updateTask", "deleteTask", "completeTask", "skipOccurrence", "reopenTask", "snoozeReminder", "setAway",
        "addSubtask", "updateSubtask", "removeSubtask", "reorderSubtasks",
        "createLabel", "updateLabel", "deleteLabel",
        "markEventRead", "markAllEventsRead", "markNotificationRead",
        "syncStore", "push",
    ]
}
