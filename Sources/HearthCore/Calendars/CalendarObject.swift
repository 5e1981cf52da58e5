import Foundation

/// A task (VTODO) or event (VEVENT) as a calendar app writes it: what Hearth models, read from the
/// component, and the properties it does not model kept as they came (apps keep their own state
/// there), to be given back unchanged.
public struct CalendarObject: Sendable, Equatable {
    public var uid: String
    public var kind: TaskKind
    public var title: String
    public var notes: String?
    public var priority: TaskPriority
    public var deadline: Date?
    public var startsAt: Date?
    public var endsAt: Date?
    public var location: String?
    public var labels: [String]
    public var completed: Bool
    public var remindAt: Date?
    /// The UID of the task this one is a step of (`RELATED-TO`, `RELTYPE=PARENT` or none), and that line as sent.
    public var parentUID: String?
    var parentLine: String?
    /// Content lines and components Hearth does not model, CRLF-ended; empty when none.
    public var extra: String
    /// How it repeats (`RRULE`, `EXDATE`, an event's occurrences cancelled by a `RECURRENCE-ID`
    /// override with `STATUS:CANCELLED` and those its other overrides change); nil when it happens once.
    public var repetition: Repetition?
    /// A repeating task's occurrence the app completed by an override (`RECURRENCE-ID` with
    /// `STATUS:COMPLETED`, as Thunderbird and Evolution write it): the latest such.
    public var completedOccurrence: Date?

    /// ``extra`` with the `RELATED-TO` line put back, for an item whose parent is not in the calendar.
    var extraWithParent: String { (parentLine.map { ICalendarWriter.fold($0) + "\r\n" } ?? "") + extra }

    /// Kept in ``extra`` for an event the app timed by DURATION: it is written with DURATION, not DTEND.
    public static let durationMarker = "X-HEARTH-DURATION:TRUE\r\n"

    /// Kept first in ``extra`` for a repeating task whose DTSTART came before its DUE: how long
    /// before (an iCalendar DURATION), so each occurrence is served starting that long before it is due.
    static let leadMarker = "X-HEARTH-LEAD:"

    /// The lead a repeating task's ``extra`` keeps (see ``leadMarker``), and the rest of it.
    static func lead(in extra: String) -> (seconds: TimeInterval, rest: Substring) {
        guard extra.hasPrefix(leadMarker), let end = extra.range(of: "\r\n") else { return (0, Substring(extra)) }
        let value = extra[extra.index(extra.startIndex, offsetBy: leadMarker.count)..<end.lowerBound]
        return (ICalendarProperty.duration(String(value)) ?? 0, extra[end.upperBound...])
    }

    /// Most text kept of what Hearth does not model.
    public static let maximumExtra = 65_536
}

/// Why a calendar app's item cannot be stored, as CalDAV's preconditions name it (RFC 4791 5.3.2.1).
public enum CalendarObjectError: Error, Sendable, Equatable {
    /// Not iCalendar (`CALDAV:valid-calendar-data`, 400).
    case invalidData(ICalendarError)
    /// A component this calendar does not hold, or recurrence (`CALDAV:supported-calendar-component`, 403).
    case unsupportedComponent(String)
    /// iCalendar, but not an item Hearth can hold (`CALDAV:valid-calendar-object-resource`, 403).
    case invalidObject(String)
}

