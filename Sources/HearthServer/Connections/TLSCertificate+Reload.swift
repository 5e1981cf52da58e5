import Logging
import ServiceLifecycle
import UnixSignals

extension TLSCertificate {
    /// Reads the pair again on each SIGHUP (a renewed certificate needs no restart). A pair that
    /// cannot be read is logged and the one served so far stays.
    public struct ReloadService: Service {
        let certificate: TLSCertificate
        let logger: Logger

        public init(certificate: TLSCertificate, logger: Logger) {
            self.certificate = certificate
            self.logger = logger
        }

        public func run() async throws {
            for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
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
