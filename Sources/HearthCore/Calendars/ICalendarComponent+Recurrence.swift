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
/// own component with a RECURRENCE-ID and its times in UTC, without RRULE or EXDATE.
public enum ICalendarExpansion {
    /// `ics` with its repeating component expanded over `from..<to`; anything else as it is.
    public static func expand(_ ics: String, from: Date, to: Date, fallback zone: TimeZone) -> String {
        guard let calendar = try? ICalendarReader.read(ics),
              let master = calendar.components.first(where: { ($0.name == "VEVENT" || $0.name == "VTODO") && $0.first("RRULE") != nil })
        else { return ics }
        let zones = ICalendarZones(calendar: calendar, fallback: zone)
        let start = (try? master.first("DTSTART")?.time(zones).date) ?? nil
        let end = (try? (master.first("DTEND") ?? master.first("DUE"))?.time(zones).date) ?? nil
        let length = (start.flatMap { begins in end.map { $0.timeIntervalSince(begins) } } ?? ((try? master.first("DURATION")?.duration()) ?? nil)) ?? 0
        guard let starts = master.occurrenceStarts(zones: zones, from: from.addingTimeInterval(-max(0, length)), before: to) else { return ics }
        let endName = master.name == "VTODO" ? "DUE" : "DTEND"
        var out = ICalendarWriter()
        out.begin("VCALENDAR")
        out.line("VERSION", raw: "2.0")
        out.text("PRODID", "-//Hearth//CalDAV//EN")
        for occurs in starts where length > 0 ? occurs.addingTimeInterval(length) > from : occurs >= from {
            out.begin(master.name)
            for property in master.properties where !["DTSTART", "DTEND", "DUE", "DURATION", "RRULE", "EXDATE", "RDATE"].contains(property.name) {
                out.raw(ICalendarWriter.fold(property.text) + "\r\n")
            }
            out.utc("RECURRENCE-ID", occurs)
            out.utc("DTSTART", occurs)
            if end != nil || length > 0 { out.utc(endName, occurs.addingTimeInterval(length)) }
            for component in master.components { out.raw(component.text) }
            out.end(master.name)
        }
        out.end("VCALENDAR")
        return out.output
    }
}
