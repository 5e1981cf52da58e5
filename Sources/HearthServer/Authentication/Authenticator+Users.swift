import HearthCore

extension Authenticator {
    /// Tokens are sessions of the users service: a live one is its person, any other is refused;
    /// the person's ability comes from their households.
    public static func sessions(_ users: UserService, _ households: HouseholdService) -> Authenticator {
        Authenticator(verify: { token in try await users.authenticate(token: token.value).map(Identity.user) },
                      caller: { signedIn in try await households.caller(for: signedIn.user.id) })
    }
}
