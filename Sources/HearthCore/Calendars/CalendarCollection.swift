import Foundation

/// One of a household's two calendars as calendar apps see them (CalDAV): its tasks (VTODO) or
/// its events (VEVENT), named after the household, in its time zone, with a tag that changes
/// whenever any of its items does.
public struct CalendarCollection: Sendable, Equatable {
    public var householdID: UUID
    public var householdName: String
    public var timeZone: String
    public var kind: TaskKind
    /// Changes with every write to the calendar's items, deletions included.
    public var tag: String
    /// Whether the person may change its items (members and up).
    public var writable: Bool

    /// `<household id>-tasks` or `<household id>-events`.
    public var name: String { householdID.lowercasedString + (kind == .task ? "-tasks" : "-events") }
    /// "Elm Street — Tasks".
    public var displayName: String { householdName + (kind == .task ? " — Tasks" : " — Events") }
    /// The iCalendar component its items are.
    public var component: String { kind == .task ? "VTODO" : "VEVENT" }
}
