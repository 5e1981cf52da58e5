import Crypto
import Foundation
import Logging
import PostgresNIO

/// Private calendar feeds: made, listed and revoked by their owner; read by a calendar app with
/// the secret token alone, and showing only what the owner may read now (a household left since
/// is left out).
public struct CalendarFeedService: Sendable {
    let database: Database
    let households: HouseholdService
    let clock: any HearthClock
    let logger: Logger
    /// Where people reach Hearth, for each item's link back into the app; nil: no links.
    public let publicURL: URL?

    public init(database: Database, households: HouseholdService, clock: any HearthClock, publicURL: URL?, logger: Logger) {
        self.database = database
        self.households = households
        self.clock = clock
        self.publicURL = publicURL
        self.logger = logger
    }

    /// Most feeds one person may have.
    public static let maximumFeeds = 20
    /// Items a feed shows: from this long ago on, at most ``maximumItems``.
    public static let pastWindow: TimeInterval = 90 * 86_400
    public static let maximumItems = 5_000
    /// How often calendar apps are asked to read it again.
    static let refreshInterval = "PT15M"

    static let columns = "id, user_id, name, household_ids, kinds, created_at, last_fetched_at"

    private struct FeedRow: TypedRow {
        let feed: CalendarFeed

        init(_ row: inout RowCells) throws {
            let (id, userID, name, households): (UUID, UUID, String, [UUID]?) = (try row("id"), try row("user_id"), try row("name"), try row("household_ids"))
            let kinds = try row("kinds", as: [String].self).map { text in
                guard let kind = TaskKind(rawValue: text) else { throw JSONColumn.Malformed(column: "calendar_feeds.kinds", problem: "\(text) is not a kind") }
                return kind
            }
            feed = CalendarFeed(id: id, userID: userID, name: name, householdIDs: households, kinds: kinds, createdAt: try row("created_at"),
                                lastFetchedAt: try row("last_fetched_at"))
        }
    }

    // MARK: The owner's side

    /// Makes a feed of `householdIDs` (nil: all of the caller's) and `kinds` (nil: both); its address is shown this once.
    public func create(_ caller: Caller, name rawName: String, householdIDs: [UUID]?, kinds: [TaskKind]?) async throws -> CreatedCalendarFeed {
        let name = try UserInput.text(rawName, field: "name", maxLength: 100)
        let kinds = kinds.map { kind in TaskKind.allCases.filter(kind.contains) } ?? TaskKind.allCases
        guard !kinds.isEmpty else { throw ServiceError.invalidInput(field: "kinds", message: "kinds must name TASK, EVENT or both.") }
        let chosen = householdIDs.map { Array(Set($0)).sorted { $0.uuidString < $1.uuidString } }
        for household in chosen ?? [] where caller.roles[household] == nil {
            throw ServiceError.invalidInput(field: "householdIds", message: "You are not in the household \(household.lowercasedString).")
        }
        if let chosen, chosen.isEmpty {
            throw ServiceError.invalidInput(field: "householdIds", message: "Name at least one household, or leave householdIds out for all of yours.")
        }
        let now = clock.now
        let token = SessionToken.generate()
        let feed = CalendarFeed(id: UUID(), userID: caller.userID, name: name, householdIDs: chosen, kinds: kinds, createdAt: now, lastFetchedAt: nil)
        // One statement: the count and the insert see the same rows, so racing requests cannot pass the limit together.
        let rows = try await database.client.query("""
            INSERT INTO calendar_feeds (id, user_id, token_hash, name, household_ids, kinds, created_at)
            SELECT \(feed.id), \(caller.userID), \(Data(SessionToken.hash(token))), \(name), \(chosen), \(kinds.map(\.rawValue)), \(now)
            WHERE (SELECT count(*) FROM calendar_feeds WHERE user_id = \(caller.userID)) < \(Self.maximumFeeds)
            RETURNING id
            """, logger: logger)
        var inserted = false
        for try await _ in rows.decode(UUID.self) { inserted = true }
        guard inserted else { throw ServiceError.invalidInput(field: "name", message: "You have \(Self.maximumFeeds) calendar feeds already; revoke one first.") }
        logger.info("calendar feed created", metadata: ["user": "\(caller.userID)", "feed": "\(feed.id)"])
        return CreatedCalendarFeed(path: "/feeds/\(token).ics", feed: feed)
    }

