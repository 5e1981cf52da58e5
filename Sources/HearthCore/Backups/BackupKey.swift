import Crypto
import Foundation

/// The installation's backup key: the 32 bytes that encrypt its backups, carried together with the
/// server's secret key (so the channel secrets it sealed open again after a restore onto a new
/// machine). Written down as one line of recovery text — the emergency kit.
public struct BackupKey: Sendable, Equatable {
    /// Encrypts and authenticates backups (AES-256-GCM).
    public let encryption: Data
    /// The server's secret key (`--secret-key-file`) at the time the kit was made.
    public let secretKey: Data

    static let prefix = "hearth-backup-key-1:"

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case malformed(String)

        public var description: String {
            switch self {
            case .malformed(let why): "The backup key is not usable: \(why). It is the one line `hearth backup key` printed, starting with \(BackupKey.prefix)"
            }
        }
    }

    public init(encryption: Data, secretKey: Data) {
        self.encryption = encryption
        self.secretKey = secretKey
    }

    /// A new key for an installation whose secret key is `secretKey` (32 bytes).
    public static func make(secretKey: Data) -> BackupKey {
        BackupKey(encryption: Data.random(count: 32), secretKey: secretKey)
    }

    /// The recovery text: the prefix, then both keys and a 4-byte check in base64url (one line).
    public var recoveryText: String {
        let body = encryption + secretKey
        return Self.prefix + (body + Data(SHA256.hash(data: body).prefix(4))).base64URLEncodedString
    }

    /// A key from its recovery text (a typing mistake fails the check instead of giving another key).
    public init(recoveryText text: String) throws(Failure) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix(Self.prefix) else { throw .malformed("it does not start with \(Self.prefix)") }
        guard let data = Data(base64URLEncoded: String(trimmed.dropFirst(Self.prefix.count))) else {
            throw .malformed("its text after the prefix is not base64url")
        }
        guard data.count == 68 else { throw .malformed("it holds \(data.count) bytes, not 68") }
        let body = data.prefix(64)
        guard Data(SHA256.hash(data: body).prefix(4)) == data.suffix(4) else { throw .malformed("its check does not match (a mistyped character?)") }
        self.init(encryption: Data(body.prefix(32)), secretKey: Data(body.suffix(32)))
    }

    /// A short, public name for the key (the first 8 bytes of a hash derived from it), stored in each
    /// backup so a wrong key is told apart from a damaged file.
    public var identifier: String {
        let derived = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: encryption), info: Data("hearth backup key id".utf8), outputByteCount: 8)
        return derived.withUnsafeBytes { Data($0) }.lowercaseHex
    }

    var symmetricKey: SymmetricKey { SymmetricKey(data: encryption) }
}
