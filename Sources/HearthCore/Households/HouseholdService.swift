import Crypto
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Households, their members, invitations and activity log, with every request checked against
/// the caller's ability (built from `role_permissions`).
///
/// Reading something the caller may not read answers `notFound`, exactly as a missing id does;
/// being allowed to read but not to change answers `forbidden`. Household, membership and ability
/// lookups are cached for ``HouseholdsConfiguration/cacheTTL`` and dropped on every write.
public final class HouseholdService: ServiceHealth {
    public let configuration: HouseholdsConfiguration
    /// The role rules: given, or read from `role_permissions` by ``loadPermissions()``.
    private let loadedPermissions: Mutex<RolePermissions?>
    let database: Database
    let clock: any HearthClock
    let logger: Logger
    /// A person's roles and ability, by user id.
    let abilities: TTLCache<UUID, Caller>
    /// Households by id.
    let households: TTLCache<UUID, Household>

    /// Without `permissions`, the role rules are read from the database when first needed (or
    /// by ``loadPermissions()`` at start-up, after migrations, so bad rules stop the start).
    public init(database: Database, permissions: RolePermissions? = nil, configuration: HouseholdsConfiguration = HouseholdsConfiguration(),
                clock: any HearthClock = SystemClock(), logger: Logger? = nil) {
        self.database = database
        self.loadedPermissions = Mutex(permissions)
        self.configuration = configuration
        self.clock = clock
        self.logger = logger ?? database.logger
        self.abilities = TTLCache(ttl: configuration.cacheTTL, clock: clock)
        self.households = TTLCache(ttl: configuration.cacheTTL, clock: clock)
        database.bus.on(HouseholdCacheChange.topic) { [weak self] message in
            if let change = message.decode(HouseholdCacheChange.self) { self?.apply(change) }
        }
        // Changes made while the listener was away were not heard: start over.
        database.bus.onConnect { [weak self] in
            self?.abilities.removeAll()
            self?.households.removeAll()
        }
    }

    // MARK: Abilities

    /// Reads and checks `role_permissions`; throws ``PermissionRuleError`` naming a bad rule.
    @discardableResult
    public func loadPermissions() async throws -> RolePermissions {
        let permissions = try await RolePermissions.load(from: database, logger: logger)
        loadedPermissions.withLock { $0 = permissions }
        abilities.removeAll()
        return permissions
    }

    /// The role rules in use.
    public func permissions() async throws -> RolePermissions {
        if let permissions = loadedPermissions.withLock({ $0 }) { return permissions }
        return try await loadPermissions()
    }

    /// What `userID` may do: their households' role rules plus everyone's, cached.
    public func caller(for userID: UUID) async throws -> Caller {
        if let cached = abilities.value(for: userID) { return cached }
        let ticket = abilities.beginRead()
        let rows = try await database.client.query(
            """
            SELECT m.household_id, m.role, h.name FROM household_members m JOIN households h ON h.id = m.household_id
            WHERE m.user_id = \(userID) ORDER BY m.joined_at, m.household_id
            """, logger: logger)
        var memberships: [(id: UUID, role: String)] = []
        var roles: [UUID: HouseholdRole] = [:]
        var names: [UUID: String] = [:]
        for (household, role, name) in try await rows.columns(("household_id", UUID.self), ("role", String.self), ("name", String.self)) {
            memberships.append((household, role))
            roles[household] = HouseholdRole(rawValue: role)
            names[household] = name
        }
        let permissions = try await permissions()
        let ability = Ability(rules: try permissions.rules(userID: userID, households: memberships))
        let caller = Caller(userID: userID, ability: ability, roles: roles, householdNames: names, permissions: permissions)
        abilities.store(caller, for: userID, readSince: ticket)
        return caller
    }

    /// Drops the cached abilities of people whose memberships changed (nobody else's rules
    /// mention them), here and in the other instances.
    func forget(users: [UUID]) async {
        await forget(HouseholdCacheChange(users: users))
    }

    /// Drops what a committed write made stale, here and (over the event bus) in the other instances.
    func forget(_ change: HouseholdCacheChange) async {
        apply(change)
        await database.bus.publish(HouseholdCacheChange.topic, change)
    }

    private func apply(_ change: HouseholdCacheChange) {
        for user in change.users { abilities.remove(user) }
        if let household = change.household {
            // Abilities carry the household's name (for refusals): a rename drops them too.
            abilities.removeAll { $0.roles[household] != nil }
            households.remove(household)
        }
    }

    // MARK: Households