    /// The caller's feeds, newest first.
    public func feeds(_ caller: Caller) async throws -> [CalendarFeed] {
        try await database.client.query("""
            SELECT \(unescaped: Self.columns) FROM calendar_feeds WHERE user_id = \(caller.userID) ORDER BY created_at DESC, id
            """, logger: logger).rows(as: FeedRow.self).map(\.feed)
    }

    /// Revokes one of the caller's feeds: its address stops working at once; another person's (or none) is `notFound`.
    public func revoke(_ caller: Caller, id: UUID) async throws -> CalendarFeed {
        let rows = try await database.client.query("""
            DELETE FROM calendar_feeds WHERE id = \(id) AND user_id = \(caller.userID) RETURNING \(unescaped: Self.columns)
            """, logger: logger).rows(as: FeedRow.self)
        guard let feed = rows.first?.feed else { throw ServiceError.notFound("Calendar feed") }
        logger.info("calendar feed revoked", metadata: ["user": "\(caller.userID)", "feed": "\(id)"])
        return feed
    }

    // MARK: The calendar app's side

    private struct ItemRow: TypedRow {
        let id: UUID
        let householdID: UUID
        let kind: TaskKind
        let title: String
        let notes: String?
        let priority: TaskPriority
        let deadline: Date?
        let startsAt: Date?
        let endsAt: Date?
        let location: String?
        let createdAt: Date
        let updatedAt: Date
        let labels: [String]
        /// How it repeats, as calendar apps are given it (a task's from the occurrence it stands at).
        private(set) var repetition: Repetition?

        init(_ row: inout RowCells) throws {
            (id, householdID, kind, title, notes) = (try row("id"), try row("household_id"), try row("kind"), try row("title"), try row("notes"))
            (priority, deadline, startsAt, endsAt) = (try row("priority"), try row("deadline"), try row("starts_at"), try row("ends_at"))
            (location, createdAt, updatedAt, labels) = (try row("location"), try row("created_at"), try row("updated_at"), try row("labels"))
            if let (repetition, position) = try RepeatColumns.series(&row) {
                var item = TaskItem(id: id, householdID: householdID, kind: kind, title: title, priority: priority, createdAt: createdAt,
                                    updatedAt: updatedAt, labels: [], subtasks: [], reminderID: id)
                (item.repetition, item.position) = (repetition, position)
                self.repetition = item.calendarRepetition
            }
        }
    }

