import Crypto
import Foundation

/// Message encryption for Web Push (RFC 8291) in the `aes128gcm` content coding (RFC 8188): one
/// record, keyed by ECDH between a fresh server key and the subscription's P-256 key, salted with
/// the subscription's auth secret. Only the browser that subscribed can read the message.
public enum WebPushEncryption {
    /// The record size written in the header; one record holds the whole message.
    static let recordSize: UInt32 = 4096
    /// The most plaintext one record takes: 4096 − 16 (tag) − 1 (delimiter) − 86 (header).
    public static let maximumPlaintext = 3993

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case badKey(String)
        case tooLarge(Int)

        public var description: String {
            switch self {
            case .badKey(let why): "The push subscription's keys are not usable: \(why)."
            case .tooLarge(let bytes): "A Web Push message takes at most \(WebPushEncryption.maximumPlaintext) bytes; this one has \(bytes)."
            }
        }
    }

    /// The subscription's keys as the browser gives them (`PushSubscription.toJSON().keys`).
    public struct Keys: Sendable, Equatable {
        /// The user agent's public key, uncompressed P-256 (65 bytes).
        public var p256dh: Data
        /// The authentication secret (16 bytes).
        public var auth: Data

        /// Reads the base64url texts; a clear refusal when they are not a P-256 key and a 16-byte secret.
        public init(p256dh: String, auth: String) throws(Failure) {
            guard let key = Data(base64URLEncoded: p256dh), key.count == 65, key.first == 4,
                  (try? P256.KeyAgreement.PublicKey(x963Representation: key)) != nil else {
                throw .badKey("p256dh must be an uncompressed P-256 public key (65 bytes, base64url)")
            }
            guard let secret = Data(base64URLEncoded: auth), secret.count == 16 else {
                throw .badKey("auth must be 16 bytes, base64url")
            }
            self.p256dh = key
            self.auth = secret
        }
    }

    /// The request body for `plaintext`: header (salt, record size, the server's public key)
    /// and the one encrypted record. `salt` and `serverKey` are fresh unless given (for tests).
    public static func encrypt(_ plaintext: Data, for keys: Keys, salt: Data = .random(count: 16),
                               serverKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey()) throws -> Data {
        guard plaintext.count <= maximumPlaintext else { throw Failure.tooLarge(plaintext.count) }
        let userAgentKey = try P256.KeyAgreement.PublicKey(x963Representation: keys.p256dh)
        let serverPublic = serverKey.publicKey.x963Representation
        let shared = try serverKey.sharedSecretFromKeyAgreement(with: userAgentKey)
        let ecdhSecret = shared.withUnsafeBytes { Data($0) }
        // IKM = HKDF(auth, ecdh, "WebPush: info" 0x00 ua_public as_public, 32)
        let authPRK = HKDF<SHA256>.extract(inputKeyMaterial: SymmetricKey(data: ecdhSecret), salt: keys.auth)
        let keyInfo = Data("WebPush: info".utf8) + [0] + keys.p256dh + serverPublic
        let ikm = HKDF<SHA256>.expand(pseudoRandomKey: authPRK, info: keyInfo, outputByteCount: 32)
        // CEK and nonce from the salt (RFC 8188 §2.2, §2.3).
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        let cek = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Data("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Data("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        // The last (and only) record ends with the 0x02 delimiter.
        let sealed = try AES.GCM.seal(plaintext + [2], using: cek, nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }))
        var body = salt
        withUnsafeBytes(of: recordSize.bigEndian) { body.append(contentsOf: $0) }
        body.append(UInt8(serverPublic.count))
        body.append(serverPublic)
        body.append(sealed.ciphertext)
        body.append(sealed.tag)
        return body
    }
}
