import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Watched stores: adding one (validated by fetching its feed and importing it), renaming,
/// removing, listing, syncing with change detection (its notifications go through
/// ``NotificationOutbox``), and reading products and events — every request checked against the caller's ability in their household.
///
/// Reading a store of a household the caller is not in answers `notFound`, as a missing id does.
public final class StoreService: ServiceHealth {
    public let configuration: StoresConfiguration
    let database: Database
    let households: HouseholdService
    public let client: ShopifyClient
    let clock: any HearthClock
    let logger: Logger
    /// Change events and notifications as syncs commit, for subscriptions.
    public let changes: StoreChangeFeed
    /// What the background loop last did (for health).
    let loopState = Mutex(StoreSyncLoopState())

    public init(database: Database, households: HouseholdService, client: ShopifyClient, configuration: StoresConfiguration = StoresConfiguration(),
                clock: any HearthClock = SystemClock(), logger: Logger? = nil) {
        self.database = database
        self.households = households
        self.client = client
        self.configuration = configuration
        self.clock = clock
        self.logger = logger ?? database.logger
        self.changes = StoreChangeFeed()
        database.bus.on(StoreChangeNotice.topic) { [weak self] message in
            if let notice = message.decode(StoreChangeNotice.self) { await self?.relay(notice) }
        }
    }

    /// Closes the feed client's connections; call once when the service stops.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    static let storeColumns = SQLColumns(["id": .init("s.id", .uuid), "householdId": .init("s.household_id", .uuid)])

    static let storeSelect = """
        s.id, s.household_id, s.domain, s.name, s.currency, s.created_at, s.product_count, s.preview_images, s.last_synced_at, s.next_sync_at, \
        s.last_error, s.last_error_message, s.last_error_status, s.last_error_retry_after, s.last_error_at, \
        s.lease_expires_at, s.failure_count, s.version, \(Cursor.microsecondsSQL("s.created_at")) AS micros
        """

    // MARK: Stores

    /// Adds a store to a household: fetches its whole feed and imports it (no change events).
    /// An empty `name` becomes the domain's first label ("allbirds.com" → "allbirds").
    public func addStore(_ caller: Caller, householdID: UUID, domain rawDomain: String, name rawName: String?) async throws -> Store {
        _ = try await households.readableHousehold(caller, householdID)
        try caller.authorize("create", Store.subject(householdID: householdID))
        let domain = try StoreDomain(rawDomain)
        let name = try Self.name(rawName, default: domain.suggestedName)
        if try await exists("SELECT count(*) FROM stores WHERE household_id = \(householdID) AND domain = \(domain.host)") {
            throw ServiceError.conflict("This household already watches \(domain.host).")
        }
        let id = UUID()
        let now = clock.now
        let next = now.addingTimeInterval(configuration.syncInterval.seconds)
        let logger = self.logger
        let client = self.client
        do {
            let host = domain.host
            let currency = try await client.fetchCurrency(domain, logger: logger)
            let insert: PostgresQuery = """
                INSERT INTO stores (id, household_id, domain, name, created_by, created_at, next_sync_at, last_attempt_at)
                VALUES (\(id), \(householdID), \(host), \(name), \(caller.userID), \(now), \(next), \(now))
                """
            let summary = try await database.transaction(logger: logger) { connection async throws in
                try await connection.query(insert, logger: logger)
                var sync = CatalogSync(storeID: id, householdID: householdID, now: now, recordsChanges: false, connection: connection, logger: logger)
                let fetched = try await client.fetchCatalog(domain, logger: logger) { page in try await sync.apply(page) }
                try await sync.finish(complete: fetched.complete)
                try await Self.markSynced(id, now: now, next: next, currency: currency, on: connection, logger: logger)
                return (fetched, sync.statements, sync.productsWritten)
            }
            await vacuumAndAnalyze(afterWriting: summary.2)
            logger.info("store added", metadata: [
                "store": "\(id)", "domain": "\(domain.host)", "products": "\(summary.0.products)", "pages": "\(summary.0.pages)",
                "statements": "\(summary.1)",
            ])
        } catch let error as StoreSyncError {
            throw ServiceError.feedUnusable(error)
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw ServiceError.conflict("This household already watches \(domain.host).")
        }
        return try await readableStore(caller, id)
    }

