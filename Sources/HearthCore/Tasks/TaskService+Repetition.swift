import Foundation
import Logging
import PostgresNIO

/// One occurrence of a repeating task done: which, when, by whom, and whose turn it was.
public struct TaskCompletion: Sendable, Equatable {
    public var taskID: UUID
    /// The occurrence's date as the series placed it.
    public var occurrence: Date
    public var completedAt: Date
    public var completedBy: UUID?
    /// Whose turn it was (the assignee when it was done).
    public var assigneeID: UUID?
}

/// Completions counted for fairness: per member, and per task and member.
public struct ChoreStats: Sendable, Equatable {
    public struct Count: Sendable, Equatable {
        /// Who did it; nil for an account since deleted.
        public var userID: UUID?
        public var completions: Int

        public init(userID: UUID?, completions: Int) {
            self.userID = userID
            self.completions = completions
        }
    }

    public struct TaskCount: Sendable, Equatable {
        public var taskID: UUID
        public var title: String
        public var completions: Int
        public var byMember: [Count]
    }

    public var from: Date
    public var to: Date
    public var byMember: [Count]
    public var byTask: [TaskCount]
}

extension TaskService {
    /// Moves a repeating task past its current occurrence, in the caller's transaction: recorded
    /// as done (`done`) or skipped. Naming an occurrence the task has passed already (done on
    /// another phone, a re-sent push, two calendar apps) changes nothing and is answered as a
    /// duplicate; naming one it has not reached is bad input. The task moves to its next
    /// occurrence — new deadline, reminder shifted with it, subtasks unticked, the turn passed on
    /// (when done) to the next member of its rotation who is not away then — or, after the last
    /// one, stays at it, completed.
    func passOccurrence(_ locked: LockedItem, _ caller: Caller, named: Date?, done: Bool, expectedVersion: Int?,
                        on connection: PostgresConnection) async throws -> TaskWrite {
        let item = locked.item
        guard let repetition = item.repetition, let position = item.position else { throw ServiceError.notFound("Task") }
        guard item.kind == .task else {
            throw ServiceError.invalidInput(field: "id", message: "A repeating event's occurrences come and go with their dates; events are not completed or skipped as a series.")
        }
        var unchanged = TaskWrite(taskID: item.id, householdID: item.householdID, change: nil, version: item.version)
        unchanged.duplicate = true
        if let named {
            if Repetition.second(named) < Repetition.second(position.occurrence) { return unchanged }
            if Repetition.second(named) > Repetition.second(position.occurrence) {
                throw ServiceError.invalidInput(field: "occurrence", message: "The task is not at that occurrence yet: its current one is \(position.occurrence.basicFormat(in: .gmt))Z.")
            }
        }
        if item.isCompleted { return unchanged }  // the series ended at this occurrence, done already
        try locked.versions.refuseStale("Task", expected: expectedVersion, fields: [("completed", "completed_at")])
        let now = clock.now
        if done {
            let recorded = try await connection.query("""
                INSERT INTO task_completions (task_id, household_id, occurrence, completed_at, completed_by, assignee_id)
                VALUES (\(item.id), \(item.householdID), \(position.occurrence), \(now), \(caller.userID), \(item.assigneeID))
                ON CONFLICT DO NOTHING RETURNING task_id
                """, logger: logger)
            var inserted = false
            for try await _ in recorded.decode(UUID.self) { inserted = true }
            guard inserted else { return unchanged }
        }
        try await Self.retireReminders(of: item.id, at: now, on: connection, logger: logger)
        let zone = TimeZone(identifier: try await households.readableHousehold(caller, item.householdID, on: connection).timeZone) ?? .gmt
        guard let next = repetition.next(after: position, doneAt: now, zone: zone) else {
            try await connection.query("""
                UPDATE task_items SET completed_at = \(now), completed_by = \(caller.userID), reminder_due_at = NULL,
                    occurrences_passed = occurrences_passed + 1, updated_by = \(caller.userID), updated_at = \(now)
                WHERE id = \(item.id)
                """, logger: logger)
            return TaskWrite(taskID: item.id, householdID: item.householdID, change: .completed,
                             version: try await Self.version(of: item.id, on: connection, logger: logger))
        }
        // The deadline moves to the next occurrence (a deadline moved for this one alone comes back
        // to the series), and the reminder moves by as much.
        let shift = next.timeIntervalSince(item.deadline ?? position.occurrence)
        let remindAt = item.remindAt?.addingTimeInterval(shift)
        var assignee = item.assigneeID
        if done, let rotation = item.rotation {
            assignee = try await nextTurn(in: rotation, after: item.assigneeID, at: next, householdID: item.householdID, on: connection)
        }
        let due = Self.armedReminder(at: remindAt ?? next, now: now)
        try await connection.query("""
            UPDATE task_items SET deadline = \(next), remind_at = \(remindAt), occurrence = \(next), occurrences_passed = occurrences_passed + 1,
                assignee_id = \(assignee), reminder_due_at = \(due), reminder_lease_owner = NULL, reminder_lease_expires_at = NULL,
                updated_by = \(caller.userID), updated_at = \(now)
            WHERE id = \(item.id)
            """, logger: logger)
        try await connection.query("UPDATE subtasks SET done = false WHERE task_id = \(item.id) AND done", logger: logger)
        if let assignee, assignee != item.assigneeID {
            var moved = item
            moved.deadline = next
            try await Self.notifyAssignee(assignee, of: moved, by: caller.userID, at: now, on: connection, logger: logger)
        }
        return TaskWrite(taskID: item.id, householdID: item.householdID, change: done ? .completed : .updated,
                         version: try await Self.version(of: item.id, on: connection, logger: logger))
    }

