/// Turns a request's bearer token into its ``Caller``, once per HTTP request or WebSocket
/// connection, before any resolver runs.
public struct Authenticator: Sendable {
    /// The caller a token belongs to, or nil when it belongs to no live session.
    public typealias Verify = @Sendable (BearerToken) async throws -> Caller?

    private let verify: Verify

    public init(verify: @escaping Verify) {
        self.verify = verify
    }

    /// No accounts exist yet, so no token is valid: every request with one is refused.
    public static let noAccounts = Authenticator { _ in nil }

    /// The caller for an optional token: anonymous without one, refused when it is not valid.
    /// A failing lookup (the database is down) is rethrown, to be answered as an internal error.
    public func caller(for token: BearerToken?) async throws -> Caller {
        guard let token else { return .anonymous }
        guard let caller = try await verify(token) else {
            throw AuthenticationError(.invalidToken, "The bearer token is not valid: it is unknown, expired or revoked. Sign in again.")
        }
        return caller
    }
}
