import Foundation
import PostgresNIO

/// Why a calendar write was refused, beyond the task service's own refusals.
public enum CalendarWriteError: Error, Sendable, Equatable {
    /// `If-Match` or `If-None-Match` does not hold (412).
    case preconditionFailed(String)
    /// Another item of the calendar has this UID (`CALDAV:no-uid-conflict`, 403), under this name.
    case uidConflict(name: String)
    /// The body is not an item this calendar can hold.
    case object(CalendarObjectError)
}

extension CalendarService {
    /// What a PUT did: the item's new ETag, and whether it was made.
    public struct Stored: Sendable {
        public var etag: String
        public var created: Bool
    }

    /// Longest resource name kept.
    public static let maximumName = 255

    /// Stores the iCalendar `body` as the item `name` of `collection`. `ifNoneMatch` (`*`) creates
    /// only; `ifMatch` (an ETag) updates only that version (`*`: any version of an existing item). Over an existing item only the fields
    /// whose values differ are written (through the same field versions as `updateTask`), so a
    /// concurrent edit of another field stays.
    public func put(_ caller: Caller, _ collection: CalendarCollection, name: String, body: String, ifMatch: String?,
                    ifNoneMatch: Bool) async throws -> Stored {
        guard !name.isEmpty, name.utf8.count <= Self.maximumName, !name.contains("/") else {
            throw ServiceError.invalidInput(field: "name", message: "An item's name is 1 to \(Self.maximumName) characters without a slash.")
        }
        let zone = TimeZone(identifier: collection.timeZone) ?? .gmt
        let object: CalendarObject
        do { object = try CalendarObject.parse(body, kind: collection.kind, zone: zone) } catch { throw CalendarWriteError.object(error) }
        func attempt() async throws -> ([TaskWrite], Stored) {
            try await database.transaction(logger: logger) { connection in
                try await self.store(object, caller, collection, name: name, ifMatch: ifMatch, ifNoneMatch: ifNoneMatch, on: connection)
            }
        }
        let (writes, stored): ([TaskWrite], Stored)
        do {
            (writes, stored) = try await attempt()
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            // Another app made an item of this name or UID at the same moment: stored again, this one meets it.
            (writes, stored) = try await attempt()
        }
        for write in writes { try await tasks.announce(write, caller, needsItem: false) }
        logger.info("calendar item stored", metadata: ["household": "\(collection.householdID)", "task": "\(writes.first?.taskID.lowercasedString ?? "-")",
                                                       "created": "\(stored.created)"])
        return stored
    }

