import Foundation
import Logging
import PostgresNIO
import Synchronization

/// How long the change log keeps tombstones, and with them how long a cursor stays valid.
public struct SyncConfiguration: Sendable {
    /// Days a cursor stays valid and a deletion is remembered (default 30).
    public var retentionDays: Int

    public init(retentionDays: Int = 30) {
        self.retentionDays = retentionDays
    }
}

/// Local-first sync: pulls of what changed in a household since a cursor (commit-safe, with
/// tombstones, only what the caller may read) and pushes of a device's queued mutations, each
/// applied exactly once. The change log is written by triggers (migration 0011), so every write
/// path — ordinary mutations, pushes, the catalog sync, cascades — reaches it.
public final class SyncService: Sendable {
    let database: Database
    let households: HouseholdService
    let tasks: TaskService
    let stores: StoreService
    let notifications: NotificationService
    let clock: any HearthClock
    let configuration: SyncConfiguration
    let logger: Logger
    /// Households whose changes committed (on any instance), for `syncAvailable`.
    public let pokes = SyncPokeFeed()
    /// When the database was restored from a backup, read once per process (a restore needs every
    /// instance stopped): cursors issued before it expire. nil until read; `.some(nil)`: never restored.
    private let restoredAt = Mutex<Date??>(nil)

    public init(database: Database, households: HouseholdService, tasks: TaskService, stores: StoreService, notifications: NotificationService,
                clock: any HearthClock = SystemClock(), configuration: SyncConfiguration = SyncConfiguration(), logger: Logger? = nil) {
        self.database = database
        self.households = households
        self.tasks = tasks
        self.stores = stores
        self.notifications = notifications
        self.clock = clock
        self.configuration = configuration
        self.logger = logger ?? database.logger
        let pokes = self.pokes
        database.bus.on(Self.pokeTopic) { message in
            if let commit = message.decodeWhole(SyncCommit.Message.self) { pokes.publish(SyncCommit(householdID: commit.body, clientID: commit.client)) }
        }
    }

    /// The topic the log's trigger notifies on (see `sync_poke`).
    static let pokeTopic = "sync"

    /// Page sizes a pull accepts.
    public static let pageSizes = 1...1000

    // MARK: Pull

    /// Refuses (`NOT_FOUND`) a household the caller cannot pull: not theirs, or gone.
    public func mayPull(_ caller: Caller, householdID: UUID) async throws {
        _ = try await households.readableHousehold(caller, householdID)
    }

    /// What changed in the household after `after` (nil: a snapshot of everything there is),
    /// oldest first, at most `first` records, each once with its newest version.
    public func pull(_ caller: Caller, householdID: UUID, after: String?, first: Int, clientID: UUID?) async throws -> SyncPage {
        _ = try await households.readableHousehold(caller, householdID)
        guard Self.pageSizes.contains(first) else {
            throw ServiceError.invalidInput(field: "first", message: "first must be from 1 to 1000; \(first) is not.")
        }
        let now = clock.now
        var cursor: SyncCursor
        if let after {
            cursor = try SyncCursor.decode(after, household: householdID)
            switch try await staleness(since: cursor.baseAt ?? cursor.targetAt ?? now) {
            case .olderThanRetention: throw ServiceError.syncCursorExpired(retentionDays: configuration.retentionDays)
            case .beforeRestore: throw ServiceError.syncCursorBeforeRestore
            case nil: break
            }
        } else {
            cursor = SyncCursor(household: householdID)
        }
        // A pull continued from an earlier request reads up to that request's snapshot: finishing
        // it is not being up to date, so the client is told to pull again (from a new snapshot).
        let continued = cursor.target != nil
        if cursor.target == nil {
            cursor.target = try await database.currentSnapshot()
            cursor.targetAt = now
            cursor.position = nil
        }
        let rows = try await changes(caller, householdID: householdID, cursor: cursor, limit: first + 1)
        let page = Array(rows.prefix(first))
        let hasMore: Bool
        if rows.count > first, let last = page.last {
            cursor.position = SyncCursor.Position(xid: last.xid, type: last.type.rawValue, id: last.id, person: last.person)
            hasMore = true
        } else {
            cursor = SyncCursor(household: householdID, base: cursor.target, baseAt: cursor.targetAt)
            hasMore = continued
        }
        return SyncPage(changes: try await withRecords(page, householdID: householdID, caller: caller), cursor: cursor.encoded, hasMore: hasMore,
                        lastMutationID: try await lastMutationID(clientID, caller))
    }

