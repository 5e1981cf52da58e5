/// Why a request's credentials were refused; answered as `UNAUTHENTICATED` (HTTP 401, or a
/// WebSocket closed with 4403).
public struct AuthenticationError: Error, Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// The `Authorization` header or init payload is not a bearer token.
        case malformedHeader
        /// A well-formed token that belongs to no live session (unknown, expired or revoked).
        case invalidToken
    }

    public let reason: Reason
    /// What the client is told.
    public let message: String

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// RFC 6750's `error` attribute for the `WWW-Authenticate` challenge.
    public var challenge: String {
        switch reason {
        case .malformedHeader: #"Bearer realm="hearth", error="invalid_request""#
        case .invalidToken: #"Bearer realm="hearth", error="invalid_token""#
        }
    }
}
