/// The token of an `Authorization: Bearer <token>` header (RFC 6750), as sent over HTTP or in a
/// WebSocket's `connection_init` payload.
public struct BearerToken: Sendable, Equatable {
    /// The token as the client sent it; never logged.
    public let value: String

    /// Longer tokens are refused unread: Hearth's own are 43 characters.
    public static let maxLength = 512

    public init(value: String) {
        self.value = value
    }

    /// The token of an `Authorization` header value: nil when there is no header, an error naming
    /// the problem when it is not `Bearer` followed by one token of RFC 6750's characters.
    public static func parse(authorization header: String?) throws(AuthenticationError) -> BearerToken? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw AuthenticationError(.malformedHeader, "The Authorization header must be \"Bearer <token>\".")
        }
        return try parse(token: String(parts[1]))
    }

    /// A bare token (a `connection_init` payload's `token`): one to `maxLength` characters of
    /// RFC 6750's token alphabet.
    public static func parse(token: String) throws(AuthenticationError) -> BearerToken {
        let allowed = { (byte: UInt8) -> Bool in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"),
                UInt8(ascii: "="):
                return true
            default:
                return false
            }
        }
        guard !token.isEmpty, token.utf8.count <= maxLength, token.utf8.allSatisfy(allowed) else {
            throw AuthenticationError(.malformedHeader, "The bearer token is not a token (1 to \(maxLength) characters of A-Z a-z 0-9 - . _ ~ + / =).")
        }
        return BearerToken(value: token)
    }
}
