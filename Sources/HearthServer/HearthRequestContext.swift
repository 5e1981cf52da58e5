import Hummingbird
import Logging
import NIOCore

/// The request context of Hearth's router: Hummingbird's core context plus the peer's address,
/// which the GraphQL context carries (rate limits and logs need it).
public struct HearthRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The TCP peer; nil when the channel has none (tests driving the router directly).
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

extension SocketAddress {
    /// The address without its port, as logs and limits use it (`127.0.0.1`, `::1`, a socket path).
    var hostDescription: String {
        ipAddress ?? pathname ?? description
    }
}