    private func store(_ object: CalendarObject, _ caller: Caller, _ collection: CalendarCollection, name: String, ifMatch: String?,
                       ifNoneMatch: Bool, on connection: PostgresConnection) async throws -> ([TaskWrite], Stored) {
        var writes: [TaskWrite] = []
        // The UID's holder is read before the name: each statement sees at least what the one before
        // it saw, so an item another app made under this name a moment ago is found by name too
        // (and answered as existing) instead of being taken for another item with this UID.
        let holderOfUID = try await uidHolder(collection, uid: object.uid, on: connection)
        let existing = try await itemID(collection, name: name, on: connection)
        let existingSubtask = existing == nil ? try await subtask(collection, name: name, on: connection) : nil
        if let holder = holderOfUID, holder.id != existing ?? existingSubtask?.id {
            throw CalendarWriteError.uidConflict(name: holder.name)
        }
        // One of a task's steps: its subtask (a new one when the task it is related to is in this calendar).
        if let existingSubtask {
            return try await storeSubtask(object, caller, collection, name: name, subtask: existingSubtask.id, of: existingSubtask.taskID,
                                          ifMatch: ifMatch, ifNoneMatch: ifNoneMatch, on: connection)
        }
        if existing == nil, let parentUID = object.parentUID, let parent = try await uidHolder(collection, uid: parentUID, on: connection), !parent.isSubtask {
            return try await storeSubtask(object, caller, collection, name: name, subtask: nil, of: parent.id, ifMatch: ifMatch,
                                          ifNoneMatch: ifNoneMatch, on: connection)
        }
        var object = object
        object.extra = object.extraWithParent
        let id: UUID
        if let existing {
            guard !ifNoneMatch else { throw CalendarWriteError.preconditionFailed("An item named \(name) exists already.") }
            let locked = try await tasks.lockedItem(caller, existing, on: connection)
            if let ifMatch, ifMatch != "*", ifMatch != "\"\(locked.item.version)\"" {
                throw CalendarWriteError.preconditionFailed("The item changed since (its ETag is now \"\(locked.item.version)\"); fetch it and apply the change again.")
            }
            var item = locked.item
            item.labels = try await tasks.labels(ofItems: [existing])[existing] ?? []
            let patch = Self.patch(from: item, to: object)
            if item.repetition != nil, item.kind == .task, !item.isCompleted, object.completed || object.completedOccurrence != nil {
                // A calendar app completing a repeating task in place (Tasks.org, DAVx5: the series marked done) or by an
                // override (Thunderbird, Evolution: RECURRENCE-ID with STATUS:COMPLETED): that occurrence is done and the task
                // moves on; a stale copy of one passed already changes nothing, and neither do its old dates.
                let shown = object.completedOccurrence
                    ?? object.deadline.map { abs($0.timeIntervalSince(item.deadline ?? $0)) < 1 ? item.position?.occurrence : $0 } ?? item.position?.occurrence
                writes.append(try await tasks.setCompleted(true, caller, id: existing, expectedVersion: nil, occurrence: shown, on: connection))
            } else if !patch.namedFields.isEmpty {
                writes.append(try await tasks.updateItem(caller, id: existing, patch: patch, expectedVersion: nil, on: connection))
            }
            if object.completed != item.isCompleted, item.repetition == nil || item.kind == .event || !object.completed {
                writes.append(try await tasks.setCompleted(object.completed, caller, id: existing, expectedVersion: nil, on: connection))
            }
            id = existing
        } else {
            guard ifMatch == nil else { throw CalendarWriteError.preconditionFailed("There is no item named \(name) to match.") }
            let draft = TaskDraft(kind: collection.kind, title: object.title, notes: object.notes, priority: object.priority, deadline: object.deadline,
                                  labelNames: object.labels, startsAt: object.startsAt, endsAt: object.endsAt, location: object.location,
                                  remindAt: object.remindAt, repetition: object.repetition)
            let created = try await tasks.createItem(caller, householdID: collection.householdID, draft: draft, on: connection)
            writes.append(created)
            if object.completed {
                writes.append(try await tasks.setCompleted(true, caller, id: created.taskID, expectedVersion: nil, on: connection))
            }
            id = created.taskID
        }
        // The app's name, UID and unmodelled properties (NULL where they are Hearth's own defaults).
        let ownName = id.lowercasedString + ".ics"
        let rows = try await connection.query("""
            UPDATE task_items SET
                calendar_name = \(name == ownName ? nil : name),
                calendar_uid = \(object.uid == id.lowercasedString ? nil : object.uid),
                calendar_extra = \(object.extra.isEmpty ? nil : object.extra)
            WHERE id = \(id) RETURNING version
            """, logger: logger)
        var version = 0
        for try await value in rows.decode(Int.self) { version = value }
        return (writes, Stored(etag: "\"\(version)\"", created: existing == nil))
    }

