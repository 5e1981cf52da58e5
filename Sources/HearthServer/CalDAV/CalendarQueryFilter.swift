import Foundation
import HearthCore

/// A calendar-query's `CALDAV:filter` (RFC 4791 9.7): nested comp-filters with time ranges (an
/// event's, a task's and an alarm's, as RFC 4791 9.9 reads them), prop-filters with
/// `is-not-defined` or a `text-match` (a substring, case aside unless the collation is `i;octet`;
/// negatable). A time range on a property or a parameter is lenient (it matches), so an app never
/// misses an item it asked for.
struct CalendarQueryFilter {
    let root: DAVElement?

    init(_ root: DAVElement?) { self.root = root }

    func matches(_ entry: CalendarService.Entry, zone: TimeZone, timeZones: VTimeZoneCache? = nil) -> Bool {
        guard let top = root?.child(DAVProperty.caldav, "comp-filter") else { return true }
        guard let calendar = try? ICalendarReader.read(entry.iCalendar(in: zone, timeZones: timeZones)) else { return false }
        return matches(top, calendar, parent: nil, zones: ICalendarZones(calendar: calendar, fallback: zone))
    }

    private func matches(_ filter: DAVElement, _ component: ICalendarComponent, parent: ICalendarComponent?, zones: ICalendarZones) -> Bool {
        guard (filter.attributes["name"] ?? "").uppercased() == component.name else { return false }
        if filter.child(DAVProperty.caldav, "is-not-defined") != nil { return false }
        if let range = filter.child(DAVProperty.caldav, "time-range") {
            let span = TimeSpan(start: Self.time(range.attributes["start"]), end: Self.time(range.attributes["end"]))
            if !span.overlaps(component, parent: parent, zones: zones) { return false }
        }
        for property in filter.children(DAVProperty.caldav, "prop-filter") where !matches(property, component) { return false }
        for inner in filter.children(DAVProperty.caldav, "comp-filter") {
            let name = (inner.attributes["name"] ?? "").uppercased()
            let candidates = component.components.filter { $0.name == name }
            if inner.child(DAVProperty.caldav, "is-not-defined") != nil {
                if !candidates.isEmpty { return false }
            } else if !candidates.contains(where: { matches(inner, $0, parent: component, zones: zones) }) {
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
        let options: String.CompareOptions = match.attributes["collation"] == "i;octet" ? [] : [.caseInsensitive]
        let found = properties.contains { $0.textValue.range(of: match.text, options: options) != nil }
        return found != negate
    }

    static func time(_ text: String?) -> Date? { text.flatMap(ICalendarReader.utcTime) }
}

/// A time-range's [start, end): either may be open.
struct TimeSpan {
    var start: Date
    var end: Date

    init(start: Date?, end: Date?) {
        self.start = start ?? .distantPast
        self.end = end ?? .distantFuture
    }

    /// Whether the component falls in the span (RFC 4791 9.9); components without times always do.
    func overlaps(_ component: ICalendarComponent, parent: ICalendarComponent?, zones: ICalendarZones) -> Bool {
        func time(_ name: String, in component: ICalendarComponent = component) -> ICalendarTime? {
            try? component.first(name)?.time(zones)
        }
        let duration = (try? component.first("DURATION")?.duration()) ?? nil
        switch component.name {
        case "VEVENT":
            guard let begins = time("DTSTART") else { return true }
            let length: TimeInterval = (time("DTEND")?.date ?? duration.map({ begins.date.addingTimeInterval($0) })
                ?? (begins.isDay ? begins.date.addingTimeInterval(86_400) : nil)).map { max(0, $0.timeIntervalSince(begins.date)) } ?? 0
            // A repeating event falls in the span when one of its occurrences does.
            let firstBegins = start == .distantPast ? start : start.addingTimeInterval(-length)
            let starts = component.occurrenceStarts(zones: zones, from: firstBegins, before: end, limit: 1) ?? [begins.date]
            return starts.contains { occurs in
                length > 0 ? start < occurs.addingTimeInterval(length) && end > occurs : start <= occurs && end > occurs
            }
        case "VTODO":
            // A repeating task falls in the span when one of its occurrences (from its DTSTART, else its DUE) does.
            if let starts = component.occurrenceStarts(zones: zones, from: start, before: end, limit: 1) { return !starts.isEmpty }
            let begins = time("DTSTART")?.date
            let due = time("DUE")?.date
            switch (begins, duration, due) {
            case let (begins?, duration?, nil):
                return start <= begins.addingTimeInterval(duration) && (end > begins || end >= begins.addingTimeInterval(duration))
            case let (begins?, _, due?):
                return (start < due || start <= begins) && (end > begins || end >= due)
            case let (begins?, nil, nil):
                return start <= begins && end > begins
            case let (nil, _, due?):
                return start < due && end >= due
            default:
                let completed = time("COMPLETED")?.date
                let created = time("CREATED")?.date
                switch (completed, created) {
                case let (completed?, created?): return (start <= created || start <= completed) && (end >= created || end >= completed)
                case let (completed?, nil): return start <= completed && end >= completed
                case let (nil, created?): return end > created
                case (nil, nil): return true
                }
            }
        case "VALARM":
            guard let parent, let trigger = component.first("TRIGGER") else { return false }
            let fires: Date?
            if trigger.parameters["VALUE"]?.uppercased() == "DATE-TIME" {
                fires = try? trigger.time(zones).date
            } else {
                let fromEnd = trigger.parameters["RELATED"]?.uppercased() == "END"
                let base = fromEnd ? (time("DTEND", in: parent) ?? time("DUE", in: parent)) : (time("DTSTART", in: parent) ?? time("DUE", in: parent))
                fires = (try? trigger.duration()).flatMap { offset in base.map { $0.date.addingTimeInterval(offset) } }
            }
            return fires.map { $0 >= start && $0 < end } ?? false
        default:
            return true
        }
    }
}
