import Crypto
import Foundation

/// Session tokens: 256 random bits written as 43 base64url characters; only their SHA-256 is stored.
public enum SessionToken {
    /// A fresh token from the system's secure random source.
    public static func generate() -> String {
        Data.random(count: 32).base64URLEncodedString
    }

    /// What the database keys a session by.
    public static func hash(_ token: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(token.utf8)))
    }
}
