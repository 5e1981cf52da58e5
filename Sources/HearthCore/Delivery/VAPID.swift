import Crypto
import Foundation

/// Voluntary Application Server Identification (RFC 8292): the installation's P-256 key signs a
/// short-lived ES256 JWT per push service origin, sent as `Authorization: vapid t=…,k=…`.
public struct VAPID: Sendable {
    public let key: P256.Signing.PrivateKey
    /// A `mailto:` or `https:` contact the push services may use.
    public let subject: String

    public init(key: P256.Signing.PrivateKey, subject: String) {
        self.key = key
        self.subject = subject
    }

    /// The public key as browsers take it for `applicationServerKey`: uncompressed P-256, base64url.
    public var publicKey: String { key.publicKey.x963Representation.base64URLEncodedString }

    /// A `mailto:` address or an `https:` URL, as push services require; nil when `text` is one,
    /// else why not.
    public static func problem(withSubject text: String) -> String? {
        if text.hasPrefix("mailto:") {
            let address = text.dropFirst("mailto:".count)
            let parts = address.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
                  !address.contains(where: \.isWhitespace) else {
                return "a mailto: subject needs an address such as mailto:admin@example.org"
            }
            return nil
        }
        if text.hasPrefix("https://"), let url = URL(string: text), let host = url.host, !host.isEmpty { return nil }
        return "the subject must be a mailto: address or an https: URL (for example mailto:admin@example.org)"
    }

    /// The `Authorization` header for a request to `endpoint`, valid until `expiresAt` (at most
    /// 24 hours ahead, as RFC 8292 allows).
    public func authorization(for endpoint: URL, expiresAt: Date) throws -> String {
        "vapid t=\(try token(audience: Self.origin(of: endpoint), expiresAt: expiresAt)),k=\(publicKey)"
    }

    /// The JWT: `{"typ":"JWT","alg":"ES256"}`, `{"aud":…,"exp":…,"sub":…}`, signed (r‖s).
    func token(audience: String, expiresAt: Date) throws -> String {
        let header = Data(#"{"typ":"JWT","alg":"ES256"}"#.utf8).base64URLEncodedString
        let claims = try JSONSerialization.data(
            withJSONObject: ["aud": audience, "exp": Int(expiresAt.timeIntervalSince1970), "sub": subject], options: [.sortedKeys])
        let signingInput = header + "." + claims.base64URLEncodedString
        let signature = try key.signature(for: Data(signingInput.utf8))
        return signingInput + "." + signature.rawRepresentation.base64URLEncodedString
    }

    /// `scheme://host[:port]` of a push endpoint: the JWT's audience.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? "https"
        let host = url.host?.lowercased() ?? ""
        let shown = host.contains(":") ? "[\(host)]" : host
        guard let port = url.port, port != (scheme == "https" ? 443 : 80) else { return "\(scheme)://\(shown)" }
        return "\(scheme)://\(shown):\(port)"
    }
}
