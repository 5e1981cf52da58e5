import Foundation
import HearthCore
import HearthTestSupport
import PostgresNIO
import Testing

/// Repeating tasks against a real PostgreSQL: completing moves a task to its next occurrence
/// (once, however many devices complete it), subtasks reset, reminders move, COUNT and UNTIL end a
/// series, repeating from completion, skipping and reopening, and turns that rotate past members
/// who are away or gone.
@Suite struct RepeatingTaskTests {
    typealias Fixture = TaskServiceTests.Fixture

    /// Sunday 2026-11-29 10:00 UTC (11:00 in Berlin).
    static let sunday = Date(timeIntervalSince1970: 1_796_032_800)
    static let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt

    /// A wall time in Berlin.
    static func local(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0, zone: TimeZone = berlin) -> Date {
        Date(localSeconds: Date.daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60, in: zone)
    }

    static func withFixture(now: Date = sunday, _ body: @escaping @Sendable (Fixture) async throws -> Void) async throws {
        try await TaskServiceTests.withFixture(timeZone: "Europe/Berlin", now: now, body)
    }

    @Test func completingMovesTheTaskToItsNextOccurrenceOnce() async throws {
        try await Self.withFixture { f in
            let owner = try await f.households.caller(for: f.owner)
            let tuesday = Self.local(2026, 12, 1, 7)
            let created = try await f.tasks.createItem(owner, householdID: f.household, draft: TaskDraft(
                title: "Bins", deadline: tuesday, remindAt: tuesday.addingTimeInterval(-3600), subtasks: ["Paper", "Glass"],
                repetition: Repetition(rule: "FREQ=WEEKLY;byday=TU")))
            #expect(created.repetition == Repetition(rule: "FREQ=WEEKLY;BYDAY=TU"), "the rule is kept in normal form")
            #expect(created.position == Repetition.Position(start: tuesday, occurrence: tuesday, passed: 0))
            _ = try await f.tasks.updateSubtask(owner, id: created.subtasks[0].id, title: nil, done: true)

            let done = try await f.tasks.completeItem(owner, id: created.id, occurrence: tuesday)
            let nextTuesday = Self.local(2026, 12, 8, 7)
            #expect(!done.isCompleted && done.completedAt == nil, "a repeating task is open again at its next occurrence")
            #expect(done.deadline == nextTuesday && done.occurrence == nextTuesday)
            #expect(done.remindAt == nextTuesday.addingTimeInterval(-3600) && done.reminderDueAt == done.remindAt, "the reminder moves with it")
            #expect(done.subtasks.map(\.done) == [false, false], "subtasks are unticked for the next time")
            #expect(done.position?.passed == 1)
            let last = try #require(try await f.tasks.lastCompletions(ofItems: [created.id])[created.id])
            #expect(last.occurrence == tuesday && last.completedBy == f.owner && last.completedAt == Self.sunday)

            // The same occurrence again (another phone, a re-sent request): nothing changes.
            let again = try await f.tasks.completeItem(owner, id: created.id, occurrence: tuesday)
            #expect(again.version == done.version && again.deadline == nextTuesday)
            #expect(try await f.count("SELECT count(*) FROM task_completions") == 1)
            // One the task has not reached is refused, naming the field.
            await #expect(throws: ServiceError.self) {
                try await f.tasks.completeItem(owner, id: created.id, occurrence: Self.local(2026, 12, 15, 7))
            }
            do {
                _ = try await f.tasks.completeItem(owner, id: created.id, occurrence: Self.local(2026, 12, 15, 7))
            } catch let error as ServiceError {
                #expect(error.kind == .badUserInput && error.field == "occurrence", "\(error.message)")
            }
        }
    }

    @Test func wallTimesStayAcrossDaylightSavingChanges() async throws {
        // Saturday 2026-10-24 in Berlin; the clocks go back on Sunday the 25th.
        try await Self.withFixture(now: Self.local(2026, 10, 24, 8)) { f in
            let owner = try await f.households.caller(for: f.owner)
            let task = try await f.tasks.createItem(owner, householdID: f.household, draft: TaskDraft(
                title: "Feed the cat", deadline: Self.local(2026, 10, 24, 7), repetition: Repetition(rule: "FREQ=DAILY")))
            let next = try await f.tasks.completeItem(owner, id: task.id)
            #expect(next.deadline == Self.local(2026, 10, 25, 7))
            #expect(next.deadline.map { Int($0.timeIntervalSince(task.deadline ?? .distantPast).rounded()) } == 25 * 3600,
                    "07:00 stays 07:00: the day has 25 hours")
        }
    }

    @Test func countAndUntilEndTheSeriesAndReopenBringsBackTheLastOccurrence() async throws {
        try await Self.withFixture { f in
            let owner = try await f.households.caller(for: f.owner)
            let first = Self.local(2026, 12, 1, 18)
            let task = try await f.tasks.createItem(owner, householdID: f.household, draft: TaskDraft(
                title: "Antibiotics", deadline: first, repetition: Repetition(rule: "FREQ=DAILY;COUNT=2")))
            let second = try await f.tasks.completeItem(owner, id: task.id)
            #expect(second.deadline == Self.local(2026, 12, 2, 18) && !second.isCompleted)
            let ended = try await f.tasks.completeItem(owner, id: task.id)
            #expect(ended.isCompleted && ended.deadline == Self.local(2026, 12, 2, 18), "after the last occurrence it stays completed, at it")
            #expect(ended.reminderDueAt == nil)
            let unchanged = try await f.tasks.completeItem(owner, id: task.id, occurrence: Self.local(2026, 12, 2, 18))
            #expect(unchanged.version == ended.version)

            let reopened = try await f.tasks.reopenItem(owner, id: task.id)
            #expect(!reopened.isCompleted && reopened.deadline == Self.local(2026, 12, 2, 18) && reopened.position?.passed == 1)
            let back = try await f.tasks.reopenItem(owner, id: task.id)
            #expect(back.deadline == first && back.position?.passed == 0, "reopening again brings back the one before")
            #expect(try await f.count("SELECT count(*) FROM task_completions") == 0)

            // UNTIL as a local date: the last occurrence is on that day.
            let weekly = try await f.tasks.createItem(owner, householdID: f.household, draft: TaskDraft(
                title: "Choir", deadline: first, repetition: Repetition(rule: "FREQ=WEEKLY;UNTIL=20261208")))
            #expect(weekly.repetition?.rule == "FREQ=WEEKLY;UNTIL=20261208T225959Z", "a local UNTIL is pinned to the household's zone")
            let eighth = try await f.tasks.completeItem(owner, id: weekly.id)
            #expect(eighth.deadline == Self.local(2026, 12, 8, 18) && !eighth.isCompleted)
            #expect(try await f.tasks.completeItem(owner, id: weekly.id).isCompleted)
        }
    }

    @Test func repeatingFromCompletionCountsFromWhenItWasDone() async throws {
        try await Self.withFixture { f in
            let owner = try await f.households.caller(for: f.owner)
            let task = try await f.tasks.createItem(owner, householdID: f.household, draft: TaskDraft(
                title: "Water the plants", deadline: Self.local(2026, 11, 30, 9),
                repetition: Repetition(rule: "FREQ=DAILY;INTERVAL=3", from: .completion)))
            // Done two days late, on Wednesday evening: next due three days after, at the deadline's 09:00.
            f.clock.advance(by: Self.local(2026, 12, 2, 20).timeIntervalSince(Self.sunday))
            let next = try await f.tasks.completeItem(owner, id: task.id)
            #expect(next.deadline == Self.local(2026, 12, 5, 9))

            // Without a deadline, the first one is the rule applied from now.
            let fresh = try await f.tasks.createItem(owner, householdID: f.household, draft: TaskDraft(
                title: "Descale the kettle", repetition: Repetition(rule: "FREQ=WEEKLY", from: .completion)))
            #expect(fresh.deadline == Self.local(2026, 12, 9, 20))

            // Done early, the next is still later than the one done; COUNT counts the occurrences passed.
            let twice = try await f.tasks.createItem(owner, householdID: f.household, draft: TaskDraft(
                title: "Twice", deadline: Self.local(2026, 12, 3, 9), repetition: Repetition(rule: "FREQ=DAILY;COUNT=2", from: .completion)))
            #expect(try await f.tasks.completeItem(owner, id: twice.id).deadline == Self.local(2026, 12, 4, 9))
            #expect(try await f.tasks.completeItem(owner, id: twice.id).isCompleted)
        }
    }

    @Test func skippingMovesOnWithoutACompletionOrAChangeOfTurn() async throws {
        try await Self.withFixture { f in
            let owner = try await f.households.caller(for: f.owner)
            let ben = try await f.person("ben", role: .member)
            let task = try await f.tasks.createItem(owner, householdID: f.household, draft: TaskDraft(
                title: "Bathroom", deadline: Self.local(2026, 12, 5, 10), repetition: Repetition(rule: "FREQ=WEEKLY"), rotation: [ben, f.owner]))
            #expect(task.assigneeID == ben, "the rotation's first member has the first turn")
            let skipped = try await f.tasks.skipOccurrence(owner, id: task.id, occurrence: Self.local(2026, 12, 5, 10))
            #expect(skipped.deadline == Self.local(2026, 12, 12, 10) && skipped.assigneeID == ben)
            let again = try await f.tasks.skipOccurrence(owner, id: task.id, occurrence: Self.local(2026, 12, 5, 10))
            #expect(again.version == skipped.version, "a re-sent skip does not skip two")
            #expect(try await f.count("SELECT count(*) FROM task_completions") == 0)
            let once = try await f.tasks.createItem(owner, householdID: f.household, draft: TaskDraft(title: "Once"))
            do {
                _ = try await f.tasks.skipOccurrence(owner, id: once.id)
                Issue.record("a task that happens once was skipped")
            } catch let error as ServiceError {
                #expect(error.kind == .badUserInput && error.field == "id")
            }
        }
    }

    @Test func turnsRotatePastMembersWhoAreAwayOrGone() async throws {
        try await Self.withFixture { f in
            let owner = try await f.households.caller(for: f.owner)
            let ann = try await f.person("ann", role: .member)
            let ben = try await f.person("ben", role: .member)
            let cal = try await f.person("cal", role: .member)
            let task = try await f.tasks.createItem(owner, householdID: f.household, draft: TaskDraft(
                title: "Bins", deadline: Self.local(2026, 12, 1, 7), assigneeID: ann, repetition: Repetition(rule: "FREQ=WEEKLY"),
                rotation: [ann, ben, cal]))
            #expect(task.rotation == [ann, ben, cal] && task.assigneeID == ann)
            // Ben is away over the next occurrence (8 December), back before the one after.
            let away = try await f.households.setAway(try await f.households.caller(for: ben), householdID: f.household, userID: nil,
                                                      until: Self.local(2026, 12, 10, 0))
            #expect(away.awayUntil == Self.local(2026, 12, 10, 0))
            let annDone = try await f.tasks.completeItem(try await f.households.caller(for: ann), id: task.id)
            #expect(annDone.assigneeID == cal, "Ben is away on the 8th: Cal's turn")
            let calDone = try await f.tasks.completeItem(try await f.households.caller(for: cal), id: task.id)
            #expect(calDone.assigneeID == ann, "after Cal comes Ann again")
            let annAgain = try await f.tasks.completeItem(try await f.households.caller(for: ann), id: task.id)
            #expect(annAgain.assigneeID == ben, "Ben is back by the 22nd")
            let whose = try await f.tasks.completions(owner, taskID: task.id, page: try PageRequest(first: 10, after: nil))
            #expect(whose.items.map(\.item.assigneeID) == [ann, cal, ann] && whose.items.map(\.item.completedBy) == [ann, cal, ann])

            // A member may not mark another away; an owner may.
            await #expect(throws: ServiceError.self) {
                try await f.households.setAway(try await f.households.caller(for: ann), householdID: f.household, userID: cal, until: Self.sunday)
            }
            _ = try await f.households.setAway(owner, householdID: f.household, userID: cal, until: nil)

            // Ben leaves while it is his turn: the turn passes to Cal, and he is out of the rotation.
            try await f.households.removeMember(owner, householdID: f.household, userID: ben)
            let after = try await f.tasks.item(owner, id: task.id)
            #expect(after.rotation == [ann, cal] && after.assigneeID == cal)

            let stats = try await f.tasks.choreStats(owner, householdID: f.household, from: Self.sunday, to: Self.local(2027, 1, 1, 0))
            #expect(stats.byMember == [ChoreStats.Count(userID: ann, completions: 2), ChoreStats.Count(userID: cal, completions: 1)])
            #expect(stats.byTask.map(\.completions) == [3] && stats.byTask.first?.title == "Bins")
        }
    }

    @Test func concurrentCompletionsOfOneOccurrenceOnTwoInstancesAdvanceOnce() async throws {
        try await Self.withFixture { f in
            let owner = try await f.households.caller(for: f.owner)
            let task = try await f.tasks.createItem(owner, householdID: f.household, draft: TaskDraft(
                title: "Bins", deadline: Self.local(2026, 12, 1, 7), repetition: Repetition(rule: "FREQ=WEEKLY")))
            // A second instance: its own services over the same database.
            let other = HearthServices(database: f.database, configuration: .init(users: UsersConfiguration(bcryptCost: 4), clock: f.clock))
            let occurrence = Self.local(2026, 12, 1, 7)
            let answers = try await withThrowingTaskGroup(of: TaskItem.self) { group in
                for index in 0..<8 {
                    let service = index.isMultiple(of: 2) ? f.tasks : other.tasks
                    let households = index.isMultiple(of: 2) ? f.households : other.households
                    group.addTask { try await service.completeItem(try await households.caller(for: f.owner), id: task.id, occurrence: occurrence) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0.deadline == Self.local(2026, 12, 8, 7) }, "every answer is the task at its next occurrence")
            #expect(try await f.count("SELECT count(*) FROM task_completions") == 1)
            #expect(try await f.tasks.item(owner, id: task.id).position?.passed == 1)
        }
    }

    @Test func aDuplicatedOfflineCompletionFromTwoDevicesIsADuplicate() async throws {
        try await Self.withFixture { f in
            let owner = try await f.households.caller(for: f.owner)
            let services = HearthServices(database: f.database, configuration: .init(users: UsersConfiguration(bcryptCost: 4), clock: f.clock))
            let task = try await f.tasks.createItem(owner, householdID: f.household, draft: TaskDraft(
                title: "Bins", deadline: Self.local(2026, 12, 1, 7), repetition: Repetition(rule: "FREQ=WEEKLY")))
            let op = ClientOp.completeTask(id: task.id, expectedVersion: nil, occurrence: Self.local(2026, 12, 1, 7))
            let first = try await services.sync.push(owner, clientID: UUID(), mutations: [ClientMutation(id: 1, op: op)])
            let second = try await services.sync.push(owner, clientID: UUID(), mutations: [ClientMutation(id: 1, op: op)])
            #expect(first.results.map(\.status) == [.applied] && second.results.map(\.status) == [.duplicate])
            #expect(try await f.tasks.item(owner, id: task.id).deadline == Self.local(2026, 12, 8, 7))
        }
    }

    @Test func repeatAndRotationInputIsCheckedAndNamesTheField() async throws {
        try await Self.withFixture { f in
            let owner = try await f.households.caller(for: f.owner)
            let ann = try await f.person("ann", role: .member)
            let deadline = Self.local(2026, 12, 1, 7)
            let cases: [(TaskDraft, String)] = [
                (TaskDraft(title: "Hourly", deadline: deadline, repetition: Repetition(rule: "FREQ=HOURLY")), "repeat.rule"),
                (TaskDraft(title: "Count 0", deadline: deadline, repetition: Repetition(rule: "FREQ=DAILY;COUNT=0")), "repeat.rule"),
                (TaskDraft(title: "No date", repetition: Repetition(rule: "FREQ=DAILY")), "deadline"),
                (TaskDraft(kind: .event, title: "Party", repetition: Repetition(rule: "FREQ=YEARLY", from: .completion)), "repeat.from"),
                (TaskDraft(title: "Many", deadline: deadline, repetition: Repetition(rule: "FREQ=DAILY", exceptions: (0..<501).map {
                    deadline.addingTimeInterval(Double($0) * 86_400)
                })), "repeat.exceptions"),
                (TaskDraft(title: "Stranger", rotation: [ann, UUID()]), "rotation"),
                (TaskDraft(title: "Twice", rotation: [ann, ann]), "rotation"),
                (TaskDraft(title: "Outside", assigneeID: f.owner, rotation: [ann]), "assigneeId"),
            ]
            for (draft, field) in cases {
                do {
                    _ = try await f.tasks.createItem(owner, householdID: f.household, draft: draft)
                    Issue.record("\(field): accepted")
                } catch let error as ServiceError {
                    #expect(error.kind == .badUserInput && error.field == field, "\(field): \(error.message)")
                }
            }
            #expect(try await f.count("SELECT count(*) FROM task_items") == 0)

            // Updates: a repetition set later starts its series at the deadline; null stops it.
            let task = try await f.tasks.createItem(owner, householdID: f.household, draft: TaskDraft(title: "Rent", deadline: deadline))
            let repeating = try await f.tasks.updateItem(owner, id: task.id, patch: TaskPatch(repetition: .some(Repetition(rule: "FREQ=MONTHLY"))))
            #expect(repeating.position == Repetition.Position(start: deadline, occurrence: deadline, passed: 0))
            do {
                _ = try await f.tasks.updateItem(owner, id: task.id, patch: TaskPatch(deadline: .some(nil)))
                Issue.record("a repeating task lost its deadline")
            } catch let error as ServiceError {
                #expect(error.field == "deadline")
            }
            let once = try await f.tasks.updateItem(owner, id: task.id, patch: TaskPatch(repetition: .some(nil)))
            #expect(once.repetition == nil && once.position == nil)
            let rotating = try await f.tasks.updateItem(owner, id: task.id, patch: TaskPatch(rotation: .some([ann, f.owner])))
            #expect(rotating.rotation == [ann, f.owner] && rotating.assigneeID == ann)
        }
    }

    @Test func aRepeatingEventRemindsOfEachOccurrenceWithoutAStormAfterDowntime() async throws {
        try await Self.withFixture { f in
            let owner = try await f.households.caller(for: f.owner)
            // Every evening at 18:00 in Berlin from Monday, reminded half an hour before.
            let monday = Self.local(2026, 11, 30, 18)
            let event = try await f.tasks.createItem(owner, householdID: f.household, draft: TaskDraft(
                kind: .event, title: "Medicine", startsAt: monday, remindAt: monday.addingTimeInterval(-1800),
                repetition: Repetition(rule: "FREQ=DAILY")))
            #expect(event.reminderDueAt == Self.local(2026, 11, 30, 17, 30))
            f.clock.advance(by: Self.local(2026, 11, 30, 17, 31).timeIntervalSince(f.clock.now))
            #expect(try await f.tasks.deliverDueReminders().map(\.dueAt) == [Self.local(2026, 11, 30, 17, 30)])
            #expect(try await f.tasks.item(owner, id: event.id).reminderDueAt == Self.local(2026, 12, 1, 17, 30), "the next evening's is armed")
            // Down for three days: one reminder (the latest missed), then the next one still ahead.
            f.clock.advance(by: Self.local(2026, 12, 4, 12).timeIntervalSince(f.clock.now))
            #expect(try await f.tasks.deliverDueReminders().count == 1)
            #expect(try await f.tasks.deliverDueReminders().isEmpty)
            #expect(try await f.tasks.item(owner, id: event.id).reminderDueAt == Self.local(2026, 12, 4, 17, 30))

            // A series that started long ago is reminded of its next occurrence, not of none.
            let old = try await f.tasks.createItem(owner, householdID: f.household, draft: TaskDraft(
                kind: .event, title: "Yoga", startsAt: Self.local(2025, 1, 6, 19), repetition: Repetition(rule: "FREQ=WEEKLY;BYDAY=MO")))
            #expect(old.reminderDueAt == Self.local(2026, 12, 7, 19))
        }
    }

    @Test func exportsCarryTheRuleTheSeriesPlaceAndTheRotation() async throws {
        try await Self.withFixture { f in
            let owner = try await f.households.caller(for: f.owner)
            let ann = try await f.person("ann", role: .member)
            let task = try await f.tasks.createItem(owner, householdID: f.household, draft: TaskDraft(
                title: "Bins", deadline: Self.local(2026, 12, 1, 7),
                repetition: Repetition(rule: "FREQ=WEEKLY", exceptions: [Self.local(2026, 12, 15, 7)]), rotation: [f.owner, ann]))
            _ = try await f.tasks.completeItem(owner, id: task.id)
            let services = HearthServices(database: f.database, configuration: .init(users: UsersConfiguration(bcryptCost: 4), clock: f.clock))
            let document = try await services.transfers.export(owner, householdID: f.household)
            let item = try #require(document.items.first)
            #expect(item.repeat == HouseholdExport.Repeat(rule: "FREQ=WEEKLY", from: .schedule, exceptions: [Self.local(2026, 12, 15, 7)],
                                                          start: Self.local(2026, 12, 1, 7), occurrence: Self.local(2026, 12, 8, 7), passed: 1))
            #expect(item.rotation == ["olive@example.org", "ann@example.org"])

            let imported = try await services.transfers.importHousehold(owner, document)
            #expect(imported.dropped.contains { $0.field == "rotation" && $0.email == "ann@example.org" })
            // Read through the services that imported it (their caches know the new household).
            let importer = try await services.households.caller(for: f.owner)
            let copy = try #require(try await services.tasks.items(importer, householdID: imported.household.id, query: try TaskQuery(),
                                                               page: try PageRequest(first: 10, after: nil)).items.first?.item)
            #expect(copy.repetition == task.repetition && copy.position?.occurrence == Self.local(2026, 12, 8, 7) && copy.rotation == [f.owner])
            // It goes on from where it stood: the 15th is an exception.
            #expect(try await services.tasks.completeItem(importer, id: copy.id).deadline == Self.local(2026, 12, 22, 7))
        }
    }

    @Test func oneOccurrenceOfAnEventIsMovedRenamedOrCancelled() async throws {
        try await Self.withFixture { f in
            let owner = try await f.households.caller(for: f.owner)
            // Choir every Wednesday at 19:00 for two hours, reminded an hour before.
            let first = Self.local(2026, 12, 2, 19)
            let choir = try await f.tasks.createItem(owner, householdID: f.household, draft: TaskDraft(
                kind: .event, title: "Choir", startsAt: first, endsAt: first.addingTimeInterval(7200), location: "Church hall",
                remindAt: first.addingTimeInterval(-3600), repetition: Repetition(rule: "FREQ=WEEKLY")))
            // The 9th moves to Thursday 20:00 in the school; the 16th is off.
            let ninth = Self.local(2026, 12, 9, 19)
            let moved = try await f.tasks.updateEventOccurrence(owner, id: choir.id, occurrence: ninth, change: OccurrenceChange(
                startsAt: Self.local(2026, 12, 10, 20), title: "Choir (concert)", location: "School"))
            #expect(moved.id == choir.id && moved.occurrence == ninth && moved.title == "Choir (concert)" && moved.location == "School")
            #expect(moved.startsAt == Self.local(2026, 12, 10, 20) && moved.endsAt == Self.local(2026, 12, 10, 22), "it keeps its length")
            let sixteenth = Self.local(2026, 12, 16, 19)
            let series = try await f.tasks.cancelEventOccurrence(owner, id: choir.id, occurrence: sixteenth)
            #expect(series.repetition?.exceptions == [sixteenth] && series.repetition?.overrides.count == 1)
            #expect(try await f.tasks.cancelEventOccurrence(owner, id: choir.id, occurrence: sixteenth).version == series.version,
                    "cancelling it again changes nothing")

            let agenda = try await f.tasks.agenda(owner, householdID: f.household, from: Self.local(2026, 12, 1, 0), to: Self.local(2026, 12, 24, 0))
            #expect(agenda.map(\.startsAt) == [first, Self.local(2026, 12, 10, 20), Self.local(2026, 12, 23, 19)])
            #expect(agenda.map(\.occurrence) == [first, ninth, Self.local(2026, 12, 23, 19)])
            #expect(agenda.map(\.title) == ["Choir", "Choir (concert)", "Choir"] && agenda.map(\.location) == ["Church hall", "School", "Church hall"])
            // Listed on the day it moved to, not the day it left.
            #expect(try await f.tasks.occursOn(owner, householdID: f.household, date: "2026-12-09").isEmpty)
            #expect(try await f.tasks.occursOn(owner, householdID: f.household, date: "2026-12-10").map(\.title) == ["Choir (concert)"])
            // A window holding only its new date finds it.
            #expect(try await f.tasks.agenda(owner, householdID: f.household, from: Self.local(2026, 12, 10, 0), to: Self.local(2026, 12, 11, 0))
                .map(\.occurrence) == [ninth])

            // Its reminder comes an hour before its own start.
            f.clock.advance(by: Self.local(2026, 12, 3, 12).timeIntervalSince(f.clock.now))
            let now = try await f.tasks.updateEventOccurrence(owner, id: choir.id, occurrence: ninth, change: OccurrenceChange(notes: "Bring the score"))
            #expect(now.title == "Choir (concert)" && now.notes == "Bring the score", "a second change keeps the first")
            #expect(try await f.tasks.item(owner, id: choir.id).reminderDueAt == Self.local(2026, 12, 10, 19))

            // Changed back to what the series says, it is an override no more.
            let back = try await f.tasks.updateEventOccurrence(owner, id: choir.id, occurrence: ninth, change: OccurrenceChange(
                startsAt: ninth, title: .some(nil), notes: .some(nil), location: .some(nil)))
            #expect(back.startsAt == ninth && back.title == "Choir")
            #expect(try await f.tasks.item(owner, id: choir.id).repetition?.overrides == [])

            // Not an occurrence, or not a repeating event: refused, naming the field.
            for (id, date, field) in [(choir.id, Self.local(2026, 12, 9, 18), "occurrence"), (choir.id, sixteenth, "occurrence")] {
                do {
                    _ = try await f.tasks.updateEventOccurrence(owner, id: id, occurrence: date, change: OccurrenceChange(title: "X"))
                    Issue.record("changing \(date) was not refused")
                } catch let error as ServiceError {
                    #expect(error.kind == .badUserInput && error.field == field, "\(error.message)")
                }
            }
            let once = try await f.tasks.createItem(owner, householdID: f.household, draft: TaskDraft(kind: .event, title: "Once", startsAt: first))
            await #expect(throws: ServiceError.self) {
                try await f.tasks.cancelEventOccurrence(owner, id: once.id, occurrence: first)
            }

            // A new rule leaves behind changes of dates that are no longer occurrences.
            _ = try await f.tasks.updateEventOccurrence(owner, id: choir.id, occurrence: Self.local(2026, 12, 30, 19), change: OccurrenceChange(title: "Last choir"))
            _ = try await f.tasks.updateEventOccurrence(owner, id: choir.id, occurrence: Self.local(2027, 1, 6, 19), change: OccurrenceChange(title: "New year choir"))
            let fortnightly = try await f.tasks.updateItem(owner, id: choir.id, patch: TaskPatch(repetition: .some(Repetition(rule: "FREQ=WEEKLY;INTERVAL=2"))))
            #expect(fortnightly.repetition?.overrides.map(\.title) == ["Last choir"], "the 30th is still an occurrence, the 6th is not")

            // Exported and imported, the changes come along.
            let services = HearthServices(database: f.database, configuration: .init(users: UsersConfiguration(bcryptCost: 4), clock: f.clock))
            let document = try await services.transfers.export(owner, householdID: f.household)
            let exported = try #require(document.items.first { $0.title == "Choir" })
            #expect(exported.repeat?.overrides?.map(\.title) == ["Last choir"])
            let imported = try await services.transfers.importHousehold(owner, document)
            let importer = try await services.households.caller(for: f.owner)
            let copy = try await services.tasks.agenda(importer, householdID: imported.household.id, from: Self.local(2026, 12, 30, 0),
                                                       to: Self.local(2026, 12, 31, 0))
            #expect(copy.map(\.title) == ["Last choir"])
        }
    }
}
