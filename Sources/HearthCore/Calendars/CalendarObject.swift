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

    /// ``extra`` with the `RELATED-TO` line put back, for an item whose parent is not in the calendar.
    var extraWithParent: String { (parentLine.map { ICalendarWriter.fold($0) + "\r\n" } ?? "") + extra }

    /// Kept in ``extra`` for an event the app timed by DURATION: it is written with DURATION, not DTEND.
    public static let durationMarker = "X-HEARTH-DURATION:TRUE\r\n"

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
        if items.count > 1 || component.first("RECURRENCE-ID") != nil {
            throw .unsupportedComponent("Hearth does not keep repeating items yet; this \(wanted) has more than one occurrence (line \(items[min(1, items.count - 1)].line)).")
        }
        for name in ["RRULE", "RDATE", "EXRULE"] {
            if let rule = component.first(name) {
                throw .unsupportedComponent("Hearth does not keep repeating items yet; line \(rule.line) has \(name). Save it as a single item.")
            }
        }
        guard let uid = component.first("UID")?.value.trimmingCharacters(in: .whitespaces), !uid.isEmpty, uid.utf8.count <= 255 else {
            throw .invalidObject("The \(wanted) (line \(component.line)) needs a UID of 1 to 255 characters.")
        }
        let zones = ICalendarZones(calendar: calendar, fallback: zone)
        do {
            return try read(component, uid: uid, kind: kind, zones: zones)
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
        return common.union(kind == .task ? ["DUE", "STATUS", "COMPLETED", "PERCENT-COMPLETE"] : ["DTSTART", "DTEND", "DURATION", "LOCATION"])
    }

    private static func read(_ component: ICalendarComponent, uid: String, kind: TaskKind, zones: ICalendarZones) throws -> CalendarObject {
        let modelled = modelled(kind)
        let title = component.first("SUMMARY")?.textValue.trimmingCharacters(in: .whitespacesAndNewlines)
        var object = CalendarObject(uid: uid, kind: kind, title: title.flatMap { $0.isEmpty ? nil : $0 } ?? "Untitled", notes: nil,
                                    priority: .none, deadline: nil, startsAt: nil, endsAt: nil, location: nil, labels: [],
                                    completed: false, remindAt: nil, parentUID: nil, parentLine: nil, extra: "")
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
        if kind == .task {
            object.deadline = try component.first("DUE").map { try $0.time(zones).date }
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
        for property in component.properties where !modelled.contains(property.name) && property.text != object.parentLine {
            extra.append(ICalendarWriter.fold(property.text) + "\r\n")
        }
        // An event the app timed by DURATION is given back so (its length as it is then).
        if kind == .event, component.first("DTEND") == nil, component.first("DURATION") != nil { extra.insert(Self.durationMarker, at: 0) }
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
