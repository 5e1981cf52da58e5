import Foundation
import HearthCore

/// A calendar-query's `CALDAV:filter` (RFC 4791 9.7): nested comp-filters with time ranges,
/// prop-filters with `is-not-defined` or a `text-match` (case-insensitive substring, negatable).
/// A time range on a task or event is read from its times; on a property or a parameter the
/// filter is lenient (it matches), so an app never misses an item it asked for.
struct CalendarQueryFilter {
    let root: DAVElement?

    init(_ root: DAVElement?) { self.root = root }

    func matches(_ entry: CalendarService.Entry, zone: TimeZone) -> Bool {
        guard let top = root?.child(DAVProperty.caldav, "comp-filter") else { return true }
        guard let calendar = try? ICalendarReader.read(entry.iCalendar(in: zone)) else { return false }
        return matches(top, calendar, item: entry.item)
    }

    private func matches(_ filter: DAVElement, _ component: ICalendarComponent, item: TaskItem) -> Bool {
        guard (filter.attributes["name"] ?? "").uppercased() == component.name else { return false }
        if filter.child(DAVProperty.caldav, "is-not-defined") != nil { return false }
        if let range = filter.child(DAVProperty.caldav, "time-range"), component.name == "VTODO" || component.name == "VEVENT",
           !Self.overlaps(item, start: Self.time(range.attributes["start"]), end: Self.time(range.attributes["end"])) {
            return false
        }
        for property in filter.children(DAVProperty.caldav, "prop-filter") where !matches(property, component) { return false }
        for inner in filter.children(DAVProperty.caldav, "comp-filter") {
            let name = (inner.attributes["name"] ?? "").uppercased()
            let candidates = component.components.filter { $0.name == name }
            if inner.child(DAVProperty.caldav, "is-not-defined") != nil {
                if !candidates.isEmpty { return false }
            } else if !candidates.contains(where: { matches(inner, $0, item: item) }) {
                return false
            }
        }
        return true
    }

    private func matches(_ filter: DAVElement, _ component: ICalendarComponent) -> Bool {
        let properties = component.all((filter.attributes["name"] ?? "").uppercased())
        if filter.child(DAVProperty.caldav, "is-not-defined") != nil { return properties.isEmpty }
        guard !properties.isEmpty else { return false }
        guard let match = filter.child(DAVProperty.caldav, "text-match") else { return true }
        let negate = match.attributes["negate-condition"] == "yes"
        let found = properties.contains { $0.textValue.range(of: match.text, options: [.caseInsensitive]) != nil }
        return found != negate
    }

    /// Whether the item falls in [start, end) (RFC 4791 9.9): an event by its span, a task by its
    /// deadline (a task without one always does).
    static func overlaps(_ item: TaskItem, start: Date?, end: Date?) -> Bool {
        let from = start ?? .distantPast
        let to = end ?? .distantFuture
        if item.kind == .event, let begins = item.startsAt {
            let ends = item.endsAt ?? begins
            return ends > begins ? (from < ends && to > begins) : (from <= begins && to > begins)
        }
        guard let due = item.deadline else { return true }
        return from <= due && to > due
    }

    static func time(_ text: String?) -> Date? { text.flatMap(ICalendarReader.utcTime) }
}
