import Crypto
import Foundation

/// Seals the small secrets Hearth keeps (webhook signing secrets, ntfy tokens, the VAPID key)
/// with the server's 32-byte secret key, AES-256-GCM: what is stored is nonce ‖ ciphertext ‖ tag.
/// Instances sharing a database share the key.
public struct SecretBox: Sendable {
    private let key: SymmetricKey

    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The key is not 32 bytes of base64.
        case badKey(String)
        /// A sealed value does not open with this key (another key, or damaged).
        case cannotOpen

        public var description: String {
            switch self {
            case .badKey(let why): "The secret key is not usable: \(why). It must be 32 random bytes in base64 (for example `openssl rand -base64 32`)."
            case .cannotOpen: "A stored secret does not open with this server's secret key: was the key changed? Instances sharing a database must share the key."
            }
        }
    }

    /// The key from its base64 text (a key file's contents or `HEARTH_SECRET_KEY`).
    public init(base64 text: String) throws(Failure) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let data = Data(base64Encoded: trimmed) else { throw .badKey("it is not base64") }
        guard data.count == 32 else { throw .badKey("it holds \(data.count) bytes, not 32") }
        key = SymmetricKey(data: data)
    }

    /// A fresh key's base64 text, for a new key file.
    public static func makeKeyText() -> String {
        Data.random(count: 32).base64EncodedString()
    }

    /// A key for one other purpose (signing links, say), derived from the secret key with HKDF:
    /// the same on every instance that shares the key, and never the sealing key itself.
    func derivedKey(for purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Data(purpose.utf8), outputByteCount: 32)
    }

    public func seal(_ plaintext: Data) throws -> Data {
        guard let combined = try AES.GCM.seal(plaintext, using: key).combined else { throw Failure.cannotOpen }
        return combined
    }

    public func open(_ sealed: Data) throws(Failure) -> Data {
        do {
            return try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key)
        } catch {
            throw .cannotOpen
        }
    }
}
