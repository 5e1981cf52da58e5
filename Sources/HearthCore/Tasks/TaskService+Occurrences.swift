import Foundation
import PostgresNIO

/// What changes in one occurrence of a repeating event: a field left nil stays as the occurrence
/// has it; `.some(nil)` gives a text back to the series.
public struct OccurrenceChange: Sendable, Equatable {
    /// A moved start (without `endsAt` the occurrence keeps its length).
    public var startsAt: Date?
    public var endsAt: Date?
    public var title: String??
    public var notes: String??
    public var location: String??

    public init(startsAt: Date? = nil, endsAt: Date? = nil, title: String?? = nil, notes: String?? = nil, location: String?? = nil) {
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.title = title
        self.notes = notes
        self.location = location
    }

    /// `current` with the change made; a text the same as the series' is the series'.
    func applied(to current: OccurrenceOverride, series event: TaskItem) throws(ServiceError) -> OccurrenceOverride {
        var changed = current
        if let startsAt {
            changed.endsAt = startsAt.addingTimeInterval(current.endsAt.timeIntervalSince(current.startsAt))
            changed.startsAt = startsAt
        }
        if let endsAt { changed.endsAt = endsAt }
        if let title { changed.title = title }
        if let notes { changed.notes = notes }
        if let location { changed.location = location }
        changed = try changed.checked()
        if changed.title == event.title { changed.title = nil }
        if changed.notes == event.notes { changed.notes = nil }
        if changed.location == event.location { changed.location = nil }
        return changed
    }
}

extension TaskService {
    /// Changes one occurrence of a repeating event (RFC 5545's `RECURRENCE-ID` override): a moved
    /// start or end, its own title, notes or place. The answer is that occurrence; one changed back
    /// to what the series says is no longer an override.
    public func updateEventOccurrence(_ caller: Caller, id: UUID, occurrence: Date, change: OccurrenceChange,
                                      expectedVersion: Int? = nil) async throws -> TaskItem {
        let series = try await committed(try await database.transaction(logger: logger) { connection in
            try await self.updateEventOccurrence(caller, id: id, occurrence: occurrence, change: change,
                                                 expectedVersion: expectedVersion, on: connection)
        }, caller)
        return Self.occurrence(occurrence, of: series)
    }

    func updateEventOccurrence(_ caller: Caller, id: UUID, occurrence: Date, change: OccurrenceChange, expectedVersion: Int?,
                               on connection: PostgresConnection) async throws -> TaskWrite {
        let locked = try await lockedItem(caller, id, on: connection)
        let zone = try await checkedSeries(locked, caller, occurrence: occurrence, expectedVersion: expectedVersion)
        let event = locked.item
        guard var repetition = event.repetition, let start = event.startsAt, let end = event.endsAt else { throw ServiceError.notFound("Task") }
        // The occurrence as the series has it; changed back to that, it is no override.
        let unchanged = OccurrenceOverride(occurrence: occurrence, startsAt: occurrence, endsAt: occurrence.addingTimeInterval(end.timeIntervalSince(start)))
        let changed = try change.applied(to: repetition.override(of: occurrence) ?? unchanged, series: event)
        var others = repetition.overrides.filter { Repetition.second($0.occurrence) != Repetition.second(occurrence) }
        if changed != unchanged { others.append(changed) }
        guard others.count <= Repetition.maximumExceptions else {
            throw ServiceError.invalidInput(field: "occurrence", message: "A series keeps at most \(Repetition.maximumExceptions) changed occurrences; change the whole series instead.")
        }
        repetition.overrides = others.sorted { $0.occurrence < $1.occurrence }
        guard repetition.overrides != event.repetition?.overrides else {
            return TaskWrite(taskID: id, householdID: event.householdID, change: nil, version: event.version)
        }
        return try await writeSeries(event, repetition, caller, zone: zone, on: connection)
    }

    /// Takes one occurrence out of a repeating event (an exception, RFC 5545's EXDATE); taking out
    /// one already out changes nothing.
    public func cancelEventOccurrence(_ caller: Caller, id: UUID, occurrence: Date, expectedVersion: Int? = nil) async throws -> TaskItem {
        return try await committed(try await database.transaction(logger: logger) { connection in
            try await self.cancelEventOccurrence(caller, id: id, occurrence: occurrence, expectedVersion: expectedVersion, on: connection)
        }, caller)
    }

