import GraphQLEngine
import HearthCore

/// `Query.health`: every service's health check, for instance administrators.
enum HealthResolvers {
    static func register(_ resolvers: inout Resolvers, health: HealthRegistry) {
        resolvers.field("Query.health") { input in
            let signedIn = try input.signedIn()
            guard signedIn.user.isAdmin else {
                throw FieldError("Only instance administrators may read the server's health.", code: .forbidden)
            }
            return .list(await health.checkAll().map { .object($0 as ServiceHealthStatus.Named) })
        }
    }
}