    /// Creates a household with the caller as its owner.
    public func createHousehold(_ caller: Caller, name: String, description: String?, timeZone: String) async throws -> Household {
        let name = try UserInput.text(name, field: "name", maxLength: 80)
        let description = try Self.description(description)
        let timeZone = try UserInput.timeZone(timeZone)
        try caller.authorize("create", .type("Household"))
        let now = clock.now
        let household = Household(id: UUID(), name: name, description: description ?? "", timeZone: timeZone, createdAt: now, updatedAt: now)
        try await database.transaction(logger: logger) { connection in
            try await insert(household, owner: caller.userID, on: connection)
        }
        await forget(users: [caller.userID])
        logger.info("household created", metadata: ["household": "\(household.id)", "user": "\(caller.userID)"])
        return household
    }

    /// Writes a new household with `owner` as its owner (their current household if they had none), and its activity.
    func insert(_ household: Household, owner: UUID, on connection: PostgresConnection) async throws {
        try await connection.query(
            """
            INSERT INTO households (id, name, description, time_zone, created_at, updated_at)
            VALUES (\(household.id), \(household.name), \(household.description), \(household.timeZone), \(household.createdAt), \(household.updatedAt))
            """, logger: logger)
        try await connection.query(
            """
            INSERT INTO household_members (household_id, user_id, role, joined_at)
            VALUES (\(household.id), \(owner), \(HouseholdRole.owner.rawValue), \(household.createdAt))
            """, logger: logger)
        try await makeCurrentIfNone(household.id, userID: owner, on: connection)
        try await record(.householdCreated, household: household.id, by: owner, on: connection)
    }

    /// A household the caller may read, else `notFound`.
    public func household(_ caller: Caller, id: UUID) async throws -> Household {
        return try await readableHousehold(caller, id)
    }

    /// The caller's households, oldest first.
    public func households(_ caller: Caller, page: PageRequest) async throws -> Page<Household> {
        let after = try page.afterKeyset()
        guard let allowed = try caller.ability.sqlCondition("read", subjectType: "Household", columns: Self.householdColumns) else {
            return .empty
        }
        let total = try await database.count("SELECT count(*) FROM households h WHERE \(allowed)", wanted: page.countsTotal)
        let rows = try await Self.decodeHouseholds(try await database.client.query(
            """
            SELECT \(unescaped: Self.householdSelect) FROM households h
            WHERE \(allowed) AND \(SQLCondition.keyset(after: after, time: "h.created_at", id: "h.id"))
            ORDER BY h.created_at, h.id LIMIT \(page.rowLimit)
            """, logger: logger))
        return Page(rows: rows, request: page, totalCount: total, cursor: { Cursor.make(microseconds: $0.micros, id: $0.household.id) },
                    item: \.household)
    }

    /// Changes the given settings (nil leaves one as it is), writing only those, under the
    /// household's row lock. Admins and owners. With `expectedVersion`, refused (`CONFLICT`) when
    /// a setting it names changed since.
    public func updateHousehold(_ caller: Caller, id: UUID, name: String?, description: String??, timeZone: String?,
                                expectedVersion: Int? = nil) async throws -> Household {
        let name = try name.map { name throws(ServiceError) in try UserInput.text(name, field: "name", maxLength: 80) }
        let description: String?? = try description.map { text throws(ServiceError) in try Self.description(text) }
        let timeZone = try timeZone.map { zone throws(ServiceError) in try UserInput.timeZone(zone) }
        let household = try await readableHousehold(caller, id)
        try caller.authorize("update", household.subject)
        var named: [(name: String, column: String)] = []
        if name != nil { named.append(("name", "name")) }
        if description != nil { named.append(("description", "description")) }
        if timeZone != nil { named.append(("timeZone", "time_zone")) }
        let now = clock.now
        let updated = try await database.transaction(logger: logger) { connection in
            let locked = try await connection.query(
                "SELECT version, field_versions FROM households WHERE id = \(id) FOR NO KEY UPDATE", logger: logger)
            for (version, fields) in try await locked.columns(("version", Int.self), ("field_versions", JSONColumn.self)) {
                try FieldVersions(version: version, json: fields).refuseStale("Household", expected: expectedVersion, fields: named)
            }
            let rows = try await connection.query(
                """
                UPDATE households h SET name = COALESCE(\(name), name),
                    description = CASE WHEN \(description != nil) THEN \(description.flatMap { $0 } ?? "") ELSE description END,
                    time_zone = COALESCE(\(timeZone), time_zone), updated_at = \(now)
                WHERE id = \(id) RETURNING \(unescaped: Self.householdSelect)
                """, logger: logger)
            guard let updated = try await Self.decodeHouseholds(rows).first?.household else { throw ServiceError.notFound("Household") }
            try await record(.householdUpdated, household: id, by: caller.userID, on: connection)
            return updated
        }
        await forget(HouseholdCacheChange(household: id))
        return updated
    }