    /// Renames a store (admins and owners).
    public func renameStore(_ caller: Caller, id: UUID, name rawName: String) async throws -> Store {
        let store = try await readableStore(caller, id)
        try caller.authorize("update", store.subject)
        let name = try Self.name(rawName, default: nil)
        try await database.client.query("UPDATE stores SET name = \(name) WHERE id = \(id)", logger: logger)
        return try await readableStore(caller, id)
    }

    /// Removes a store with its products, history, events and notifications (admins and owners).
    public func removeStore(_ caller: Caller, id: UUID) async throws {
        let store = try await readableStore(caller, id)
        try caller.authorize("delete", store.subject)
        try await database.transaction(logger: logger) { connection in
            try await connection.query("DELETE FROM stores WHERE id = \(id)", logger: logger)
            // The store's tombstone stands for its products' and events' (sync clients drop them with it).
            try await connection.query(
                "DELETE FROM sync_changes WHERE parent = \(id) AND type IN ('PRODUCT', 'STORE_EVENT')", logger: logger)
        }
        logger.info("store removed", metadata: ["store": "\(id)", "domain": "\(store.domain)"])
    }

    /// A store the caller may read.
    public func store(_ caller: Caller, id: UUID) async throws -> Store {
        try await readableStore(caller, id)
    }

    /// A household's stores, oldest first.
    public func stores(_ caller: Caller, householdID: UUID, page: PageRequest) async throws -> Page<Store> {
        _ = try await households.readableHousehold(caller, householdID)
        return try await stores(caller, households: [householdID], page: page)[householdID] ?? .empty
    }

    /// The same page of stores for each of several households the caller was shown (not read
    /// again; the store rule is applied in SQL), in one statement (`LATERAL … LIMIT` per household)
    /// plus one grouped count when the page wants totals.
    public func stores(_ caller: Caller, households ids: [UUID], page: PageRequest) async throws -> [UUID: Page<Store>] {
        let after = try page.afterKeyset()
        guard let allowed = try caller.ability.sqlCondition("read", subjectType: "Store", columns: Self.storeColumns) else { return [:] }
        let totals = try await database.counts("SELECT s.household_id AS key, count(*)::int8 AS count FROM stores s WHERE s.household_id = ANY(\(ids)) AND \(allowed) GROUP BY 1", wanted: page.countsTotal)
        let rows: [(store: Store, micros: Int64)]
        if after == nil, let shown = caller.ability.householdScope("read", subjectType: "Store").allowed(ids) {
            // A first page under rules that decide by household alone (a member's): one prepared
            // statement for every caller, where the rules' SQL made a text PostgreSQL planned each time.
            rows = shown.isEmpty ? [] : stamped(try await database.rows(FirstStorePages(households: shown, limit: page.rowLimit)))
        } else {
            rows = try await decodeStores(try await database.client.query("""
            SELECT \(unescaped: Self.storeSelect) FROM unnest(\(ids)::uuid[]) AS parent(id)
            CROSS JOIN LATERAL (
                SELECT * FROM stores s
                WHERE s.household_id = parent.id AND \(allowed) AND \(SQLCondition.keyset(after: after, time: "s.created_at", id: "s.id"))
                ORDER BY s.created_at, s.id LIMIT \(page.rowLimit)
            ) s
            ORDER BY s.household_id, s.created_at, s.id
            """, logger: logger))
        }
        return Page.grouped(rows, by: \.store.householdID, parents: ids, request: page, totals: totals,
                            cursor: { Cursor.make(microseconds: $0.micros, id: $0.store.id) }, item: \.store)
    }