extension CalendarObject {
    /// The item in `body` for a calendar of `kind`; times without a zone are in `zone`.
    public static func parse(_ body: String, kind: TaskKind, zone: TimeZone) throws(CalendarObjectError) -> CalendarObject {
        let calendar: ICalendarComponent
        do { calendar = try ICalendarReader.read(body) } catch { throw .invalidData(error) }
        let wanted = kind == .task ? "VTODO" : "VEVENT"
        let items = calendar.components.filter { $0.name != "VTIMEZONE" }
        guard let component = items.first else {
            throw .invalidObject("The calendar holds no \(wanted); a calendar item is one \(wanted) in a VCALENDAR.")
        }
        if let other = items.first(where: { $0.name != wanted }) {
            throw .unsupportedComponent("This calendar holds \(kind == .task ? "tasks (VTODO)" : "events (VEVENT)"); line \(other.line) begins a \(other.name).")
        }
        // The series (the one without RECURRENCE-ID) and its overrides, which must share its UID.
        let masters = items.filter { $0.first("RECURRENCE-ID") == nil }
        guard masters.count == 1, let master = masters.first else {
            throw .unsupportedComponent(masters.isEmpty
                ? "The \(wanted) on line \(component.line) changes one occurrence of a series the calendar does not hold; send the series with it."
                : "A calendar item is one \(wanted) (and its occurrences' overrides); line \(masters[1].line) begins a second one.")
        }
        for name in ["RDATE", "EXRULE"] {
            if let rule = master.first(name) {
                throw .unsupportedComponent("Hearth repeats by RRULE and EXDATE only; line \(rule.line) has \(name). Save the extra dates as items of their own.")
            }
        }
        guard let uid = master.first("UID")?.value.trimmingCharacters(in: .whitespaces), !uid.isEmpty, uid.utf8.count <= 255 else {
            throw .invalidObject("The \(wanted) (line \(master.line)) needs a UID of 1 to 255 characters.")
        }
        if let stranger = items.first(where: { $0.first("UID")?.value.trimmingCharacters(in: .whitespaces) != uid }) {
            throw .invalidObject("Every \(wanted) of one calendar item has its UID; the one on line \(stranger.line) has another.")
        }
        let zones = ICalendarZones(calendar: calendar, fallback: zone)
        do {
            var object = try read(master, uid: uid, kind: kind, zones: zones)
            try readRepetition(master, overrides: items.filter { $0.first("RECURRENCE-ID") != nil }, into: &object, zones: zones)
            return object
        } catch let error as CalendarObjectError {
            throw error
        } catch let error as ICalendarError {
            throw .invalidData(error)
        } catch {
            throw .invalidObject("\(error)")
        }
    }

    /// The properties Hearth models; every other one is kept in ``extra``.
    static func modelled(_ kind: TaskKind) -> Set<String> {
        let common: Set<String> = ["UID", "DTSTAMP", "CREATED", "LAST-MODIFIED", "SUMMARY", "DESCRIPTION", "PRIORITY", "CATEGORIES"]
        return common.union(["RRULE", "EXDATE"])
            .union(kind == .task ? ["DUE", "STATUS", "COMPLETED", "PERCENT-COMPLETE"] : ["DTSTART", "DTEND", "DURATION", "LOCATION"])
    }

    /// The series' RRULE and EXDATEs, and what its overrides say: an event's cancelled occurrence
    /// is an exception, another its changed occurrence (its times, and a title, notes or place
    /// where they differ from the series'); a task's completed one is ``completedOccurrence``.
    private static func readRepetition(_ master: ICalendarComponent, overrides: [ICalendarComponent], into object: inout CalendarObject,
                                       zones: ICalendarZones) throws {
        let rules = master.all("RRULE")
        guard let ruleLine = rules.first else {
            if let stray = overrides.first {
                throw CalendarObjectError.unsupportedComponent("Line \(stray.line) overrides an occurrence, but the item does not repeat (it has no RRULE).")
            }
            if let exception = master.first("EXDATE") { object.extra += ICalendarWriter.fold(exception.text) + "\r\n" }
            return
        }
        if rules.count > 1 { throw CalendarObjectError.unsupportedComponent("Hearth repeats by one RRULE; line \(rules[1].line) has a second.") }
        let rule: RecurrenceRule
        do {
            rule = try RecurrenceRule(parsing: ruleLine.value, field: "RRULE")
        } catch {
            throw CalendarObjectError.unsupportedComponent("Line \(ruleLine.line): \(error.message)")
        }
        var exceptions: [Date] = []
        var changed: [OccurrenceOverride] = []
        for line in master.all("EXDATE") {
            for value in line.value.split(separator: ",") {
                var single = line
                single.value = String(value)
                exceptions.append(try single.time(zones).date)
            }
        }
        for override in overrides {
            guard let id = override.first("RECURRENCE-ID") else { continue }
            let occurrence = try id.time(zones).date
            let status = override.first("STATUS")?.value.uppercased()
            if object.kind == .event, status == "CANCELLED" {
                exceptions.append(occurrence)
            } else if object.kind == .task, status == "COMPLETED" || override.first("COMPLETED") != nil {
                object.completedOccurrence = max(object.completedOccurrence ?? occurrence, occurrence)
            } else if object.kind == .task {
                // An occurrence still to do (the caldav library's THISANDFUTURE instance): Hearth moves the task itself.
                continue
            } else {
                changed.append(try occurrenceOverride(override, of: occurrence, series: object, zones: zones))
            }
        }
        do {
            object.repetition = try Repetition.checked(rule: rule.text, from: .schedule, exceptions: exceptions, overrides: changed, kind: object.kind)
        } catch {
            throw CalendarObjectError.invalidObject("Line \(ruleLine.line): \(error.message)")
        }
    }