    /// Why the change log no longer covers a cursor (or a calendar's sync token) taken at a time.
    enum Staleness {
        /// Older than the retention time: tombstones it would need are gone.
        case olderThanRetention
        /// From before the database was restored from a backup.
        case beforeRestore
    }

    /// Whether a cursor taken at `since` can no longer be followed, and why; nil when it can.
    func staleness(since: Date) async throws -> Staleness? {
        if since < clock.now.addingTimeInterval(-Double(configuration.retentionDays) * 86_400) { return .olderThanRetention }
        if let restored = try await lastRestore(), since < restored { return .beforeRestore }
        return nil
    }

    private func lastRestore() async throws -> Date? {
        if let known = restoredAt.withLock({ $0 }) { return known }
        let found = try await InstallationSettings.restoredAt(database)
        restoredAt.withLock { $0 = .some(found) }
        return found
    }

    /// One logged change, before its record is read: a row of the change log (`type, record_id,
    /// person, version, deleted, xid`).
    struct LoggedChange: TypedRow {
        var type: SyncType
        var id: String
        var person: String
        var version: Int
        var deleted: Bool
        var xid: String

        init(_ row: inout RowCells) throws {
            (type, id, person) = (try row("type"), try row("record_id"), try row("person"))
            (version, deleted, xid) = (try row("version"), try row("deleted"), try row("xid"))
        }
    }

    /// The log rows of the page: visible in the target snapshot, not in the base one (a snapshot
    /// pull: every live record), of types the caller reads, shared or the caller's own.
    private func changes(_ caller: Caller, householdID: UUID, cursor: SyncCursor, limit: Int) async throws -> [LoggedChange] {
        let types = SyncType.allCases.filter { type in
            type == .notification || caller.ability.can("read", .ofHousehold(type.subjectType, householdID))
        }.map(\.rawValue)
        let target = cursor.target ?? ""
        let since = SQLCondition.changed(since: cursor.base)
        let after: SQLCondition = cursor.position.map { position in
            .predicate([.sql("(c.xid, c.type, c.record_id, COALESCE(c.person::text, '')) > ("), .bind(.text(position.xid)), .sql("::xid8, "),
                        .bind(.text(position.type)), .sql(", "), .bind(.text(position.id)), .sql(", "), .bind(.text(position.person)), .sql(")")])
        } ?? .alwaysTrue
        let rows = try await database.client.query("""
            SELECT c.type, c.record_id, COALESCE(c.person::text, '') AS person, c.version, c.deleted, c.xid::text AS xid
            FROM sync_changes c
            WHERE c.household_id = \(householdID) AND c.type = ANY(\(types)) AND (c.person IS NULL OR c.person = \(caller.userID))
              AND pg_visible_in_snapshot(c.xid, \(target)::pg_snapshot) AND \(since) AND \(after)
            ORDER BY c.xid, c.type, c.record_id, COALESCE(c.person::text, '')
            LIMIT \(limit)
            """, logger: logger)
        return try await rows.rows(as: LoggedChange.self)
    }

    /// The changes with their records as they are now (read in one statement per type). A record
    /// gone since it was logged is left out: its deletion committed after the target, so the next
    /// pull brings its tombstone. A record shared and per person (an event and its read state)
    /// comes once.
    private func withRecords(_ logged: [LoggedChange], householdID: UUID, caller: Caller) async throws -> [SyncChange] {
        var wanted: [SyncType: [String]] = [:]
        for change in logged where !change.deleted { wanted[change.type, default: []].append(change.id) }
        let records = try await records(wanted, householdID: householdID, caller: caller)
        var seen = Set<String>()
        var result: [SyncChange] = []
        for change in logged {
            let key = change.type.rawValue + "/" + change.id
            guard seen.insert(key).inserted else { continue }
            if change.deleted {
                result.append(SyncChange(type: change.type, id: change.id, version: change.version, deleted: true, record: nil))
            } else if let (record, version) = records[key] {
                result.append(SyncChange(type: change.type, id: change.id, version: version, deleted: false, record: record))
            }
        }
        return result
    }