    func cancelEventOccurrence(_ caller: Caller, id: UUID, occurrence: Date, expectedVersion: Int?,
                               on connection: PostgresConnection) async throws -> TaskWrite {
        let locked = try await lockedItem(caller, id, on: connection)
        let item = locked.item
        if item.kind == .event, let repetition = item.repetition, repetition.isException(occurrence) {
            try caller.authorize("update", item.subject)
            return TaskWrite(taskID: id, householdID: item.householdID, change: nil, version: item.version)
        }
        let zone = try await checkedSeries(locked, caller, occurrence: occurrence, expectedVersion: expectedVersion)
        guard var repetition = item.repetition else { throw ServiceError.notFound("Task") }
        guard repetition.exceptions.count < Repetition.maximumExceptions else {
            throw ServiceError.invalidInput(field: "occurrence", message: "A series keeps at most \(Repetition.maximumExceptions) exceptions; change the whole series instead.")
        }
        repetition.exceptions = (repetition.exceptions + [occurrence]).sorted()
        repetition.overrides.removeAll { Repetition.second($0.occurrence) == Repetition.second(occurrence) }
        return try await writeSeries(locked.item, repetition, caller, zone: zone, on: connection)
    }

    /// Checks that the locked item is a repeating event the caller may update and `occurrence` a
    /// date of its series; its household's zone.
    private func checkedSeries(_ locked: LockedItem, _ caller: Caller, occurrence: Date, expectedVersion: Int?) async throws -> TimeZone {
        let event = locked.item
        try caller.authorize("update", event.subject)
        guard event.kind == .event, let repetition = event.repetition, let position = event.position else {
            throw ServiceError.invalidInput(field: "id", message: event.kind == .event
                ? "This event happens once; change the event itself."
                : "A task's occurrences are not changed one at a time: complete or skip it, or change the task.")
        }
        try locked.versions.refuseStale("Task", expected: expectedVersion, fields: [("repeat", "repeat_exceptions"), ("overrides", "repeat_overrides")])
        let zone = try await households.timeZone(of: event.householdID)
        guard repetition.isOccurrence(occurrence, start: position.start, zone: zone) else {
            throw ServiceError.invalidInput(field: "occurrence",
                message: "\(occurrence.formatted(.iso8601)) is not an occurrence of this event: name one by its original start, as the agenda's `occurrence` gives it.")
        }
        return zone
    }

    /// Writes a repeating event's exceptions and overrides; its reminder moves to the next occurrence.
    private func writeSeries(_ event: TaskItem, _ repetition: Repetition, _ caller: Caller, zone: TimeZone,
                             on connection: PostgresConnection) async throws -> TaskWrite {
        let now = clock.now
        // An event's start is its series' first (as in an update of the event).
        let due = event.startsAt.flatMap { repetition.nextReminder(seriesStart: $0, remindAt: event.remindAt, after: now, zone: zone) }
        let rows = try await connection.query("""
            UPDATE task_items SET repeat_exceptions = \(repetition.exceptions),
                repeat_overrides = \(OccurrenceOverride.column(repetition.overrides))::jsonb,
                reminder_due_at = \(due), reminder_lease_owner = NULL, reminder_lease_expires_at = NULL,
                updated_by = \(caller.userID), updated_at = \(now)
            WHERE id = \(event.id) RETURNING version
            """, logger: logger)
        var version = event.version
        for try await value in rows.decode(Int.self) { version = value }
        return TaskWrite(taskID: event.id, householdID: event.householdID, change: .updated, version: version)
    }

    /// The occurrence `date` of a repeating event as the agenda lists it.
    static func occurrence(_ date: Date, of event: TaskItem) -> TaskItem {
        if let change = event.repetition?.override(of: date) { return change.applied(to: event) }
        var listed = event
        if let start = event.startsAt, let end = event.endsAt {
            (listed.startsAt, listed.endsAt) = (date, date.addingTimeInterval(end.timeIntervalSince(start)))
        }
        listed.listedOccurrence = date
        return listed
    }
}