    /// Deletes the household and everything it owns, in one transaction. Owners only.
    public func deleteHousehold(_ caller: Caller, id: UUID) async throws {
        let household = try await readableHousehold(caller, id)
        try caller.authorize("delete", household.subject)
        try await database.transaction(logger: logger) { connection in
            try await connection.query("DELETE FROM households WHERE id = \(id)", logger: logger)
            // The household's tombstone stands for everything in it.
            try await connection.query("DELETE FROM sync_changes WHERE household_id = \(id) AND type <> 'HOUSEHOLD'", logger: logger)
        }
        await forget(HouseholdCacheChange(household: id, deleted: true))
        logger.info("household deleted", metadata: ["household": "\(id)", "user": "\(caller.userID)"])
    }

    // MARK: Shared checks

    /// The household, when the caller may read it; `notFound` whether it is missing or hidden.
    /// Inside a transaction pass its connection (see ``Database/query(_:on:logger:)``).
    func readableHousehold(_ caller: Caller, _ id: UUID, on connection: PostgresConnection? = nil) async throws -> Household {
        guard caller.ability.can("read", Household.subject(id)), let household = try await household(id, on: connection) else {
            throw ServiceError.notFound("Household")
        }
        return household
    }

    /// A household by id through the cache, unchecked: callers check the caller's ability.
    private func household(_ id: UUID, on connection: PostgresConnection? = nil) async throws -> Household? {
        if let cached = households.value(for: id) { return cached }
        let ticket = households.beginRead()
        let rows = try await database.query(
            "SELECT \(unescaped: Self.householdSelect) FROM households h WHERE h.id = \(id)", on: connection, logger: logger)
        guard let household = try await Self.decodeHouseholds(rows).first?.household else { return nil }
        households.store(household, for: id, readSince: ticket)
        return household
    }

    /// A household's time zone, for background work done on its behalf (no caller to check);
    /// UTC when the household is gone or its zone unknown.
    func timeZone(of id: UUID) async throws -> TimeZone {
        try await household(id).flatMap { TimeZone(identifier: $0.timeZone) } ?? .gmt
    }

    static func description(_ text: String?) throws(ServiceError) -> String? {
        guard let text else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return "" }
        // Line breaks are welcome in a description; other control characters are not.
        let flattened = trimmed.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
        _ = try UserInput.text(flattened, field: "description", maxLength: 1000)
        return trimmed
    }

    /// A household's columns (a ``HouseholdRow``), with the creation time's exact microseconds (the page cursor).
    static let householdSelect = "h.id, h.name, h.description, h.time_zone, h.created_at, h.updated_at, h.version, "
        + Cursor.microsecondsSQL("h.created_at") + " AS micros"

    static func decodeHouseholds(_ rows: PostgresRowSequence) async throws -> [(household: Household, micros: Int64)] {
        try await rows.rows(as: HouseholdRow.self).map { ($0.household, $0.micros) }
    }

    static let householdColumns = SQLColumns(["id": .init("h.id", .uuid), "householdId": .init("h.id", .uuid)])

    // MARK: Health

    public var healthName: String { "households" }

    /// A round trip to the households table (how many there are), with the caches' sizes and hit rates.
    public func performHealthCheck() async -> ServiceHealthStatus {
        let started = ContinuousClock.now
        let checkedAt = Date()
        var details: [String: HealthDetail] = [:]
        let caches: [(String, count: Int, hitRate: Double)] = [
            ("abilityCache", abilities.statistics.count, abilities.statistics.hitRate),
            ("householdCache", households.statistics.count, households.statistics.hitRate),
        ]
        for (name, count, hitRate) in caches {
            details[name + "Size"] = .int(count)
            details[name + "HitRate"] = .rate(hitRate)
        }
        do {
            details["households"] = .int(try await database.count("SELECT count(*) FROM households"))
            return ServiceHealthStatus(isHealthy: true, lastChecked: checkedAt, responseTime: ContinuousClock.now - started, details: details)
        } catch {
            return ServiceHealthStatus(
                isHealthy: false, lastChecked: checkedAt, errors: ["households table unreachable: \(ErrorText.oneLine(error))"],
                responseTime: ContinuousClock.now - started, details: details)
        }
    }
}