    /// A subtask stored from its VTODO: made on the task `taskID`, or (`subtask`) its title and
    /// state written when they differ, with the app's name, UID and other properties kept.
    private func storeSubtask(_ object: CalendarObject, _ caller: Caller, _ collection: CalendarCollection, name: String, subtask: UUID?,
                              of taskID: UUID, ifMatch: String?, ifNoneMatch: Bool, on connection: PostgresConnection) async throws -> ([TaskWrite], Stored) {
        let locked = try await tasks.lockedItem(caller, taskID, withSubtasks: true, on: connection)
        var writes: [TaskWrite] = []
        let id: UUID
        if let subtask {
            guard !ifNoneMatch else { throw CalendarWriteError.preconditionFailed("An item named \(name) exists already.") }
            if let ifMatch, ifMatch != "*", ifMatch != "\"\(locked.item.version)\"" {
                throw CalendarWriteError.preconditionFailed("The item changed since (its ETag is now \"\(locked.item.version)\"); fetch it and apply the change again.")
            }
            let current = locked.item.subtasks.first { $0.id == subtask }
            if current?.title != object.title || current?.done != object.completed {
                writes.append(try await tasks.updateSubtask(caller, id: subtask, title: current?.title != object.title ? object.title : nil,
                                                            done: current?.done != object.completed ? object.completed : nil, on: connection))
            }
            id = subtask
        } else {
            guard ifMatch == nil else { throw CalendarWriteError.preconditionFailed("There is no item named \(name) to match.") }
            id = UUID()
            writes.append(try await tasks.addSubtask(caller, taskID: taskID, id: id, title: object.title, on: connection))
            if object.completed { writes.append(try await tasks.updateSubtask(caller, id: id, title: nil, done: true, on: connection)) }
        }
        let ownName = id.lowercasedString + ".ics"
        try await connection.query("""
            UPDATE subtasks SET calendar_name = \(name == ownName ? nil : name), calendar_uid = \(object.uid == id.lowercasedString ? nil : object.uid),
                                calendar_extra = \(object.extra.isEmpty ? nil : object.extra)
            WHERE id = \(id)
            """, logger: logger)
        let version = try await TaskService.version(of: taskID, on: connection, logger: logger)
        return (writes, Stored(etag: "\"\(version)\"", created: subtask == nil))
    }

    /// Deletes the item `name` of `collection` (admins and owners, as in the API; a subtask, members
    /// and up); with `ifMatch`, only that version.
    public func delete(_ caller: Caller, _ collection: CalendarCollection, name: String, ifMatch: String?) async throws {
        let write = try await database.transaction(logger: logger) { connection in
            if let subtask = try await self.subtask(collection, name: name, on: connection) {
                let locked = try await self.tasks.lockedItem(caller, subtask.taskID, on: connection)
                if let ifMatch, ifMatch != "\"\(locked.item.version)\"" {
                    throw CalendarWriteError.preconditionFailed("The item changed since (its ETag is now \"\(locked.item.version)\"); fetch it before deleting it.")
                }
                return try await self.tasks.removeSubtask(caller, id: subtask.id, on: connection)
            }
            guard let id = try await self.itemID(collection, name: name, on: connection) else { throw ServiceError.notFound("Calendar item") }
            let locked = try await self.tasks.lockedItem(caller, id, forDeletion: true, on: connection)
            if let ifMatch, ifMatch != "\"\(locked.item.version)\"" {
                throw CalendarWriteError.preconditionFailed("The item changed since (its ETag is now \"\(locked.item.version)\"); fetch it before deleting it.")
            }
            return try await self.tasks.deleteItem(caller, id: id, expectedVersion: nil, on: connection)
        }
        try await tasks.announce(write, caller, needsItem: false)
        logger.info("calendar item deleted", metadata: ["household": "\(collection.householdID)", "task": "\(write.taskID.lowercasedString)"])
    }

