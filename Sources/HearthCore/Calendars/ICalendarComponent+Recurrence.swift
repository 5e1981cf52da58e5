import Foundation

extension ICalendarComponent {
    /// The starts of a repeating component's occurrences in `from..<before` (its first start
    /// always one, its EXDATEs none), repeating at DTSTART's wall time in DTSTART's zone; nil when
    /// it does not repeat (or its RRULE or DTSTART cannot be read), for a time-range query to
    /// read as a single item.
    public func occurrenceStarts(zones: ICalendarZones, from: Date, before: Date, limit: Int = 10_000) -> [Date]? {
        guard let ruleLine = first("RRULE"), let rule = try? RecurrenceRule(parsing: ruleLine.value),
              let startLine = first("DTSTART") ?? first("DUE"), let start = try? startLine.time(zones).date else { return nil }
        let zone = startLine.value.hasSuffix("Z") ? TimeZone.gmt : zones.zone(startLine.parameters["TZID"])
        var exceptions = Set<Int>()
        for line in all("EXDATE") {
            for value in line.value.split(separator: ",") {
                var single = line
                single.value = String(value)
                if let date = try? single.time(zones).date { exceptions.insert(Repetition.second(date)) }
            }
        }
        var starts = rule.occurrences(start: start, in: zone, from: from, before: before, limit: limit + exceptions.count)
        if start >= from, start < before, !starts.contains(where: { Repetition.second($0) == Repetition.second(start) }) { starts.insert(start, at: 0) }
        return starts.filter { !exceptions.contains(Repetition.second($0)) }
    }
}

/// RFC 4791's `expand` (9.6.5): a repeating item written as its occurrences in a range, each its
/// own component with a RECURRENCE-ID and its times in UTC, without RRULE or EXDATE; a changed
/// occurrence as its override says, where its own times put it.
public enum ICalendarExpansion {
    /// `ics` with its repeating component expanded over `from..<to`; anything else as it is.
    public static func expand(_ ics: String, from: Date, to: Date, fallback zone: TimeZone) -> String {
        guard let calendar = try? ICalendarReader.read(ics),
              let master = calendar.components.first(where: { ($0.name == "VEVENT" || $0.name == "VTODO") && $0.first("RRULE") != nil })
        else { return ics }
        let zones = ICalendarZones(calendar: calendar, fallback: zone)
        let length = span(master, zones: zones)
        guard let starts = master.occurrenceStarts(zones: zones, from: from.addingTimeInterval(-max(0, length.seconds)), before: to) else { return ics }
        // Overrides, with the occurrence each changes, by that occurrence's second.
        var overrides: [Int: (occurrence: Date, component: ICalendarComponent)] = [:]
        for override in calendar.components where override.name == master.name {
            if let id = try? override.first("RECURRENCE-ID")?.time(zones).date { overrides[Repetition.second(id)] = (id, override) }
        }
        func overlaps(_ begins: Date, _ seconds: TimeInterval) -> Bool {
            begins < to && (seconds > 0 ? begins.addingTimeInterval(seconds) > from : begins >= from)
        }
        var out = ICalendarWriter()
        out.begin("VCALENDAR")
        out.line("VERSION", raw: "2.0")
        out.text("PRODID", "-//Hearth//CalDAV//EN")
        for occurs in starts where overrides[Repetition.second(occurs)] == nil && overlaps(occurs, length.seconds) {
            write(master, occurrence: occurs, start: occurs, length: length, into: &out)
        }
        for (_, (id, override)) in overrides.sorted(by: { $0.key < $1.key }) {
            guard override.first("STATUS")?.value.uppercased() != "CANCELLED" else { continue }
            let begins = (try? override.first("DTSTART")?.time(zones).date) ?? id
            let own = span(override, zones: zones)
            let moved = own.hasEnd ? own : length
            if overlaps(begins, moved.seconds) { write(override, occurrence: id, start: begins, length: moved, into: &out) }
        }
        out.end("VCALENDAR")
        return out.output
    }

    /// How long a component lasts (DTSTART to DTEND or DUE, else its DURATION), and whether it says.
    private static func span(_ component: ICalendarComponent, zones: ICalendarZones) -> (seconds: TimeInterval, hasEnd: Bool) {
        let start = (try? component.first("DTSTART")?.time(zones).date) ?? nil
        let end = (try? (component.first("DTEND") ?? component.first("DUE"))?.time(zones).date) ?? nil
        if let start, let end { return (end.timeIntervalSince(start), true) }
        if let duration = (try? component.first("DURATION")?.duration()) ?? nil { return (duration, true) }
        return (0, end != nil)
    }

    /// One occurrence: the component's other properties, its times in UTC.
    private static func write(_ component: ICalendarComponent, occurrence: Date, start: Date, length: (seconds: TimeInterval, hasEnd: Bool),
                              into out: inout ICalendarWriter) {
        out.begin(component.name)
        for property in component.properties
        where !["DTSTART", "DTEND", "DUE", "DURATION", "RRULE", "EXDATE", "RDATE", "RECURRENCE-ID"].contains(property.name) {
            out.raw(ICalendarWriter.fold(property.text) + "\r\n")
        }
        out.utc("RECURRENCE-ID", occurrence)
        out.utc("DTSTART", start)
        if length.hasEnd || length.seconds > 0 { out.utc(component.name == "VTODO" ? "DUE" : "DTEND", start.addingTimeInterval(length.seconds)) }
        for child in component.components { out.raw(child.text) }
        out.end(component.name)
    }
}
