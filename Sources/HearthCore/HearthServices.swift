import Foundation
import Logging

/// Every HearthCore service, built in one place from one configuration, each handed the ones it
/// depends on: `hearth serve`, the command-line tools and the tests all get their services here,
/// and choose only configuration.
public struct HearthServices: Sendable {
    /// What each service is configured with, and the clock they all tell time by.
    public struct Configuration: Sendable {
        public var users: UsersConfiguration
        public var households: HouseholdsConfiguration
        public var stores: StoresConfiguration
        public var shopify: ShopifyClientConfiguration
        public var sync: SyncConfiguration
        public var delivery: DeliveryConfiguration
        /// Scheduled backups; nil: none (`hearth serve` without `--backup-dir`).
        public var backups: BackupSchedule?
        public var clock: any HearthClock

        public init(
            users: UsersConfiguration = UsersConfiguration(), households: HouseholdsConfiguration = HouseholdsConfiguration(),
            stores: StoresConfiguration = StoresConfiguration(), shopify: ShopifyClientConfiguration = ShopifyClientConfiguration(),
            sync: SyncConfiguration = SyncConfiguration(), delivery: DeliveryConfiguration = DeliveryConfiguration(),
            backups: BackupSchedule? = nil, clock: any HearthClock = SystemClock()
        ) {
            self.users = users
            self.households = households
            self.stores = stores
            self.shopify = shopify
            self.sync = sync
            self.delivery = delivery
            self.backups = backups
            self.clock = clock
        }
    }

    public let users: UserService
    public let households: HouseholdService
    public let stores: StoreService
    public let tasks: TaskService
    public let notifications: NotificationService
    /// What reminders' action links do (no session: the link is the permission).
    public let notificationActions: NotificationActionService
    public let sync: SyncService
    public let delivery: DeliveryService
    /// Household export and import.
    public let transfers: HouseholdTransferService
    /// Private calendar feeds.
    public let calendarFeeds: CalendarFeedService
    /// The households' calendars over CalDAV.
    public let calendars: CalendarService
    /// Scheduled backups, when configured.
    public let backups: ScheduledBackups?
    /// Every service's health check (and the database's and its bus's), for `Query.health` and `/healthz`.
    public let health: HealthRegistry
    /// The clock the services run on.
    public let clock: any HearthClock

    public init(database: Database, configuration: Configuration = Configuration(), logger: Logger? = nil) {
        let logger = logger ?? database.logger
        let clock = configuration.clock
        households = HouseholdService(database: database, configuration: configuration.households, clock: clock, logger: logger)
        users = UserService(database: database, configuration: configuration.users, clock: clock, logger: logger, accountHooks: households)
        stores = StoreService(database: database, households: households, client: ShopifyClient(configuration: configuration.shopify),
                              configuration: configuration.stores, clock: clock, logger: logger)
        tasks = TaskService(database: database, households: households, clock: clock, cacheTTL: configuration.households.cacheTTL, logger: logger)
        notifications = NotificationService(database: database, clock: clock, logger: logger)
        notificationActions = NotificationActionService(database: database, households: households, tasks: tasks,
                                                        secrets: configuration.delivery.secrets, clock: clock, logger: logger)
        sync = SyncService(database: database, households: households, tasks: tasks, stores: stores, notifications: notifications, clock: clock,
                           configuration: configuration.sync, logger: logger)
        delivery = DeliveryService(database: database, clock: clock, configuration: configuration.delivery, logger: logger)
        transfers = HouseholdTransferService(database: database, households: households, clock: clock, logger: logger)
        calendarFeeds = CalendarFeedService(database: database, households: households, clock: clock, publicURL: configuration.delivery.publicURL,
                                            logger: logger)
        calendars = CalendarService(database: database, tasks: tasks, sync: sync, clock: clock, logger: logger)
        backups = configuration.backups.map { ScheduledBackups(schedule: $0, database: database, clock: clock, logger: logger) }
        health = HealthRegistry([database, database.bus, users, households, stores, tasks, delivery] + (backups.map { [$0] } ?? []))
        self.clock = clock
    }

    /// Closes the HTTP clients the services keep (the shops' feeds, delivery), once nothing uses them.
    public func shutdown() async throws {
        try await stores.shutdown()
        try await delivery.shutdown()
    }
}
