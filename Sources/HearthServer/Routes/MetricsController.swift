import Hummingbird
import Prometheus

/// `GET /metrics`: every metric recorded through swift-metrics, in Prometheus text format.
public struct MetricsController<Context: RequestContext>: Sendable {
    public let registry: PrometheusCollectorRegistry

    public init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    public func addRoutes(to router: Router<Context>) {
        router.get("/metrics") { _, _ in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(16 * 1024)
            registry.emit(into: &bytes)
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }
}
