import HearthCore

extension Authenticator {
    /// Tokens are sessions of the users service: a live one is its person, any other is refused.
    public static func sessions(_ users: UserService) -> Authenticator {
        Authenticator { token in try await users.authenticate(token: token.value).map(Identity.user) }
    }
}