    /// The first page of the stores of each household `$1` (`$2` of them), oldest first, at most
    /// `$3` each (the parents' `page`): the households the caller may read stores in.
    struct FirstStorePages: PreparedQuery {
        typealias Output = StoreRow
        static var sql: String {
            """
            SELECT \(StoreService.storeSelect) FROM \(parentRows("$1", count: "$2", page: "$3")) AS parent
            CROSS JOIN LATERAL (
                SELECT * FROM stores s WHERE s.household_id = parent.id ORDER BY s.created_at, s.id LIMIT parent.page
            ) s
            ORDER BY s.household_id, s.created_at, s.id
            """
        }
        let households: [UUID]
        let limit: Int

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(parents: households)
            bindings.append(limit)
            return bindings
        }
    }

    /// How many of each household's stores the caller sees are FAILED now (an error kept and no
    /// sync running: the state ``StoreRow/store(at:)`` gives), for households the caller was shown
    /// (not read again), in one grouped statement; a household without any is absent.
    public func storesInError(_ caller: Caller, households ids: [UUID]) async throws -> [UUID: Int] {
        guard let allowed = try caller.ability.sqlCondition("read", subjectType: "Store", columns: Self.storeColumns) else { return [:] }
        return try await database.counts("""
            SELECT s.household_id AS key, count(*)::int8 AS count FROM stores s WHERE s.household_id = ANY(\(ids)) AND \(allowed)
            AND s.last_error IS NOT NULL AND (s.lease_expires_at IS NULL OR s.lease_expires_at <= \(clock.now)) GROUP BY 1
            """)
    }

    func readableStore(_ caller: Caller, _ id: UUID) async throws -> Store {
        let rows = try await database.client.query("SELECT \(unescaped: Self.storeSelect) FROM stores s WHERE s.id = \(id)", logger: logger)
        guard let store = try await decodeStores(rows).first?.store, caller.ability.can("read", store.subject) else {
            throw ServiceError.notFound("Store")
        }
        return store
    }

    /// The stores of `rows` (``storeSelect``), their sync state as of now, with their cursor keys.
    func decodeStores(_ rows: PostgresRowSequence) async throws -> [(store: Store, micros: Int64)] {
        stamped(try await rows.rows(as: StoreRow.self))
    }

    /// Each row's store, its sync state as of now, with its cursor key.
    func stamped(_ rows: [StoreRow]) -> [(store: Store, micros: Int64)] {
        let now = clock.now
        return rows.map { ($0.store(at: now), $0.micros) }
    }

    // MARK: Helpers

    static func name(_ raw: String?, default fallback: String?) throws(ServiceError) -> String {
        let trimmed = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty, let fallback { return String(fallback.prefix(80)) }
        do {
            return try UserInput.text(trimmed, field: "name", maxLength: 80)
        } catch {
            throw ServiceError.invalidInput(field: "name", message: error.message)
        }
    }

    func exists(_ query: PostgresQuery) async throws -> Bool {
        try await database.count(query) > 0
    }

    // MARK: Health

    public var healthName: String { "stores" }

    public func performHealthCheck() async -> ServiceHealthStatus {
        let started = ContinuousClock.now
        let now = clock.now
        let loop = loopState.withLock { $0 }
        do {
            let rows = try await database.client.query("""
                SELECT count(*) FILTER (WHERE last_error IS NOT NULL) AS failing,
                       count(*) FILTER (WHERE next_sync_at <= \(now) AND (lease_expires_at IS NULL OR lease_expires_at < \(now))) AS due,
                       count(*) FILTER (WHERE lease_expires_at >= \(now)) AS syncing,
                       count(*) AS total
                FROM stores
                """, logger: logger)
            var figures = (0, 0, 0, 0)
            for row in try await rows.columns(("failing", Int.self), ("due", Int.self), ("syncing", Int.self), ("total", Int.self)) { figures = row }
            var details: [String: HealthDetail] = [
                "storesInError": .int(figures.0), "dueNotLeased": .int(figures.1), "leased": .int(figures.2), "stores": .int(figures.3),
                "loopRunning": .bool(loop.running), "loopSyncs": .int(loop.syncs), "loopFailures": .int(loop.failures),
            ]
            if let last = loop.lastRunAt { details["loopLastRunAt"] = .time(last) }
            if let failure = client.lastOutboundFailure {
                details["lastOutboundFailureAt"] = .time(failure.at)
                details["lastOutboundFailureHost"] = .text(failure.host)
                details["lastOutboundFailure"] = .text("\(failure.error.code.rawValue): \(failure.error.message)")
            }
            return ServiceHealthStatus(isHealthy: true, lastChecked: now, responseTime: ContinuousClock.now - started, details: details)
        } catch {
            return ServiceHealthStatus(isHealthy: false, lastChecked: now, errors: ["stores unreadable: \(ErrorText.oneLine(error))"],
                                       responseTime: ContinuousClock.now - started)
        }
    }
}

/// What the background loop has done in this process.
struct StoreSyncLoopState: Sendable {
    var running = false
    var lastRunAt: Date?
    var syncs = 0
    var failures = 0
}