    /// An event's override as the occurrence it changes: its start (else the original one), its
    /// end (else as long as the series'), and its title, notes and place where they differ from the series'.
    private static func occurrenceOverride(_ override: ICalendarComponent, of occurrence: Date, series: CalendarObject,
                                           zones: ICalendarZones) throws -> OccurrenceOverride {
        let length = series.startsAt.flatMap { begins in series.endsAt.map { $0.timeIntervalSince(begins) } } ?? 0
        let start = try override.first("DTSTART").map { try $0.time(zones).date } ?? occurrence
        let end = try override.first("DTEND").map { try $0.time(zones).date }
            ?? (try override.first("DURATION").map { start.addingTimeInterval(try $0.duration()) }) ?? start.addingTimeInterval(length)
        guard end >= start else {
            throw CalendarObjectError.invalidObject("The occurrence changed on line \(override.line) ends before it starts.")
        }
        let title = override.first("SUMMARY")?.textValue.trimmingCharacters(in: .whitespacesAndNewlines)
        let notes = override.first("DESCRIPTION")?.textValue
        let location = override.first("LOCATION")?.textValue
        return OccurrenceOverride(occurrence: occurrence, startsAt: start, endsAt: end,
                                  title: title == series.title ? nil : title,
                                  notes: notes == series.notes ? nil : notes, location: location == series.location ? nil : location)
    }