    /// The member whose turn follows `current`'s in `rotation`, passing over those away at `time`
    /// (when everyone is away, the next one in order all the same).
    func nextTurn(in rotation: [UUID], after current: UUID?, at time: Date, householdID: UUID,
                  on connection: PostgresConnection) async throws -> UUID? {
        let rows = try await connection.query("""
            SELECT user_id FROM household_members WHERE household_id = \(householdID) AND user_id = ANY(\(rotation)) AND away_until > \(time)
            """, logger: logger)
        var away: Set<UUID> = []
        for try await member in rows.decode(UUID.self) { away.insert(member) }
        let start = current.flatMap { rotation.firstIndex(of: $0) } ?? -1
        let order = (1...rotation.count).map { rotation[(start + $0) % rotation.count] }
        return order.first { !away.contains($0) } ?? order.first
    }

    /// Brings a repeating task back to its last completed occurrence (the completion is undone:
    /// its deadline, its reminder, whose turn it was); a task with no completion is unchanged.
    func reopenOccurrence(_ locked: LockedItem, _ caller: Caller, expectedVersion: Int?,
                          on connection: PostgresConnection) async throws -> TaskWrite {
        let item = locked.item
        let unchanged = TaskWrite(taskID: item.id, householdID: item.householdID, change: nil, version: item.version)
        guard let position = item.position else { return unchanged }
        let rows = try await connection.query("""
            DELETE FROM task_completions WHERE (task_id, occurrence) = (
                SELECT task_id, occurrence FROM task_completions WHERE task_id = \(item.id) ORDER BY completed_at DESC, occurrence DESC LIMIT 1)
            RETURNING occurrence, assignee_id
            """, logger: logger)
        guard let (occurrence, assignee) = try await rows.firstColumns(("occurrence", Date.self), ("assignee_id", UUID?.self)) else {
            return unchanged
        }
        try locked.versions.refuseStale("Task", expected: expectedVersion, fields: [("completed", "completed_at")])
        let now = clock.now
        let shift = occurrence.timeIntervalSince(item.deadline ?? position.occurrence)
        let remindAt = item.remindAt?.addingTimeInterval(shift)
        let due = Self.armedReminder(at: remindAt ?? occurrence, now: now)
        let passed = try await connection.query("""
            SELECT count(*) FROM task_completions WHERE task_id = \(item.id) AND occurrence < \(occurrence)
            """, logger: logger)
        var stillPassed = max(0, position.passed - 1)
        for try await count in passed.decode(Int.self) where item.repetition?.from == .completion { stillPassed = count }
        try await connection.query("""
            UPDATE task_items SET completed_at = NULL, completed_by = NULL, deadline = \(occurrence), remind_at = \(remindAt),
                occurrence = \(occurrence), occurrences_passed = \(stillPassed),
                assignee_id = CASE WHEN rotation IS NULL THEN assignee_id ELSE \(assignee) END,
                reminder_due_at = \(due), reminder_lease_owner = NULL, reminder_lease_expires_at = NULL,
                updated_by = \(caller.userID), updated_at = \(now)
            WHERE id = \(item.id)
            """, logger: logger)
        return TaskWrite(taskID: item.id, householdID: item.householdID, change: .reopened,
                         version: try await Self.version(of: item.id, on: connection, logger: logger))
    }

