import Foundation

extension Date {
    /// The date and time in `zone` in ISO 8601's basic format, `20261126T093000` (no zone suffix):
    /// what iCalendar's date-times and backup file names are made of.
    public func basicFormat(in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: self)
        func pad(_ value: Int?, _ width: Int) -> String {
            let digits = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(parts.year, 4) + pad(parts.month, 2) + pad(parts.day, 2) + "T" + pad(parts.hour, 2) + pad(parts.minute, 2) + pad(parts.second, 2)
    }
}
