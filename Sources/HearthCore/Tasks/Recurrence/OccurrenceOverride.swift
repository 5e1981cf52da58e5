import Foundation

/// One occurrence of a repeating event changed (RFC 5545's `RECURRENCE-ID` override): its own
/// start and end, and a title, notes or place of its own where they are not nil (nil: the series').
public struct OccurrenceOverride: Sendable, Equatable {
    /// The occurrence's original start, as the series places it.
    public var occurrence: Date
    public var startsAt: Date
    public var endsAt: Date
    public var title: String?
    public var notes: String?
    public var location: String?

    public init(occurrence: Date, startsAt: Date, endsAt: Date, title: String? = nil, notes: String? = nil, location: String? = nil) {
        self.occurrence = occurrence
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.title = title
        self.notes = notes
        self.location = location
    }

    /// The override with its texts trimmed and checked as an event's are (an empty one is the
    /// series'); one that ends before it starts is refused.
    func checked() throws(ServiceError) -> OccurrenceOverride {
        try EventSchedule.check(start: startsAt, end: endsAt)
        var checked = self
        checked.title = try title.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
            .map { text throws(ServiceError) in try TaskDraft.title(text, field: "title") }
        checked.notes = try TaskDraft.optionalText(notes, field: "notes", maxLength: TaskDraft.maximumNotes)
        checked.location = try TaskDraft.optionalText(location, field: "location", maxLength: TaskDraft.maximumLocation)
        return checked
    }

    /// `event` as this occurrence of it: its times, and its own title, notes and place where it has them.
    func applied(to event: TaskItem) -> TaskItem {
        var occurrence = event
        (occurrence.startsAt, occurrence.endsAt, occurrence.listedOccurrence) = (startsAt, endsAt, self.occurrence)
        if let title { occurrence.title = title }
        if let notes { occurrence.notes = notes }
        if let location { occurrence.location = location }
        return occurrence
    }
}

/// Stored in `task_items.repeat_overrides` as JSON, times as seconds since 1970.
extension OccurrenceOverride: Codable {
    private enum Keys: String, CodingKey { case occurrence, startsAt, endsAt, title, notes, location }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: Keys.self)
        occurrence = Date(timeIntervalSince1970: try values.decode(Double.self, forKey: .occurrence))
        startsAt = Date(timeIntervalSince1970: try values.decode(Double.self, forKey: .startsAt))
        endsAt = Date(timeIntervalSince1970: try values.decode(Double.self, forKey: .endsAt))
        title = try values.decodeIfPresent(String.self, forKey: .title)
        notes = try values.decodeIfPresent(String.self, forKey: .notes)
        location = try values.decodeIfPresent(String.self, forKey: .location)
    }

    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: Keys.self)
        try values.encode(occurrence.timeIntervalSince1970, forKey: .occurrence)
        try values.encode(startsAt.timeIntervalSince1970, forKey: .startsAt)
        try values.encode(endsAt.timeIntervalSince1970, forKey: .endsAt)
        try values.encodeIfPresent(title, forKey: .title)
        try values.encodeIfPresent(notes, forKey: .notes)
        try values.encodeIfPresent(location, forKey: .location)
    }

    /// A series' overrides as the column stores them.
    static func column(_ overrides: [OccurrenceOverride]) -> String {
        guard !overrides.isEmpty, let data = try? JSONEncoder().encode(overrides) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }
}
