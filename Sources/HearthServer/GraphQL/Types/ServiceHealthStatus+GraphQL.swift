import GraphQLEngine
import HearthCore

extension ServiceHealthStatus {
    /// One service's health check with the service's name: the parent of `ServiceHealth`.
    typealias Named = (name: String, status: ServiceHealthStatus)

    static func registerGraphQL(_ resolvers: inout Resolvers) {
        resolvers.object("ServiceHealth", Named.self) { health in
            health.field("name") { .string($0.name) }
            health.field("isHealthy") { .bool($0.status.isHealthy) }
            health.field("lastChecked") { .date($0.status.lastChecked) }
            health.field("errors") { .strings($0.status.errors) }
            health.field("responseTimeMs") { .double($0.status.responseTime.responseTimeMilliseconds) }
            health.field("details") { health in
                let details = health.status.details.sorted { $0.key < $1.key }
                guard !details.isEmpty else { return .null }
                return .value(.object(GraphQLObject(details.map { (key: $0.key, value: HealthDetailJSON($0.value).graphQLValue) })))
            }
        }
    }
}
