import HummingbirdCore
import Logging
import NIOCore
import NIOSSL

/// Serves `base` over TLS with ``TLSCertificate``'s pair as it is when the connection opens (so a
/// pair reloaded on SIGHUP is served to the next connection). The TLS handler goes first in the
/// pipeline, ahead of the base channel's own byte-level handlers (the request-head deadline reads
/// HTTP, not TLS records).
struct ReloadableTLSChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let certificate: TLSCertificate

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let context = certificate.current
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context), position: .first)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