    private static func read(_ component: ICalendarComponent, uid: String, kind: TaskKind, zones: ICalendarZones) throws -> CalendarObject {
        let modelled = modelled(kind)
        let title = component.first("SUMMARY")?.textValue.trimmingCharacters(in: .whitespacesAndNewlines)
        var object = CalendarObject(uid: uid, kind: kind, title: title.flatMap { $0.isEmpty ? nil : $0 } ?? "Untitled", notes: nil,
                                    priority: .none, deadline: nil, startsAt: nil, endsAt: nil, location: nil, labels: [],
                                    completed: false, remindAt: nil, parentUID: nil, parentLine: nil, extra: "", repetition: nil,
                                    completedOccurrence: nil)
        let parent = kind == .task ? component.all("RELATED-TO").first { ($0.parameters["RELTYPE"] ?? "PARENT").uppercased() == "PARENT" } : nil
        if let parent, !parent.value.trimmingCharacters(in: .whitespaces).isEmpty {
            object.parentUID = parent.value.trimmingCharacters(in: .whitespaces)
            object.parentLine = parent.text
        }
        object.notes = component.first("DESCRIPTION")?.textValue
        if let priority = component.first("PRIORITY") {
            guard let value = Int(priority.value.trimmingCharacters(in: .whitespaces)), (0...9).contains(value) else {
                throw ICalendarError(line: priority.line, message: "PRIORITY must be a number from 0 to 9; \"\(priority.value.prefix(20))\" is not.")
            }
            object.priority = switch value { case 1...4: .high; case 5: .medium; case 6...9: .low; default: .none }
        }
        var seen = Set<String>()
        for categories in component.all("CATEGORIES") {
            for label in categories.textValues.map({ $0.trimmingCharacters(in: .whitespaces) }) where !label.isEmpty && seen.insert(label.lowercased()).inserted {
                object.labels.append(label)
            }
        }
        // A repeating task with no DUE is due at its start (and its DURATION after it): Hearth repeats a task by its deadline.
        var dueFromStart = false
        if kind == .task {
            object.deadline = try component.first("DUE").map { try $0.time(zones).date }
            if object.deadline == nil, component.first("RRULE") != nil, let start = component.first("DTSTART") {
                object.deadline = try start.time(zones).date.addingTimeInterval(try component.first("DURATION")?.duration() ?? 0)
                dueFromStart = true
            }
            let status = component.first("STATUS")?.value.uppercased()
            let percent = component.first("PERCENT-COMPLETE").flatMap { Int($0.value.trimmingCharacters(in: .whitespaces)) }
            object.completed = status == "COMPLETED" || (status == nil && (component.first("COMPLETED") != nil || percent == 100))
        } else {
            guard let startLine = component.first("DTSTART") else {
                throw CalendarObjectError.invalidObject("An event needs a start: the VEVENT on line \(component.line) has no DTSTART.")
            }
            let start = try startLine.time(zones)
            object.startsAt = start.date
            if let end = component.first("DTEND") {
                object.endsAt = try end.time(zones).date
            } else if let duration = component.first("DURATION") {
                object.endsAt = start.date.addingTimeInterval(try duration.duration())
            } else {
                object.endsAt = start.isDay ? Calendar.gregorian(in: zones.zone(startLine.parameters["TZID"])).date(byAdding: .day, value: 1, to: start.date) : start.date
            }
            if let end = object.endsAt, end < start.date {
                throw CalendarObjectError.invalidObject("The event ends before it starts (DTSTART on line \(startLine.line)).")
            }
            object.location = component.first("LOCATION")?.textValue
        }
        var extra: [String] = []
        // A repeating task's DTSTART is the occurrence it stands at, which Hearth writes itself.
        let repeatingTask = kind == .task && component.first("RRULE") != nil
        for property in component.properties where !modelled.contains(property.name) && property.text != object.parentLine
            && !(repeatingTask && property.name == "DTSTART") && !(dueFromStart && property.name == "DURATION") {
            extra.append(ICalendarWriter.fold(property.text) + "\r\n")
        }
        // An event the app timed by DURATION is given back so (its length as it is then).
        if kind == .event, component.first("DTEND") == nil, component.first("DURATION") != nil { extra.insert(Self.durationMarker, at: 0) }
        // A repeating task that starts before it is due is given back so, each occurrence as long before its DUE.
        if repeatingTask, let due = object.deadline, let start = try component.first("DTSTART").map({ try $0.time(zones).date }), start < due {
            extra.insert(Self.leadMarker + TaskItem.duration(due.timeIntervalSince(start)) + "\r\n", at: 0)
        }
        var alarmRead = false
        for alarm in component.components {
            if alarm.name == "VALARM", !alarmRead, let when = try reminder(alarm, of: object, component: component, zones: zones) {
                object.remindAt = when
                alarmRead = true
            } else {
                extra.append(alarm.text)
            }
        }
        object.extra = extra.joined()
        guard object.extra.utf8.count <= maximumExtra else {
            throw CalendarObjectError.invalidObject("The item carries more than \(maximumExtra / 1024) KiB of properties Hearth does not model.")
        }
        return object
    }

    /// When the alarm fires: its absolute TRIGGER, or its offset from the item's start (an event's
    /// DTSTART, a task's DUE) or end (an event's DTEND, a task's DUE); nil when it has no moment.
    private static func reminder(_ alarm: ICalendarComponent, of object: CalendarObject, component: ICalendarComponent,
                                 zones: ICalendarZones) throws -> Date? {
        guard let trigger = alarm.first("TRIGGER") else { return nil }
        if trigger.parameters["VALUE"]?.uppercased() == "DATE-TIME" { return try trigger.time(zones).date }
        let offset = try trigger.duration()
        let fromEnd = trigger.parameters["RELATED"]?.uppercased() == "END"
        let base = object.kind == .task ? object.deadline : (fromEnd ? object.endsAt : object.startsAt)
        return base?.addingTimeInterval(offset)
    }
}

extension Calendar {
    /// The Gregorian calendar in `zone`.
    static func gregorian(in zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }
}