    /// Records by "TYPE/id", with their versions, that the caller may read.
    private func records(_ wanted: [SyncType: [String]], householdID: UUID, caller: Caller) async throws -> [String: (SyncRecord, Int)] {
        var found: [String: (SyncRecord, Int)] = [:]
        func uuids(_ type: SyncType) -> [UUID] { (wanted[type] ?? []).compactMap { UUID(uuidString: $0) } }
        func add(_ type: SyncType, _ id: String, _ record: SyncRecord, _ version: Int, _ subject: AbilitySubject) {
            if caller.ability.can("read", subject) { found[type.rawValue + "/" + id] = (record, version) }
        }
        if !uuids(.household).isEmpty {
            let rows = try await database.client.query(
                "SELECT \(unescaped: HouseholdService.householdSelect) FROM households h WHERE h.id = ANY(\(uuids(.household)))", logger: logger)
            for (household, _) in try await HouseholdService.decodeHouseholds(rows) {
                add(.household, household.id.lowercasedString, .household(household), household.version, Household.subject(household.id))
            }
        }
        for member in try await households.members(householdID: householdID, userIDs: uuids(.member)) {
            add(.member, member.user.id.lowercasedString, .member(member), member.version,
                HouseholdMember.subject(householdID: member.householdID, userID: member.user.id, role: member.role))
        }
        if !uuids(.label).isEmpty {
            let rows = try await database.client.query(
                "SELECT \(unescaped: TaskService.labelColumns) FROM labels WHERE id = ANY(\(uuids(.label)))", logger: logger)
            for label in try await TaskService.decodeLabels(rows) {
                add(.label, label.id.lowercasedString, .label(label), label.version, label.subject)
            }
        }
        if !uuids(.task).isEmpty {
            let rows = try await database.client.query(
                "SELECT \(unescaped: TaskService.itemSelect) FROM task_items t WHERE t.id = ANY(\(uuids(.task)))", logger: logger)
            for item in try await tasks.withDetails(try await TaskService.decodeItems(rows)) {
                add(.task, item.id.lowercasedString, .task(item), item.version, item.subject)
            }
        }
        if !uuids(.store).isEmpty {
            let rows = try await database.client.query(
                "SELECT \(unescaped: StoreService.storeSelect) FROM stores s WHERE s.id = ANY(\(uuids(.store)))", logger: logger)
            for (store, _) in try await stores.decodeStores(rows) {
                add(.store, store.id.lowercasedString, .store(store), store.version, store.subject)
            }
        }
        if !uuids(.product).isEmpty {
            let rows = try await database.client.query(
                """
                SELECT \(unescaped: StoreService.productColumns(domain: "s.domain")) FROM products p JOIN stores s ON s.id = p.store_id
                WHERE p.id = ANY(\(uuids(.product))) AND p.removed_at IS NULL
                """,
                logger: logger)
            for product in try await rows.rows(as: ProductRow.self).map(\.product) {
                add(.product, product.id.lowercasedString, .product(product), product.version, Product.subject(householdID: product.householdID))
            }
        }
        let eventIDs = (wanted[.storeEvent] ?? []).compactMap { Int64($0) }
        if !eventIDs.isEmpty {
            for event in try await stores.events(ids: eventIDs, reader: caller.userID) {
                add(.storeEvent, String(event.id), .storeEvent(event), event.version, StoreService.eventSubject(event.householdID))
            }
        }
        if !uuids(.notification).isEmpty {
            for notification in try await NotificationService.notifications(ids: uuids(.notification), from: database.client, logger: logger)
            where notification.userID == caller.userID {
                found[SyncType.notification.rawValue + "/" + notification.id.lowercasedString] = (.notification(notification), notification.version)
            }
        }
        return found
    }

    /// The last mutation `push` processed for the client, when it is the caller's.
    private func lastMutationID(_ clientID: UUID?, _ caller: Caller) async throws -> Int {
        guard let clientID else { return 0 }
        let rows = try await database.client.query(
            "SELECT last_mutation_id FROM sync_clients WHERE id = \(clientID) AND user_id = \(caller.userID)", logger: logger)
        for try await id in rows.decode(Int.self) { return id }
        return 0
    }

    // MARK: Retention

    /// Prunes tombstones when this instance claims the hour's lease (so one instance does it per
    /// hour, whichever comes first); returns how many went, nil when another instance holds it.
    @discardableResult
    public func pruneTombstonesIfLeased(instance: String) async throws -> Int? {
        let now = clock.now
        guard try await MaintenanceLease.claim("sync-prune", holder: instance, until: now.addingTimeInterval(3600), now: now,
                                               on: database.client, logger: logger) else { return nil }
        return try await pruneTombstones()
    }

    /// Forgets tombstones older than the retention time (and an hour more, for transactions that
    /// began before a cursor's snapshot and committed after it); returns how many.
    public func pruneTombstones() async throws -> Int {
        let cutoff = clock.now.addingTimeInterval(-Double(configuration.retentionDays) * 86_400 - 3600)
        let rows = try await database.client.query(
            "WITH gone AS (DELETE FROM sync_changes WHERE deleted AND changed_at < \(cutoff) RETURNING 1) SELECT count(*) FROM gone", logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }
}

extension SyncType: TextColumn {}
