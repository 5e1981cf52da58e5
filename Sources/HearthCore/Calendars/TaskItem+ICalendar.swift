import Foundation

extension TaskItem {
    /// The item as calendar apps read it over CalDAV: a VTODO (a task) or VEVENT (an event) under
    /// `uid`, its times local to the household's `zone` (with that zone's VTIMEZONE), a time at
    /// local midnight written as a whole day, its reminder as a VALARM, and `extra` (what the app
    /// wrote that Hearth does not model) given back as it came.
    public func iCalendar(uid: String, extra: String?, zone: TimeZone, timeZones: VTimeZoneCache? = nil) -> String {
        let component = kind == .task ? "VTODO" : "VEVENT"
        var ics = ICalendarWriter()
        ics.begin("VCALENDAR")
        ics.line("VERSION", raw: "2.0")
        ics.text("PRODID", "-//Hearth//CalDAV//EN")
        let wholeDays = kind == .task ? deadline.map { Self.isMidnight($0, zone) } ?? false
            : [startsAt, endsAt].allSatisfy { $0.map { Self.isMidnight($0, zone) } ?? false } && startsAt != endsAt
        // Times written with the zone's TZID need its VTIMEZONE (whole days and reminders need none).
        let overrides = kind == .event ? repetition?.overrides ?? [] : []
        var localTimes = (wholeDays ? [] : [deadline, startsAt, endsAt, position?.occurrence].compactMap { $0 } + (repetition?.exceptions ?? []))
            + overrides.flatMap { [$0.occurrence, $0.startsAt, $0.endsAt] }
        // A series reaches on: its zone's changes are written for five years past its dates.
        if repetition != nil, let last = localTimes.max() { localTimes.append(last.addingTimeInterval(5 * 366 * 86_400)) }
        if let first = localTimes.min(), let last = localTimes.max(), zone.identifier != "GMT", zone.identifier != "UTC" {
            if let timeZones { ics.raw(timeZones.vTimeZone(zone, covering: first...last)) } else { ics.timeZone(zone, covering: first...last) }
        }
        ics.begin(component)
        ics.text("UID", uid)
        ics.utc("DTSTAMP", updatedAt)
        ics.utc("CREATED", createdAt)
        ics.utc("LAST-MODIFIED", updatedAt)
        ics.text("SUMMARY", title)
        if let notes { ics.text("DESCRIPTION", notes) }
        func time(_ name: String, _ date: Date) {
            if wholeDays {
                ics.line(name, parameters: [("VALUE", "DATE")], raw: String(Self.localDay(date, zone)))
            } else {
                ics.local(name, date, in: zone)
            }
        }
        if kind == .task {
            // A repeating task starts at the occurrence it stands at (calendar apps count the next one from there),
            // as long before it as the app's DTSTART was before its DUE.
            if let occurrence = calendarRepetition.flatMap({ _ in position?.occurrence }), occurrence <= deadline ?? occurrence {
                time("DTSTART", occurrence.addingTimeInterval(-CalendarObject.lead(in: extra ?? "").seconds))
            }
            if let deadline { time("DUE", deadline) }
            if let completedAt {
                ics.line("STATUS", raw: "COMPLETED")
                ics.utc("COMPLETED", completedAt)
                ics.line("PERCENT-COMPLETE", raw: "100")
            } else {
                ics.line("STATUS", raw: "NEEDS-ACTION")
            }
        } else {
            if let startsAt { time("DTSTART", startsAt) }
            // An event the app timed by DURATION is written so; one that ends as it starts, without an end.
            if let startsAt, let endsAt, extra?.hasPrefix(CalendarObject.durationMarker) == true {
                ics.line("DURATION", raw: Self.duration(endsAt.timeIntervalSince(startsAt)))
            } else if let endsAt, endsAt != startsAt || wholeDays {
                time("DTEND", endsAt)
            }
            if let location { ics.text("LOCATION", location) }
        }
        if let repetition = calendarRepetition {
            ics.line("RRULE", raw: repetition.rule)
            for exception in repetition.exceptions { time("EXDATE", exception) }
        }
        switch priority {
        case .high: ics.line("PRIORITY", raw: "1")
        case .medium: ics.line("PRIORITY", raw: "5")
        case .low: ics.line("PRIORITY", raw: "9")
        case .none: break
        }
        ics.texts("CATEGORIES", labels.map(\.name))
        // The app's own properties, then Hearth's reminder as the first alarm, then the app's other components.
        let (properties, components) = Self.split(String(CalendarObject.lead(in: extra ?? "").rest.trimmingPrefix(CalendarObject.durationMarker)))
        ics.raw(properties)
        if let remindAt {
            ics.begin("VALARM")
            ics.line("ACTION", raw: "DISPLAY")
            ics.text("DESCRIPTION", title)
            let base = kind == .task ? deadline : startsAt
            if let base {
                ics.line("TRIGGER", parameters: kind == .task ? [("RELATED", "END")] : [], raw: Self.duration(remindAt.timeIntervalSince(base)))
            } else {
                ics.line("TRIGGER", parameters: [("VALUE", "DATE-TIME")], raw: ICalendarWriter.utc(remindAt))
            }
            ics.end("VALARM")
        }
        ics.raw(components)
        ics.end(component)
        // Each changed occurrence as an override of the series (RECURRENCE-ID: its original start).
        for change in overrides {
            ics.begin(component)
            ics.text("UID", uid)
            ics.utc("DTSTAMP", updatedAt)
            time("RECURRENCE-ID", change.occurrence)
            let timed = !wholeDays || !Self.isMidnight(change.startsAt, zone) || !Self.isMidnight(change.endsAt, zone)
            if timed { ics.local("DTSTART", change.startsAt, in: zone) } else { time("DTSTART", change.startsAt) }
            if change.endsAt != change.startsAt || !timed {
                if timed { ics.local("DTEND", change.endsAt, in: zone) } else { time("DTEND", change.endsAt) }
            }
            ics.text("SUMMARY", change.title ?? title)
            if let notes = change.notes ?? notes { ics.text("DESCRIPTION", notes) }
            if let location = change.location ?? location { ics.text("LOCATION", location) }
            ics.end(component)
        }
        ics.end("VCALENDAR")
        return ics.output
    }

