import Logging
import ServiceLifecycle
import UnixSignals

extension TLSCertificate {
    /// Handles SIGHUP for the whole process: with HTTPS it reads the pair again (a renewed
    /// certificate needs no restart; a pair that cannot be read, or whose certificate has expired
    /// or is not yet valid, is logged and the one served so far stays); without, it is logged and
    /// ignored — a hang-up must not stop a plain-HTTP Hearth either.
    public struct ReloadService: Service {
        let certificate: TLSCertificate?
        let logger: Logger

        public init(certificate: TLSCertificate?, logger: Logger) {
            self.certificate = certificate
            self.logger = logger
        }

        public func run() async throws {
            for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
                guard let certificate else {
                    logger.notice("SIGHUP ignored: Hearth serves plain HTTP, there is no TLS certificate to reload")
                    continue
                }
                do {
                    try certificate.reload()
                    logger.notice("TLS certificate reloaded", metadata: ["certificate": "\(certificate.certificateFile)"])
                } catch {
                    logger.error("TLS certificate not reloaded: the one served so far stays", metadata: ["problem": "\(error.description)"])
                }
            }
        }
    }
}
