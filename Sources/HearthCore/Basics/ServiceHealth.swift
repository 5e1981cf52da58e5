import Foundation

/// The outcome of one health check of a service, as shown by `/admin/health`.
public struct ServiceHealthStatus: Sendable, Equatable {
    /// Whether the service can do its work right now.
    public var isHealthy: Bool
    /// When the check ran.
    public var lastChecked: Date
    /// What went wrong, in words an operator can act on; empty when healthy.
    public var errors: [String]
    /// How long the check took.
    public var responseTime: Duration
    /// Service-specific figures (cache size and hit rate, loop state), by name.
    public var details: [String: HealthDetail]

    public init(isHealthy: Bool, lastChecked: Date, errors: [String] = [], responseTime: Duration, details: [String: HealthDetail] = [:]) {
        self.isHealthy = isHealthy
        self.lastChecked = lastChecked
        self.errors = errors
        self.responseTime = responseTime
        self.details = details
    }
}

/// One figure of a health report, typed: reports show counts as numbers, switches as booleans
/// and times in one format (the server writes them as RFC 3339 with milliseconds, UTC).
public enum HealthDetail: Sendable, Equatable {
    case int(Int)
    case number(Double)
    case bool(Bool)
    case text(String)
    case time(Date)

    /// A rate (0…1) rounded to three decimals, as reports show hit rates.
    public static func rate(_ value: Double) -> HealthDetail { .number((value * 1000).rounded() / 1000) }
}

/// A service that can report whether it works; every HearthCore service conforms.
public protocol ServiceHealth: Sendable {
    /// A short stable name, such as `database`, used as the key in health reports.
    var healthName: String { get }
    /// Checks the service now. Never throws: a failure is an unhealthy status.
    func performHealthCheck() async -> ServiceHealthStatus
}

/// The set of services whose health `/admin/health` reports, in registration order.
public struct HealthRegistry: Sendable {
    public private(set) var services: [any ServiceHealth]

    public init(_ services: [any ServiceHealth] = []) {
        self.services = services
    }

    public mutating func register(_ service: any ServiceHealth) {
        services.append(service)
    }

    /// Checks every service concurrently and returns the results in registration order.
    public func checkAll() async -> [(name: String, status: ServiceHealthStatus)] {
        await withTaskGroup(of: (Int, ServiceHealthStatus).self) { group in
            for (index, service) in services.enumerated() {
                group.addTask { (index, await service.performHealthCheck()) }
            }
            var results = [ServiceHealthStatus?](repeating: nil, count: services.count)
            for await (index, status) in group {
                results[index] = status
            }
            return zip(services, results).compactMap { service, status in
                status.map { (service.healthName, $0) }
            }
        }
    }
}
