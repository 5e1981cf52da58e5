import HearthCore

/// The HearthCore services the GraphQL resolvers map schema fields onto.
public struct HearthServices: Sendable {
    public var users: UserService
    /// Every service's health check, for `Query.health`.
    public var health: HealthRegistry

    public init(users: UserService, health: HealthRegistry) {
        self.users = users
        self.health = health
    }
}
