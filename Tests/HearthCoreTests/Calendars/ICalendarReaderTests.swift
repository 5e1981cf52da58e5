import Foundation
@testable import HearthCore
import Testing

/// iCalendar read as RFC 5545 writes it (folded lines, quoted parameters, escaped TEXT, times in
/// UTC, in a zone or floating, durations), refusals that name the line, and a calendar app's item
/// mapped to Hearth's fields and back with what Hearth does not model kept as it came.
struct ICalendarReaderTests {
    let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt

    @Test func foldedLinesQuotedParametersAndEscapedText() throws {
        let body = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY;LANGUAGE=en:Milk\\, eggs\\; br\r\n ead\\nand jam\r\nATTENDEE;CN=\"Doe, Jane\";ROLE=CHAIR:mailto:jane@example.org\n"
            + "CATEGORIES:A\\,B,C\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let calendar = try ICalendarReader.read(body)
        let todo = try #require(calendar.components.first)
        #expect(todo.name == "VTODO" && todo.line == 2)
        #expect(todo.first("SUMMARY")?.textValue == "Milk, eggs; bread\nand jam")
        #expect(todo.first("SUMMARY")?.parameters == ["LANGUAGE": "en"])
        #expect(todo.first("ATTENDEE")?.parameters["CN"] == "Doe, Jane" && todo.first("ATTENDEE")?.value == "mailto:jane@example.org")
        #expect(todo.first("CATEGORIES")?.textValues == ["A,B", "C"])
        #expect(todo.first("CATEGORIES")?.line == 6)
    }

    @Test(arguments: [
        ("BEGIN:VCALENDAR\r\nSUMMARY\r\nEND:VCALENDAR\r\n", 2, "no value"),
        ("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n", 3, "closes BEGIN:VTODO"),
        ("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\n", 2, "never ended"),
        ("BEGIN:VTODO\r\nEND:VTODO\r\n", 1, "BEGIN:VCALENDAR"),
        ("BEGIN:VCALENDAR\r\nX;Y:1\r\nEND:VCALENDAR\r\n", 2, "NAME=value"),
        ("", 1, "empty"),
    ])
    func refusalsNameTheLine(body: String, line: Int, words: String) {
        #expect(throws: ICalendarError.self) { try ICalendarReader.read(body) }
        do {
            _ = try ICalendarReader.read(body)
        } catch {
            #expect(error.line == line && error.message.contains(words), "\(error)")
        }
    }

    @Test func timesInUTCInAZoneFloatingAndWholeDays() throws {
        let calendar = try ICalendarReader.read("""
            BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nA:20261126T070000Z\r\nB;TZID=Europe/Berlin:20261126T080000\r\nC:20261126T080000\r\n\
            D;VALUE=DATE:20261126\r\nE:2026-11-26\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """)
        let event = try #require(calendar.components.first)
        let zones = ICalendarZones(calendar: calendar, fallback: berlin)
        let moment = Date(timeIntervalSince1970: 1_795_676_400)  // 2026-11-26 07:00 UTC
        #expect(try event.first("A")?.time(zones) == ICalendarTime(date: moment, isDay: false))
        #expect(try event.first("B")?.time(zones).date == moment)
        #expect(try event.first("C")?.time(zones).date == moment, "floating: the household's zone")
        #expect(try event.first("D")?.time(zones) == ICalendarTime(date: moment.addingTimeInterval(-8 * 3600), isDay: true))
        #expect(throws: ICalendarError.self) { try event.first("E")?.time(zones) }
    }

    @Test(arguments: [("PT15M", 900.0), ("-PT15M", -900), ("P1D", 86_400), ("-P1DT2H", -93_600), ("P2W", 1_209_600), ("PT0S", 0), ("PT1H30M5S", 5405)])
    func durations(text: String, seconds: TimeInterval) throws {
        let property = try #require(try ICalendarReader.read("BEGIN:VCALENDAR\r\nTRIGGER:\(text)\r\nEND:VCALENDAR\r\n").first("TRIGGER"))
        #expect(try property.duration() == seconds)
    }