    /// One of the item's subtasks as its own VTODO (under `uid`, `RELATED-TO` the item's `parentUID`),
    /// with what the app wrote that Hearth does not model.
    public func iCalendar(subtask: Subtask, uid: String, parentUID: String, extra: String?) -> String {
        var ics = ICalendarWriter()
        ics.begin("VCALENDAR")
        ics.line("VERSION", raw: "2.0")
        ics.text("PRODID", "-//Hearth//CalDAV//EN")
        ics.begin("VTODO")
        ics.text("UID", uid)
        ics.utc("DTSTAMP", updatedAt)
        ics.utc("LAST-MODIFIED", updatedAt)
        ics.text("SUMMARY", subtask.title)
        ics.line("STATUS", raw: subtask.done ? "COMPLETED" : "NEEDS-ACTION")
        if subtask.done { ics.line("PERCENT-COMPLETE", raw: "100") }
        ics.text("RELATED-TO", parentUID, parameters: [("RELTYPE", "PARENT")])
        ics.raw(extra ?? "")
        ics.end("VTODO")
        ics.end("VCALENDAR")
        return ics.output
    }

    /// The repetition as calendar apps are given it: an event's as stored (from its DTSTART, the
    /// series' first start); a task's from its DUE, the occurrence it stands at, with what is left
    /// of its COUNT.
    public var calendarRepetition: Repetition? {
        guard var repetition, let position else { return nil }
        if kind == .task, var rule = repetition.recurrenceRule, let count = rule.count {
            rule.end = .count(max(1, count - position.passed))
            repetition.rule = rule.text
        }
        return repetition
    }

    /// Kept lines split where the first component begins (properties come before components).
    static func split(_ extra: String) -> (properties: String, components: String) {
        if extra.hasPrefix("BEGIN:") { return ("", extra) }
        guard let begin = extra.range(of: "\r\nBEGIN:") else { return (extra, "") }
        let cut = extra.utf8.index(begin.lowerBound, offsetBy: 2)  // after the CRLF
        return (String(extra[..<cut]), String(extra[cut...]))
    }

    static func isMidnight(_ date: Date, _ zone: TimeZone) -> Bool {
        date.basicFormat(in: zone).hasSuffix("T000000")
    }

    /// `20261130`: the local day.
    static func localDay(_ date: Date, _ zone: TimeZone) -> Substring {
        date.basicFormat(in: zone).prefix(8)
    }

    /// Seconds as an iCalendar DURATION: `-PT15M`, `P1D`, `-P1DT2H`, `PT0S`.
    static func duration(_ seconds: TimeInterval) -> String {
        var rest = Int(abs(seconds).rounded())
        let sign = seconds < 0 && rest > 0 ? "-" : ""
        let days = rest / 86_400
        rest %= 86_400
        let (hours, minutes, secs) = (rest / 3600, rest % 3600 / 60, rest % 60)
        var text = sign + "P" + (days > 0 ? "\(days)D" : "")
        if hours > 0 || minutes > 0 || secs > 0 || days == 0 {
            text += "T" + (hours > 0 ? "\(hours)H" : "") + (minutes > 0 ? "\(minutes)M" : "") + (secs > 0 || (hours == 0 && minutes == 0) ? "\(secs)S" : "")
        }
        return text
    }
}

extension ICalendarWriter {
    /// Content lines already written (folded, CRLF-ended), as kept from a calendar app.
    public mutating func raw(_ lines: String) {
        guard !lines.isEmpty else { return }
        output += lines.hasSuffix("\r\n") ? lines : lines + "\r\n"
    }
}

/// VTIMEZONEs already written, for rendering many items of one calendar: each covers whole
/// calendar years, so items in the same years share one. Not shared between requests.
public final class VTimeZoneCache {
    private var written: [String: String] = [:]

    public init() {}

    /// The VTIMEZONE of `zone` covering the years of `range`.
    func vTimeZone(_ zone: TimeZone, covering range: ClosedRange<Date>) -> String {
        let (first, last) = (range.lowerBound.civil(in: zone).year, range.upperBound.civil(in: zone).year)
        let key = "\(zone.identifier)/\(first)/\(last)"
        if let text = written[key] { return text }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let start = calendar.date(from: DateComponents(year: first, month: 1, day: 1)) ?? range.lowerBound
        let end = calendar.date(from: DateComponents(year: last + 1, month: 1, day: 1))?.addingTimeInterval(-1) ?? range.upperBound
        var writer = ICalendarWriter()
        writer.timeZone(zone, covering: min(start, range.lowerBound)...max(end, range.upperBound))
        written[key] = writer.output
        return writer.output
    }
}
