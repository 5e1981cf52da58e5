import GraphQLEngine
import HearthCore

/// `Query.health`: every service's health check, for instance administrators.
enum HealthResolvers {
    static let plainTypes: Set<String> = ["ServiceHealth"]

    static func register(_ resolvers: inout Resolvers, health: HealthRegistry) {
        resolvers.field("Query.health") { input in
            let signedIn = try input.signedIn()
            guard signedIn.user.isAdmin else {
                throw FieldError("Only instance administrators may read the server's health.", code: "FORBIDDEN")
            }
            let results = await health.checkAll()
            return .value(.list(results.map { name, status in
                let details = GraphQLObject(
                    status.details.sorted { $0.key < $1.key }.map { (key: $0.key, value: HealthDetailJSON($0.value).graphQLValue) })
                return [
                    "name": .string(name), "isHealthy": .bool(status.isHealthy),
                    "lastChecked": .string(DateTimeScalar.string(from: status.lastChecked)),
                    "errors": .list(status.errors.map(GraphQLValue.string)), "responseTimeMs": .float(status.responseTime.responseTimeMilliseconds),
                    "details": details.isEmpty ? .null : .object(details),
                ]
            }))
        }
    }
}
