import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// bcrypt on NIO's blocking thread pool, so hashing (a quarter second at cost 12) never holds a
/// thread of Swift's cooperative pool.
///
/// bcrypt reads only the first 72 bytes of its input, so the password is first reduced to the
/// base64 of its SHA-256 (44 bytes): every character of a 256-character password counts.
public struct PasswordHasher: Sendable {
    public let cost: Int

    public init(cost: Int) {
        self.cost = min(max(cost, 4), 31)
    }

    public func hash(_ password: String) async throws -> String {
        let cost = UInt8(cost)
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(Self.prehash(password), cost: cost) }
    }

    public func verify(_ password: String, against hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(Self.prehash(password), hash: hash) }
    }

    /// Spends the time a real verification takes, for an email that has no account: hashing
    /// runs the same key schedule at the same cost as verifying.
    public func spendVerificationTime(_ password: String) async throws {
        _ = try await hash(password)
    }

    static func prehash(_ password: String) -> String {
        Data(SHA256.hash(data: Array(password.utf8))).base64EncodedString()
    }
}
