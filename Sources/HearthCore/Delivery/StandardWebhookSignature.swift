import Crypto
import Foundation

/// Webhook signing per the Standard Webhooks specification: secrets are `whsec_` and base64 of
/// random bytes; a message is signed as `v1,` + base64(HMAC-SHA256(secret, "id.timestamp.body")).
public enum StandardWebhookSignature {
    /// A fresh signing secret (24 random bytes), shown to its owner once.
    public static func makeSecret() -> String {
        "whsec_" + Data.random(count: 24).base64EncodedString()
    }

    /// The `webhook-signature` value for one message; nil when `secret` is not a `whsec_` secret.
    public static func signature(secret: String, id: String, timestamp: Int, body: Data) -> String? {
        guard secret.hasPrefix("whsec_"), let key = Data(base64Encoded: String(secret.dropFirst("whsec_".count))), !key.isEmpty else {
            return nil
        }
        let signed = Data("\(id).\(timestamp).".utf8) + body
        let mac = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: key))
        return "v1," + Data(mac).base64EncodedString()
    }
}
