import Foundation
import Logging
import NIOSSL
import Synchronization

/// The certificate chain and private key HTTPS is served with (`--tls-cert-file`,
/// `--tls-key-file`), read again by ``reload()`` (on SIGHUP): a renewed pair is served to the
/// next connection, without a restart; connections already open keep theirs.
public final class TLSCertificate: Sendable {
    public let certificateFile: String
    public let keyFile: String
    private let context: Mutex<NIOSSLContext>

    /// Why a pair cannot be served, naming the file at fault.
    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads the pair; a missing, unreadable or malformed file, or a key that is not the
    /// certificate's, is a ``LoadError`` naming it.
    public init(certificateFile: String, keyFile: String) throws(LoadError) {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        context = Mutex(try Self.load(certificateFile: certificateFile, keyFile: keyFile))
    }

    /// The context a new connection's handshake uses.
    var current: NIOSSLContext { context.withLock { $0 } }

    /// Reads the files again; on failure the pair served so far stays. A certificate that has
    /// expired or is not yet valid at `now` is refused (a renewal that went wrong must not replace
    /// one that works).
    public func reload(now: Date = Date()) throws(LoadError) {
        let fresh = try Self.load(certificateFile: certificateFile, keyFile: keyFile, validAt: now)
        context.withLock { $0 = fresh }
    }

    private static func load(certificateFile: String, keyFile: String, validAt now: Date? = nil) throws(LoadError) -> NIOSSLContext {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificateFile)
        } catch {
            throw LoadError(description: "--tls-cert-file \(certificateFile): \(reason(error, file: certificateFile, what: "a PEM certificate"))")
        }
        guard let leaf = chain.first else { throw LoadError(description: "--tls-cert-file \(certificateFile): it holds no PEM certificate") }
        if let now {
            let (from, until) = (Date(timeIntervalSince1970: TimeInterval(leaf.notValidBefore)), Date(timeIntervalSince1970: TimeInterval(leaf.notValidAfter)))
            guard now >= from else {
                throw LoadError(description: "--tls-cert-file \(certificateFile): its certificate is not valid until \(DateTimeScalar.string(from: from))")
            }
            guard now <= until else {
                throw LoadError(description: "--tls-cert-file \(certificateFile): its certificate expired at \(DateTimeScalar.string(from: until))")
            }
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: keyFile, format: .pem)
        } catch {
            throw LoadError(description: "--tls-key-file \(keyFile): \(reason(error, file: keyFile, what: "a PEM private key"))")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            // BoringSSL refuses a key that is not the certificate's here (KEY_VALUES_MISMATCH).
            throw LoadError(description: "--tls-key-file \(keyFile) is not the private key of the certificate in --tls-cert-file \(certificateFile) (\(error))")
        }
    }

    private static func reason(_ error: any Error, file: String, what: String) -> String {
        FileManager.default.isReadableFile(atPath: file) ? "it is not \(what) (\(error))" : "it cannot be read (missing, or not readable by this user)"
    }
}