    /// The feed `token` names as iCalendar, with what its owner may read now; `notFound` for an unknown or revoked token.
    public func render(token: String) async throws -> RenderedCalendarFeed {
        let now = clock.now
        let found = try await database.client.query("""
            UPDATE calendar_feeds SET last_fetched_at = \(now) WHERE token_hash = \(Data(SessionToken.hash(token)))
            RETURNING \(unescaped: Self.columns)
            """, logger: logger).rows(as: FeedRow.self)
        guard let feed = found.first?.feed else { throw ServiceError.notFound("Calendar feed") }
        let owner = try await households.caller(for: feed.userID)
        let visible = (feed.householdIDs ?? Array(owner.roles.keys)).filter { owner.ability.can("read", .ofHousehold("Task", $0)) }
        var zones: [UUID: TimeZone] = [:]
        for (id, zone) in try await database.client.query(
            "SELECT id, time_zone FROM households WHERE id = ANY(\(visible))", logger: logger).columns(("id", UUID.self), ("time_zone", String.self)) {
            zones[id] = TimeZone(identifier: zone) ?? .gmt
        }
        let kinds = feed.kinds.map(\.rawValue)
        let items = visible.isEmpty ? [] : try await database.client.query("""
            SELECT t.id, t.household_id, t.kind, t.title, t.notes, t.priority, t.deadline, t.starts_at, t.ends_at, t.location, t.created_at, t.updated_at,
                   coalesce((SELECT array_agg(l.name ORDER BY lower(l.name)) FROM task_labels tl JOIN labels l ON l.id = tl.label_id
                             WHERE tl.task_id = t.id), '{}') AS labels,
                   t.repeat_rule, t.repeat_from, t.repeat_exceptions, t.repeat_overrides, t.repeat_start, t.occurrence, t.occurrences_passed
            FROM task_items t
            WHERE t.household_id = ANY(\(visible)) AND t.kind = ANY(\(kinds))
              AND (t.occurs_at >= \(now.addingTimeInterval(-Self.pastWindow)) OR t.repeat_rule IS NOT NULL)
              AND (t.kind = 'EVENT' OR t.completed_at IS NULL)
            ORDER BY t.occurs_at, t.id LIMIT \(Self.maximumItems)
            """, logger: logger).rows(as: ItemRow.self)
        let body = calendar(feed, items: items, zones: zones, now: now)
        let digest = SHA256.hash(data: Data(body.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
        return RenderedCalendarFeed(body: body, etag: "\"\(digest)\"")
    }

    private func calendar(_ feed: CalendarFeed, items: [ItemRow], zones: [UUID: TimeZone], now: Date) -> String {
        var ics = ICalendarWriter()
        ics.begin("VCALENDAR")
        ics.line("VERSION", raw: "2.0")
        ics.text("PRODID", "-//Hearth//Calendar feed//EN")
        ics.line("CALSCALE", raw: "GREGORIAN")
        ics.line("METHOD", raw: "PUBLISH")
        ics.text("X-WR-CALNAME", feed.name)
        ics.line("X-PUBLISHED-TTL", raw: Self.refreshInterval)
        ics.line("REFRESH-INTERVAL", parameters: [("VALUE", "DURATION")], raw: Self.refreshInterval)
        var times = items.flatMap { [$0.startsAt ?? $0.deadline, $0.endsAt].compactMap { $0 } }
        // Series reach on: the zones' changes are written for five years past the dates.
        if items.contains(where: { $0.repetition != nil }), let last = times.max() { times.append(last.addingTimeInterval(5 * 366 * 86_400)) }
        if let first = times.min(), let last = times.max() {
            let used = Set(items.map(\.householdID)).compactMap { zones[$0] }
            for zone in Dictionary(used.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first }).values.sorted(by: { $0.identifier < $1.identifier })
            where zone.identifier != "GMT" && zone.identifier != "UTC" {
                ics.timeZone(zone, covering: first...last)
            }
        }
        for item in items {
            let zone = zones[item.householdID] ?? .gmt
            ics.begin("VEVENT")
            ics.text("UID", "\(item.id.lowercasedString)@hearth")
            ics.utc("DTSTAMP", item.updatedAt)
            ics.utc("CREATED", item.createdAt)
            ics.utc("LAST-MODIFIED", item.updatedAt)
            ics.text("SUMMARY", item.title)
            if let start = item.startsAt ?? item.deadline { ics.local("DTSTART", start, in: zone) }
            if item.kind == .event, let end = item.endsAt { ics.local("DTEND", end, in: zone) }
            // A repeating item carries its rule, so the subscribing app shows every occurrence.
            if let repetition = item.repetition {
                ics.line("RRULE", raw: repetition.rule)
                for exception in repetition.exceptions { ics.local("EXDATE", exception, in: zone) }
            }
            if let notes = item.notes { ics.text("DESCRIPTION", notes) }
            if let location = item.location { ics.text("LOCATION", location) }
            ics.texts("CATEGORIES", item.labels)
            switch item.priority {
            case .high: ics.line("PRIORITY", raw: "1")
            case .medium: ics.line("PRIORITY", raw: "5")
            case .low: ics.line("PRIORITY", raw: "9")
            case .none: break
            }
            ics.line("STATUS", raw: "CONFIRMED")
            ics.line("TRANSP", raw: item.kind == .event ? "OPAQUE" : "TRANSPARENT")
            // A task is a moment (its deadline), said so for the apps that show it differently.
            if item.kind == .task { ics.line("X-HEARTH-KIND", raw: "TASK") }
            if let publicURL { ics.line("URL", parameters: [("VALUE", "URI")], raw: publicURL.appendingPathComponent("tasks/\(item.id.lowercasedString)").absoluteString) }
            ics.end("VEVENT")
            // An event's changed occurrences, each an override of the series.
            for change in item.kind == .event ? item.repetition?.overrides ?? [] : [] {
                ics.begin("VEVENT")
                ics.text("UID", "\(item.id.lowercasedString)@hearth")
                ics.utc("DTSTAMP", item.updatedAt)
                ics.local("RECURRENCE-ID", change.occurrence, in: zone)
                ics.text("SUMMARY", change.title ?? item.title)
                ics.local("DTSTART", change.startsAt, in: zone)
                ics.local("DTEND", change.endsAt, in: zone)
                if let notes = change.notes ?? item.notes { ics.text("DESCRIPTION", notes) }
                if let location = change.location ?? item.location { ics.text("LOCATION", location) }
                ics.line("STATUS", raw: "CONFIRMED")
                ics.end("VEVENT")
            }
        }
        ics.end("VCALENDAR")
        return ics.output
    }
}