    /// The patch that turns `item` into what the app sent: only the fields whose values differ
    /// (times compared to the second, since iCalendar has no finer ones).
    static func patch(from item: TaskItem, to object: CalendarObject) -> TaskPatch {
        func differs(_ old: Date?, _ new: Date?) -> Bool {
            switch (old, new) {
            case (nil, nil): false
            case let (old?, new?): abs(old.timeIntervalSince(new)) >= 1
            default: true
            }
        }
        var patch = TaskPatch()
        if object.title != item.title { patch.title = object.title }
        let notes = object.notes.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        if notes != item.notes { patch.notes = .some(object.notes) }
        if object.priority != item.priority { patch.priority = object.priority }
        if differs(item.remindAt, object.remindAt) { patch.remindAt = .some(object.remindAt) }
        if Set(object.labels.map { $0.lowercased() }) != Set(item.labels.map { $0.name.lowercased() }) { patch.labelNames = object.labels }
        if item.kind == .task {
            if differs(item.deadline, object.deadline) { patch.deadline = .some(object.deadline) }
        } else {
            if differs(item.startsAt, object.startsAt) { patch.startsAt = .some(object.startsAt) }
            if differs(item.endsAt, object.endsAt) || patch.startsAt != nil { patch.endsAt = .some(object.endsAt) }
            if object.location != item.location { patch.location = .some(object.location) }
        }
        // The repetition as the app was given it: changed only when the app changed it (a task keeps repeating from completion).
        let served = item.calendarRepetition
        if object.repetition?.rule != served?.rule || Set((object.repetition?.exceptions ?? []).map(Repetition.second)) != Set((served?.exceptions ?? []).map(Repetition.second)) {
            patch.repetition = .some(object.repetition.map { asked in
                var kept = asked
                if item.kind == .task, let from = item.repetition?.from { kept.from = from }
                return kept
            })
        }
        // An event's changed occurrences, when the app changed them (times to the second).
        let overrides = object.repetition?.overrides ?? []
        func key(_ change: OccurrenceOverride) -> [String?] {
            [change.occurrence, change.startsAt, change.endsAt].map { String(Repetition.second($0)) } + [change.title, change.notes, change.location]
        }
        if item.kind == .event, overrides.map(key) != (item.repetition?.overrides ?? []).map(key) {
            patch.overrides = overrides
        }
        return patch
    }

    /// The id of the item `name` of the calendar, if there is one.
    private func itemID(_ collection: CalendarCollection, name: String, on connection: PostgresConnection) async throws -> UUID? {
        let rows = try await connection.query("""
            SELECT id FROM task_items WHERE household_id = \(collection.householdID) AND kind = \(collection.kind.rawValue)
              AND COALESCE(calendar_name, id::text || '.ics') = \(name)
            """, logger: logger)
        for try await id in rows.decode(UUID.self) { return id }
        return nil
    }

    /// The item (or subtask) of the calendar whose UID is `uid`, if any, with its name.
    private func uidHolder(_ collection: CalendarCollection, uid: String,
                           on connection: PostgresConnection) async throws -> (id: UUID, name: String, isSubtask: Bool)? {
        let rows = try await connection.query("""
            SELECT id, COALESCE(calendar_name, id::text || '.ics') AS name, false AS is_subtask FROM task_items WHERE household_id = \(collection.householdID)
              AND kind = \(collection.kind.rawValue) AND COALESCE(calendar_uid, id::text) = \(uid)
            UNION ALL
            SELECT s.id, COALESCE(s.calendar_name, s.id::text || '.ics'), true FROM subtasks s JOIN task_items t ON t.id = s.task_id
            WHERE t.household_id = \(collection.householdID) AND t.kind = \(collection.kind.rawValue) AND COALESCE(s.calendar_uid, s.id::text) = \(uid)
            """, logger: logger)
        return try await rows.firstColumns(("id", UUID.self), ("name", String.self), ("is_subtask", Bool.self)).map { (id: $0.0, name: $0.1, isSubtask: $0.2) }
    }

    /// The subtask named `name` in a task calendar, if there is one, with its task.
    private func subtask(_ collection: CalendarCollection, name: String, on connection: PostgresConnection) async throws -> (id: UUID, taskID: UUID)? {
        guard collection.kind == .task else { return nil }
        let rows = try await connection.query("""
            SELECT s.id, s.task_id FROM subtasks s JOIN task_items t ON t.id = s.task_id
            WHERE t.household_id = \(collection.householdID) AND t.kind = 'TASK' AND COALESCE(s.calendar_name, s.id::text || '.ics') = \(name)
            """, logger: logger)
        return try await rows.firstColumns(("id", UUID.self), ("task_id", UUID.self)).map { (id: $0.0, taskID: $0.1) }
    }
}