    @Test func anAppsTaskMapsToHearthsFieldsAndKeepsTheRest() throws {
        let body = """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:abc@example.org\r\nSUMMARY:Buy candles\r\nDESCRIPTION:Beeswax\r\n\
            DUE;TZID=Europe/Berlin:20261130T170000\r\nPRIORITY:6\r\nCATEGORIES:Errands,errands,Kitchen\r\nSTATUS:COMPLETED\r\n\
            X-APPLE-SORT-ORDER:42\r\nSEQUENCE:3\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER;RELATED=END:-PT30M\r\nEND:VALARM\r\n\
            BEGIN:VALARM\r\nACTION:AUDIO\r\nTRIGGER:-P1D\r\nEND:VALARM\r\nEND:VTODO\r\nEND:VCALENDAR\r\n
            """
        let object = try CalendarObject.parse(body, kind: .task, zone: berlin)
        let due = Date(timeIntervalSince1970: 1_796_054_400)  // 2026-11-30 16:00 UTC
        #expect(object.uid == "abc@example.org" && object.title == "Buy candles" && object.notes == "Beeswax")
        #expect(object.deadline == due && object.priority == .low && object.labels == ["Errands", "Kitchen"] && object.completed)
        #expect(object.remindAt == due.addingTimeInterval(-1800))
        #expect(object.extra == "X-APPLE-SORT-ORDER:42\r\nSEQUENCE:3\r\nBEGIN:VALARM\r\nACTION:AUDIO\r\nTRIGGER:-P1D\r\nEND:VALARM\r\n")

        // Written back: Hearth's fields, the reminder relative to the deadline, the rest as it came.
        let item = TaskItem(id: UUID(), householdID: UUID(), kind: .task, title: object.title, notes: object.notes, priority: object.priority,
                            deadline: object.deadline, completedAt: due, createdAt: due, updatedAt: due, labels: [], subtasks: [], reminderID: UUID(),
                            remindAt: object.remindAt)
        let written = item.iCalendar(uid: object.uid, extra: object.extra, zone: berlin)
        #expect(written.contains("\r\nDUE;TZID=Europe/Berlin:20261130T170000\r\n") && written.contains("\r\nSTATUS:COMPLETED\r\n"))
        // The app's properties, then Hearth's reminder (the first alarm), then the app's other alarm.
        #expect(written.contains("\r\nX-APPLE-SORT-ORDER:42\r\nSEQUENCE:3\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Buy candles\r\n"
                                 + "TRIGGER;RELATED=END:-PT30M\r\nEND:VALARM\r\nBEGIN:VALARM\r\nACTION:AUDIO\r\n"), "\(written)")
        let reread = try CalendarObject.parse(written, kind: .task, zone: berlin)
        #expect(reread.deadline == object.deadline && reread.remindAt == object.remindAt && reread.extra == object.extra && reread.completed)
    }

    @Test func wholeDayEventsStayWholeDays() throws {
        let body = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:d\r\nSUMMARY:Holiday\r\nDTSTART;VALUE=DATE:20261224\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let object = try CalendarObject.parse(body, kind: .event, zone: berlin)
        let start = try #require(object.startsAt)
        #expect(object.endsAt == start.addingTimeInterval(86_400))
        let item = TaskItem(id: UUID(), householdID: UUID(), kind: .event, title: "Holiday", priority: .none, startsAt: object.startsAt, endsAt: object.endsAt,
                            createdAt: start, updatedAt: start, labels: [], subtasks: [], reminderID: UUID())
        let written = item.iCalendar(uid: "d", extra: nil, zone: berlin)
        #expect(written.contains("\r\nDTSTART;VALUE=DATE:20261224\r\nDTEND;VALUE=DATE:20261225\r\n") && !written.contains("VTIMEZONE"))
    }

    @Test(arguments: [
        ("BEGIN:VEVENT\r\nUID:x\r\nDTSTART:20261201T100000Z\r\nEND:VEVENT\r\n", TaskKind.task, "supported"),
        ("BEGIN:VTODO\r\nUID:x\r\nRRULE:FREQ=HOURLY\r\nEND:VTODO\r\n", .task, "supported"),
        ("BEGIN:VTODO\r\nUID:x\r\nRRULE:FREQ=WEEKLY\r\nRDATE:20261201T100000Z\r\nEND:VTODO\r\n", .task, "supported"),
        ("BEGIN:VTODO\r\nSUMMARY:No UID\r\nEND:VTODO\r\n", .task, "object"),
        ("BEGIN:VEVENT\r\nUID:x\r\nSUMMARY:No start\r\nEND:VEVENT\r\n", .event, "object"),
        ("BEGIN:VTODO\r\nUID:x\r\nPRIORITY:high\r\nEND:VTODO\r\n", .task, "data"),
    ])
    func itemsHearthCannotKeepAreRefusedWithTheirReason(component: String, kind: TaskKind, reason: String) {
        do {
            _ = try CalendarObject.parse("BEGIN:VCALENDAR\r\n" + component + "END:VCALENDAR\r\n", kind: kind, zone: berlin)
            Issue.record("accepted")
        } catch {
            switch error {
            case .unsupportedComponent: #expect(reason == "supported", "\(error)")
            case .invalidObject: #expect(reason == "object", "\(error)")
            case .invalidData(let problem): #expect(reason == "data" && problem.line == 4, "\(error)")
            }
        }
    }
}
