import Foundation

extension ICalendarWriter {
    /// A VTIMEZONE for `zone` covering `range`: one STANDARD or DAYLIGHT part per offset change in it
    /// (its local start, the offsets before and after), from the system's time zone data — so
    /// clients that know no zone by name still place every time right. A zone with no change in
    /// the range is one STANDARD part at its fixed offset.
    public mutating func timeZone(_ zone: TimeZone, covering range: ClosedRange<Date>) {
        begin("VTIMEZONE")
        text("TZID", zone.identifier)
        // Start a year early, so the offset in force at the range's start is among the parts.
        var cursor = range.lowerBound.addingTimeInterval(-366 * 86_400)
        var transitions: [Date] = []
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next <= range.upperBound, transitions.count < 400 {
            transitions.append(next)
            cursor = next
        }
        if transitions.isEmpty {
            let offset = zone.secondsFromGMT(for: range.lowerBound)
            begin("STANDARD")
            line("DTSTART", raw: "19700101T000000")
            line("TZOFFSETFROM", raw: Self.offset(offset))
            line("TZOFFSETTO", raw: Self.offset(offset))
            end("STANDARD")
        }
        for transition in transitions {
            let before = zone.secondsFromGMT(for: transition.addingTimeInterval(-1))
            let after = zone.secondsFromGMT(for: transition)
            let part = zone.isDaylightSavingTime(for: transition) ? "DAYLIGHT" : "STANDARD"
            begin(part)
            // DTSTART is the transition's moment in the local time in force before it.
            line("DTSTART", raw: Self.local(transition.addingTimeInterval(Double(before)), in: .gmt))
            line("TZOFFSETFROM", raw: Self.offset(before))
            line("TZOFFSETTO", raw: Self.offset(after))
            if let abbreviation = zone.abbreviation(for: transition) { text("TZNAME", abbreviation) }
            end(part)
        }
        end("VTIMEZONE")
    }
}
