import HearthCore

/// The HearthCore services the GraphQL resolvers map schema fields onto.
public struct HearthServices: Sendable {
    public var users: UserService
    public var households: HouseholdService
    public var stores: StoreService
    public var tasks: TaskService
    public var notifications: NotificationService
    public var sync: SyncService
    public var delivery: DeliveryService
    /// Every service's health check, for `Query.health`.
    public var health: HealthRegistry
    /// The clock the services run on (invitation states are told by it).
    public var clock: any HearthClock

    public init(users: UserService, households: HouseholdService, stores: StoreService, tasks: TaskService, notifications: NotificationService, sync: SyncService, delivery: DeliveryService, health: HealthRegistry,
                clock: any HearthClock = SystemClock()) {
        self.users = users
        self.households = households
        self.stores = stores
        self.tasks = tasks
        self.notifications = notifications
        self.sync = sync
        self.delivery = delivery
        self.health = health
        self.clock = clock
    }
}
