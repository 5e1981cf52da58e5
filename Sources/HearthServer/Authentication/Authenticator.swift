import HearthCore

/// Turns a request's bearer token into its ``Identity``, once per HTTP request or WebSocket
/// connection, before any resolver runs.
public struct Authenticator: Sendable {
    /// The caller a token belongs to, or nil when it belongs to no live session.
    public typealias Verify = @Sendable (BearerToken) async throws -> Identity?

    /// A signed-in person as the services' ``Caller``: who they are and what they may do.
    public typealias Resolve = @Sendable (SignedIn) async throws -> Caller

    private let verify: Verify
    /// Builds the caller of a signed-in identity (the one place a request's ability is looked up).
    public let caller: Resolve

    /// `caller` defaults to refusing (for authenticators of identities that are never signed-in people).
    public init(verify: @escaping Verify, caller: @escaping Resolve = { _ in throw ServiceError(.unauthenticated, "Sign in first.") }) {
        self.verify = verify
        self.caller = caller
    }

    /// No accounts exist yet, so no token is valid: every request with one is refused.
    public static let noAccounts = Authenticator { _ in nil }

    /// The identity an optional token gives: anonymous without one, refused when it is not valid.
    /// A failing lookup (the database is down) is rethrown, to be answered as an internal error.
    public func identity(for token: BearerToken?) async throws -> Identity {
        guard let token else { return .anonymous }
        guard let identity = try await verify(token) else {
            throw AuthenticationError(.invalidToken, "The bearer token is not valid: it is unknown, expired or revoked. Sign in again.")
        }
        return identity
    }
}
