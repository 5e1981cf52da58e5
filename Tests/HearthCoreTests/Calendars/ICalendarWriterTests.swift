import Foundation
import HearthCore
import Testing

/// iCalendar text as RFC 5545 writes it: TEXT escaped, lines folded at 75 octets without splitting
/// a character, times in UTC or local with their zone, and a VTIMEZONE with the zone's real changes.
struct ICalendarWriterTests {
    @Test func textIsEscapedAndControlCharactersLeftOut() {
        #expect(ICalendarWriter.escape("Milk, eggs; bread\\jam\nline two\r\nthree\u{7}") == "Milk\\, eggs\\; bread\\\\jam\\nline two\\nthree")
    }

    @Test func longLinesFoldAt75OctetsBetweenCharacters() {
        var writer = ICalendarWriter()
        writer.text("SUMMARY", String(repeating: "é", count: 60))
        let lines = writer.output.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.count == 2 && lines.allSatisfy { $0.utf8.count <= 75 })
        #expect(lines[1].hasPrefix(" "))
        // Unfolded (drop CRLF and the space), the value is whole.
        #expect(writer.output.replacingOccurrences(of: "\r\n ", with: "") == "SUMMARY:" + String(repeating: "é", count: 60) + "\r\n")
    }

    @Test func timesAreUTCOrLocalWithTheirZone() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let moment = Date(timeIntervalSince1970: 1_795_676_400)  // 2026-11-26 07:00 UTC
        var writer = ICalendarWriter()
        writer.utc("DTSTAMP", moment)
        writer.local("DTSTART", moment, in: berlin)
        writer.local("DUE", moment, in: .gmt)
        #expect(writer.output == "DTSTAMP:20261126T070000Z\r\nDTSTART;TZID=Europe/Berlin:20261126T080000\r\nDUE:20261126T070000Z\r\n")
    }

    @Test func aTimeZoneHasItsRealChanges() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        var writer = ICalendarWriter()
        // 2026-06-01 to 2026-12-01: the year before is included, so the summer-time start of 2026 is there.
        writer.timeZone(berlin, covering: Date(timeIntervalSince1970: 1_780_272_000)...Date(timeIntervalSince1970: 1_796_083_200))
        let text = writer.output
        #expect(text.hasPrefix("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n") && text.hasSuffix("END:VTIMEZONE\r\n"))
        // Summer time began on 29 March 2026 at 02:00 local (+0100 to +0200) and ends on 25 October at 03:00 (+0200 to +0100).
        #expect(text.contains("BEGIN:DAYLIGHT\r\nDTSTART:20260329T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n"))
        #expect(text.contains("BEGIN:STANDARD\r\nDTSTART:20261025T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\n"))
        var fixed = ICalendarWriter()
        fixed.timeZone(try #require(TimeZone(identifier: "Asia/Kolkata")), covering: Date(timeIntervalSince1970: 1_780_272_000)...Date(timeIntervalSince1970: 1_796_083_200))
        #expect(fixed.output.contains("BEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+0530\r\nTZOFFSETTO:+0530\r\nEND:STANDARD"))
    }

    /// The arithmetic civil date agrees with Foundation's calendar, across zones, leap days and before 1970.
    @Test(arguments: ["UTC", "Europe/Berlin", "America/Los_Angeles", "Asia/Kolkata", "Pacific/Chatham"])
    func civilDatesAgreeWithTheCalendar(zone: String) throws {
        let zone = try #require(TimeZone(identifier: zone))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var generator = SystemRandomNumberGenerator()
        let moments = [-86_400.5, 0, 951_782_400, 1_795_676_400, 4_107_542_399] + (0..<500).map { _ in Double(Int64.random(in: -2_000_000_000...4_000_000_000, using: &generator)) }
        for seconds in moments {
            let date = Date(timeIntervalSince1970: seconds)
            let expected = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
            let civil = date.civil(in: zone)
            #expect(civil.year == expected.year && civil.month == expected.month && civil.day == expected.day, "\(seconds)")
            #expect(civil.hour == expected.hour && civil.minute == expected.minute && civil.second == expected.second, "\(seconds)")
            #expect(civil.weekday + 1 == expected.weekday, "\(seconds)")
        }
    }
}