    /// Moves a repeating task on to its next occurrence without recording a completion (`named`:
    /// the occurrence skipped, so a re-sent skip does not skip two).
    public func skipOccurrence(_ caller: Caller, id: UUID, occurrence: Date? = nil, expectedVersion: Int? = nil) async throws -> TaskItem {
        return try await committed(try await database.transaction(logger: logger) { connection in
            try await self.skipOccurrence(caller, id: id, occurrence: occurrence, expectedVersion: expectedVersion, on: connection)
        }, caller)
    }

    func skipOccurrence(_ caller: Caller, id: UUID, occurrence: Date?, expectedVersion: Int?,
                        on connection: PostgresConnection) async throws -> TaskWrite {
        let locked = try await lockedItem(caller, id, on: connection)
        try caller.authorize("complete", locked.item.subject)
        guard locked.item.repetition != nil else {
            throw ServiceError.invalidInput(field: "id", message: "Only a repeating task has occurrences to skip; complete or delete this one.")
        }
        return try await passOccurrence(locked, caller, named: occurrence, done: false, expectedVersion: expectedVersion, on: connection)
    }

    // MARK: Reading completions

    /// A task's completions, newest first, a page at a time.
    public func completions(_ caller: Caller, taskID: UUID, page: PageRequest) async throws -> Page<TaskCompletion> {
        let item = try await readableItem(caller, taskID)
        let after = try page.afterKeyset()
        let rows = try await database.client.query("""
            SELECT task_id, occurrence, completed_at, completed_by, assignee_id, \(unescaped: Cursor.microsecondsSQL("completed_at")) AS micros
            FROM task_completions
            WHERE task_id = \(item.id) AND \(SQLCondition.keyset(after: after, time: "completed_at", id: "task_id", descending: true))
            ORDER BY completed_at DESC, occurrence DESC LIMIT \(page.rowLimit)
            """, logger: logger).rows(as: CompletionRow.self)
        let total = try await database.count("SELECT count(*) FROM task_completions WHERE task_id = \(item.id)", wanted: page.countsTotal)
        return Page(rows: rows, request: page, totalCount: total, cursor: { Cursor.make(microseconds: $0.micros, id: $0.completion.taskID) },
                    item: \.completion)
    }

