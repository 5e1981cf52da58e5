import Foundation

/// One of a household's two calendars as calendar apps see them (CalDAV): its tasks (VTODO) or
/// its events (VEVENT), named after the household, in its time zone, with a tag that changes
/// whenever any of its items does.
public struct CalendarCollection: Sendable, Equatable {
    public var householdID: UUID
    public var householdName: String
    public var timeZone: String
    public var kind: TaskKind
    /// Changes with every write to the household's items (their newest version, deletions included).
    public var tag: Int
    /// Whether the person may change its items (members and up).
    public var writable: Bool

    /// `<household id>-tasks` or `<household id>-events`.
    public var name: String { householdID.lowercasedString + (kind == .task ? "-tasks" : "-events") }
    /// "Elm Street — Tasks".
    public var displayName: String { householdName + (kind == .task ? " — Tasks" : " — Events") }
    /// The iCalendar component its items are.
    public var component: String { kind == .task ? "VTODO" : "VEVENT" }
}

extension CalendarFeedService {
    /// The caller's calendars: two for each household they may read.
    public func collections(_ caller: Caller) async throws -> [CalendarCollection] {
        let readable = caller.roles.keys.filter { caller.ability.can("read", .ofHousehold("Task", $0)) }
        guard !readable.isEmpty else { return [] }
        var collections: [CalendarCollection] = []
        for try await (id, name, zone, tag) in try await database.client.query("""
            SELECT h.id, h.name, h.time_zone,
                   coalesce((SELECT max(c.version) FROM sync_changes c WHERE c.household_id = h.id AND c.type = 'TASK'), 0)::int8 AS tag
            FROM households h WHERE h.id = ANY(\(readable)) ORDER BY lower(h.name), h.id
            """, logger: logger).decode((UUID, String, String, Int).self) {
            let writable = caller.ability.can("create", .ofHousehold("Task", id))
            for kind in [TaskKind.task, .event] {
                collections.append(CalendarCollection(householdID: id, householdName: name, timeZone: zone, kind: kind, tag: tag, writable: writable))
            }
        }
        return collections
    }
}