    /// The newest completion of each of several tasks (one statement for all of them).
    public func lastCompletions(ofItems ids: [UUID]) async throws -> [UUID: TaskCompletion] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await database.client.query("""
            SELECT DISTINCT ON (task_id) task_id, occurrence, completed_at, completed_by, assignee_id, 0::int8 AS micros
            FROM task_completions WHERE task_id = ANY(\(ids)) ORDER BY task_id, completed_at DESC, occurrence DESC
            """, logger: logger).rows(as: CompletionRow.self)
        return Dictionary(rows.map { ($0.completion.taskID, $0.completion) }, uniquingKeysWith: { first, _ in first })
    }

    /// The next dates of each repeating item, at most `first` (1–10): a task's after the occurrence
    /// it stands at (on its schedule; one repeating from completion has none known until it is
    /// done), an event's from now. A client shows "next: …" from them, offline too.
    public func upcoming(ofItems items: [TaskItem], first: Int) async throws -> [UUID: [Date]] {
        guard (1...10).contains(first) else { throw ServiceError.invalidInput(field: "first", message: "first must be from 1 to 10, not \(first).") }
        let repeating = items.filter { $0.repetition != nil }
        guard !repeating.isEmpty else { return [:] }
        let households = Array(Set(repeating.map(\.householdID)))
        var zones: [UUID: TimeZone] = [:]
        for (id, zone) in try await database.client.query("SELECT id, time_zone FROM households WHERE id = ANY(\(households))", logger: logger)
            .columns(("id", UUID.self), ("time_zone", String.self)) {
            zones[id] = TimeZone(identifier: zone) ?? .gmt
        }
        let now = clock.now
        var upcoming: [UUID: [Date]] = [:]
        for item in repeating {
            guard let repetition = item.repetition, let position = item.position, let rule = repetition.recurrenceRule else { continue }
            if item.kind == .task, repetition.from == .completion || item.isCompleted { upcoming[item.id] = []; continue }
            let after = item.kind == .task ? position.occurrence.addingTimeInterval(1) : now
            // An event's changed occurrences come at their own starts.
            let dates = rule.occurrences(start: position.start, in: zones[item.householdID] ?? .gmt, from: after,
                                         limit: first + repetition.exceptions.count + repetition.overrides.count)
                .filter { !repetition.isException($0) }.map { repetition.override(of: $0)?.startsAt ?? $0 }.filter { $0 >= after }
            upcoming[item.id] = Array((dates + repetition.overrides.map(\.startsAt).filter { $0 >= after && !dates.contains($0) })
                .sorted().prefix(first))
        }
        return upcoming
    }

    /// Who did what in `from..<to`: completions per member and per task (for fairness).
    public func choreStats(_ caller: Caller, householdID: UUID, from: Date, to: Date) async throws -> ChoreStats {
        _ = try await households.readableHousehold(caller, householdID)
        guard to > from else { throw ServiceError.invalidInput(field: "to", message: "to must be after from.") }
        guard caller.ability.can("read", .ofHousehold("Task", householdID)) else {
            return ChoreStats(from: from, to: to, byMember: [], byTask: [])
        }
        let rows = try await database.client.query("""
            SELECT c.task_id, t.title, c.completed_by, count(*)::int8 AS completions
            FROM task_completions c JOIN task_items t ON t.id = c.task_id
            WHERE c.household_id = \(householdID) AND c.completed_at >= \(from) AND c.completed_at < \(to)
            GROUP BY c.task_id, t.title, c.completed_by
            """, logger: logger)
        var byTask: [UUID: ChoreStats.TaskCount] = [:]
        var byMember: [UUID?: Int] = [:]
        for (task, title, person, count) in try await rows.columns(
            ("task_id", UUID.self), ("title", String.self), ("completed_by", UUID?.self), ("completions", Int.self)) {
            byTask[task, default: ChoreStats.TaskCount(taskID: task, title: title, completions: 0, byMember: [])].completions += count
            byTask[task]?.byMember.append(ChoreStats.Count(userID: person, completions: count))
            byMember[person, default: 0] += count
        }
        func ordered(_ counts: [ChoreStats.Count]) -> [ChoreStats.Count] {
            counts.sorted { ($0.completions, $1.userID?.uuidString ?? "") > ($1.completions, $0.userID?.uuidString ?? "") }
        }
        return ChoreStats(
            from: from, to: to, byMember: ordered(byMember.map { ChoreStats.Count(userID: $0.key, completions: $0.value) }),
            byTask: byTask.values.map { var task = $0; task.byMember = ordered(task.byMember); return task }
                .sorted { ($0.completions, $1.title) > ($1.completions, $0.title) })
    }
}

/// A row of a task's completions, with its keyset time.
struct CompletionRow: TypedRow {
    let completion: TaskCompletion
    let micros: Int64

    init(_ row: inout RowCells) throws {
        completion = TaskCompletion(taskID: try row("task_id"), occurrence: try row("occurrence"), completedAt: try row("completed_at"),
                                    completedBy: try row("completed_by"), assigneeID: try row("assignee_id"))
        micros = try row("micros")
    }
}
