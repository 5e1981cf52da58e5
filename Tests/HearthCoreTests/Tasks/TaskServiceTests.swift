import Foundation
import HearthCore
import HearthTestSupport
import PostgresNIO
import Testing

/// The tasks service against a real PostgreSQL: creating tasks and events (defaults, time
/// zones, limits), idempotent creates, labels, and who may do what.
@Suite struct TaskServiceTests {
    struct Fixture: Sendable {
        let database: Database
        let clock: ManualClock
        let users: UserService
        let households: HouseholdService
        let tasks: TaskService
        let owner: UUID
        let household: UUID

        func person(_ name: String, role: HouseholdRole?) async throws -> UUID {
            let id = try await users.signUp(email: "\(name)@example.org", password: "correct horse", displayName: name, deviceName: nil).user.id
            if let role { _ = try await households.addMember(try await households.caller(for: owner), householdID: household, userID: id, role: role) }
            return id
        }

        func count(_ query: PostgresQuery) async throws -> Int {
            let rows = try await database.client.query(query, logger: database.logger)
            for try await value in rows.decode(Int.self) { return value }
            return 0
        }
    }

    /// 2026-03-29 12:00 UTC: the day Europe/Berlin moves from UTC+1 to UTC+2 (at 01:00 UTC).
    static let springForward = Date(timeIntervalSince1970: 1_774_785_600)

    static func withFixture(timeZone: String = "Europe/Berlin", now: Date = springForward,
                            _ body: @escaping @Sendable (Fixture) async throws -> Void) async throws {
        try await withTestDatabase { database, _ in
            let clock = ManualClock(now)
            let services = HearthServices(database: database, configuration: .init(users: UsersConfiguration(bcryptCost: 4), clock: clock))
            let (users, households, tasks) = (services.users, services.households, services.tasks)
            let owner = try await users.signUp(email: "olive@example.org", password: "correct horse", displayName: "Olive", deviceName: nil).user.id
            let household = try await households.createHousehold(try await households.caller(for: owner), name: "Home", description: nil, timeZone: timeZone).id
            try await body(Fixture(database: database, clock: clock, users: users, households: households, tasks: tasks, owner: owner,
                                   household: household))
        }
    }

    /// 00:30 UTC on the day clocks spring forward in Berlin: 01:30 local, before nine (and before the switch).
    static let springForwardNight = Date(timeIntervalSince1970: 1_774_744_200)

    @Test func anEventWithoutTimesStartsAtNineLocalAndLastsAnHour() async throws {
        try await Self.withFixture(now: Self.springForwardNight) { f in
            let event = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household,
                                                     draft: TaskDraft(kind: .event, title: "  Dentist  ", location: " Main St 1 "))
            #expect(event.title == "Dentist" && event.location == "Main St 1")
            // 09:00 in Berlin on the switch day is already summer time: 07:00 UTC.
            #expect(event.startsAt == Date(timeIntervalSince1970: 1_774_767_600))
            #expect(event.endsAt == event.startsAt?.addingTimeInterval(3600))
            #expect(event.occursAt == event.startsAt && event.reminderDueAt == event.startsAt)

            let start = Date(timeIntervalSince1970: 1_774_800_000)
            let given = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household,
                                                     draft: TaskDraft(kind: .event, title: "Dinner", startsAt: start))
            #expect(given.startsAt == start && given.endsAt == start.addingTimeInterval(3600))

            let endOnly = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household,
                                                       draft: TaskDraft(kind: .event, title: "Until noon", endsAt: Date(timeIntervalSince1970: 1_774_778_400)))
            #expect(endOnly.startsAt == Date(timeIntervalSince1970: 1_774_767_600), "a missing start is 09:00 even when the end is given")

            await #expect(throws: ServiceError.invalidInput(field: "endsAt", message: "endsAt must not be before startsAt.")) {
                try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household,
                                             draft: TaskDraft(kind: .event, title: "Backwards", startsAt: start, endsAt: start.addingTimeInterval(-60)))
            }
            // Before 09:00 local only an end is given: 08:00 Berlin (06:00 UTC) is before the default start.
            await #expect(throws: ServiceError.invalidInput(field: "endsAt", message: "endsAt must not be before startsAt.")) {
                try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household,
                                             draft: TaskDraft(kind: .event, title: "Too early", endsAt: Date(timeIntervalSince1970: 1_774_764_000)))
            }
            #expect(try await f.count("SELECT count(*) FROM task_items") == 3, "refused creates write nothing")

            // Made after nine (14:00 local), an untimed event starts at 09:00 the next day, never in the past.
            f.clock.advance(by: Self.springForward.timeIntervalSince(Self.springForwardNight))
            let afternoon = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household, draft: TaskDraft(kind: .event, title: "Bins"))
            #expect(afternoon.startsAt == Date(timeIntervalSince1970: 1_774_767_600 + 86_400))
            #expect(afternoon.reminderDueAt == afternoon.startsAt)
        }
    }

    @Test func nineOClockFollowsTheHouseholdsZoneAndDay() throws {
        // 23:30 UTC on 2026-10-24 is already 25 October in Tokyo, still 24 October in New York.
        let late = Date(timeIntervalSince1970: 1_792_884_600)
        let tokyo = EventSchedule.nineOClock(on: late, in: try #require(TimeZone(identifier: "Asia/Tokyo")))
        let newYork = EventSchedule.nineOClock(on: late, in: try #require(TimeZone(identifier: "America/New_York")))
        #expect(tokyo == Date(timeIntervalSince1970: 1_792_886_400))    // 2026-10-25 00:00 UTC = 09:00 JST
        #expect(newYork == Date(timeIntervalSince1970: 1_792_846_800))  // 2026-10-24 13:00 UTC = 09:00 EDT
    }

    @Test func inputIsCheckedAndNamesTheField() async throws {
        try await Self.withFixture { f in
            let cases: [(TaskDraft, String)] = [
                (TaskDraft(title: "   "), "title"),
                (TaskDraft(title: String(repeating: "x", count: 201)), "title"),
                (TaskDraft(title: "Bell\u{7}"), "title"),
                (TaskDraft(title: "Notes", notes: String(repeating: "n", count: 10_001)), "notes"),
                (TaskDraft(title: "Estimate", estimateMinutes: 0), "estimateMinutes"),
                (TaskDraft(kind: .task, title: "Task with a start", startsAt: Date()), "startsAt"),
                (TaskDraft(title: "Labels", labelNames: (0..<21).map { "l\($0)" }), "labels"),
                (TaskDraft(title: "Label", labelNames: [String(repeating: "l", count: 51)]), "labels"),
                (TaskDraft(title: "Subtasks", subtasks: ["ok", " "]), "subtasks"),
                (TaskDraft(title: "Stranger", assigneeID: UUID()), "assigneeId"),
                (TaskDraft(title: "Foreign label", labelIDs: [UUID()]), "labelIds"),
            ]
            for (draft, field) in cases {
                do {
                    _ = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household, draft: draft)
                    Issue.record("\(field): accepted")
                } catch let error as ServiceError {
                    guard error.kind == .badUserInput else { Issue.record("\(field): \(error)"); continue }
                    #expect(error.field == field, "\(error.message)")
                }
            }
            #expect(try await f.count("SELECT count(*) FROM task_items") == 0)
            #expect(try await f.count("SELECT count(*) FROM labels") == 0, "a refused create leaves no label behind")
        }
    }

    @Test func aRepeatedCreateReturnsTheFirstAndOtherContentConflicts() async throws {
        try await Self.withFixture { f in
            let id = UUID()
            let draft = TaskDraft(id: id, title: "Buy milk", priority: .high, deadline: Date(timeIntervalSince1970: 1_774_900_000),
                                  labelNames: ["Shopping", "errands"], subtasks: ["Oat", "Whole"])
            let first = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household, draft: draft)
            f.clock.advance(by: 3600)
            var reordered = draft
            reordered.labelNames = ["ERRANDS", "shopping"]
            let again = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household, draft: reordered)
            #expect(again == first, "label names compare case aside and in any order")
            #expect(try await f.count("SELECT count(*) FROM task_items") == 1)
            #expect(try await f.count("SELECT count(*) FROM subtasks") == 2)

            var changed = draft
            changed.title = "Buy bread"
            await #expect(throws: ServiceError.self) {
                try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household, draft: changed)
            }
            do {
                _ = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household, draft: changed)
            } catch let error as ServiceError {
                guard error.kind == .conflict else { Issue.record("\(error)"); return }
            }
            // The same id in another household is a clash too, not a way to read the item.
            let other = try await f.households.createHousehold(try await f.households.caller(for: f.owner), name: "Cabin", description: nil, timeZone: "UTC").id
            await #expect(throws: ServiceError.conflict("An item with id \(id.uuidString.lowercased()) exists with other content; use a new id for a new item.")) {
                try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: other, draft: draft)
            }
            #expect(first.subtasks.map(\.title) == ["Oat", "Whole"] && first.subtasks.map(\.position) == [0, 1])
            #expect(first.labels.map(\.name) == ["errands", "Shopping"])
            #expect(first.reminderDueAt == draft.deadline)
        }
    }

    @Test func labelsAreFoundCaseAsideOrCreatedAndColoursAreChecked() async throws {
        try await Self.withFixture { f in
            let home = try await f.tasks.createLabel(try await f.households.caller(for: f.owner), householdID: f.household, name: " Home ", color: "teal")
            #expect(home.name == "Home" && home.color == "#30B0C7")
            let hex = try await f.tasks.createLabel(try await f.households.caller(for: f.owner), householdID: f.household, name: "Garden", color: "#a1b2c3")
            #expect(hex.color == "#A1B2C3")
            await #expect(throws: ServiceError.conflict("The household has a label named \"HOME\" already (names are compared case aside).")) {
                try await f.tasks.createLabel(try await f.households.caller(for: f.owner), householdID: f.household, name: "HOME", color: "red")
            }
            for bad in ["#12345", "#GGGGGG", "magenta", "123456"] {
                await #expect(throws: ServiceError.self, "\(bad)") {
                    try await f.tasks.createLabel(try await f.households.caller(for: f.owner), householdID: f.household, name: "X \(bad)", color: bad)
                }
            }
            let item = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household,
                                                    draft: TaskDraft(title: "Mow", labelNames: ["garden", "New One", "new one"], labelIDs: [home.id]))
            #expect(Set(item.labels.map(\.id)).isSuperset(of: [home.id, hex.id]))
            #expect(item.labels.map(\.name) == ["Garden", "Home", "New One"])
            #expect(item.labels.first { $0.name == "New One" }?.color == "#8E8E93", "created gray")
            #expect(try await f.tasks.labels(try await f.households.caller(for: f.owner), householdID: f.household).map(\.name) == ["Garden", "Home", "New One"])
        }
    }

    @Test func viewersReadMembersCreateAndStrangersSeeNothing() async throws {
        try await Self.withFixture { f in
            let viewer = try await f.person("vic", role: .viewer)
            let member = try await f.person("mia", role: .member)
            let stranger = try await f.person("sam", role: nil)
            let item = try await f.tasks.createItem(try await f.households.caller(for: member), householdID: f.household, draft: TaskDraft(title: "Water plants", assigneeID: viewer))
            #expect(item.assigneeID == viewer && item.createdBy == member)
            #expect(try await f.tasks.item(try await f.households.caller(for: viewer), id: item.id).title == "Water plants")
            do {
                _ = try await f.tasks.createItem(try await f.households.caller(for: viewer), householdID: f.household, draft: TaskDraft(title: "Nope"))
                Issue.record("a viewer created an item")
            } catch let error as ServiceError {
                guard error.kind == .forbidden, error.details.denial != nil else { Issue.record("\(error)"); return }
            }
            await #expect(throws: ServiceError.notFound("Task")) { try await f.tasks.item(try await f.households.caller(for: stranger), id: item.id) }
            await #expect(throws: ServiceError.notFound("Household")) {
                try await f.tasks.createItem(try await f.households.caller(for: stranger), householdID: f.household, draft: TaskDraft(title: "Nope"))
            }
            #expect(try await f.tasks.labels(try await f.households.caller(for: viewer), householdID: f.household).isEmpty)
        }
    }
}

extension TaskServiceTests {
    @Test func partialUpdatesChangeOnlyWhatIsGivenAndNullsClear() async throws {
        try await Self.withFixture { f in
            let member = try await f.person("mia", role: .member)
            let deadline = Date(timeIntervalSince1970: 1_774_900_000)
            let item = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household, draft: TaskDraft(
                title: "Taxes", notes: "Receipts in the blue folder", priority: .medium, deadline: deadline, estimateMinutes: 90,
                assigneeID: member, labelNames: ["Paperwork"]))
            f.clock.advance(by: 60)
            let renamed = try await f.tasks.updateItem(try await f.households.caller(for: member), id: item.id, patch: TaskPatch(title: " Tax return "))
            #expect(renamed.title == "Tax return")
            #expect(renamed.notes == item.notes && renamed.priority == .medium && renamed.deadline == deadline && renamed.estimateMinutes == 90)
            #expect(renamed.assigneeID == member && renamed.labels.map(\.name) == ["Paperwork"])
            #expect(renamed.updatedBy == member && renamed.updatedAt > item.updatedAt)

            let cleared = try await f.tasks.updateItem(try await f.households.caller(for: member), id: item.id, patch: TaskPatch(
                notes: .some(nil), deadline: .some(nil), estimateMinutes: .some(nil), assigneeID: .some(nil), labelNames: []))
            #expect(cleared.notes == nil && cleared.deadline == nil && cleared.estimateMinutes == nil && cleared.assigneeID == nil)
            #expect(cleared.labels.isEmpty && cleared.title == "Tax return" && cleared.priority == .medium)
            #expect(cleared.reminderDueAt == nil, "no time, no reminder")

            let moved = try await f.tasks.updateItem(try await f.households.caller(for: member), id: item.id, patch: TaskPatch(deadline: .some(deadline.addingTimeInterval(86_400))))
            #expect(moved.reminderDueAt == deadline.addingTimeInterval(86_400), "a new deadline moves the reminder")

            await #expect(throws: ServiceError.invalidInput(field: "startsAt", message: "Only events have a start, an end, a location and a date.")) {
                try await f.tasks.updateItem(try await f.households.caller(for: member), id: item.id, patch: TaskPatch(startsAt: .some(deadline)))
            }
            await #expect(throws: ServiceError.invalidInput(field: "assigneeId", message: "assigneeId must be a member of the household.")) {
                try await f.tasks.updateItem(try await f.households.caller(for: member), id: item.id, patch: TaskPatch(assigneeID: .some(UUID())))
            }

            let event = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household, draft: TaskDraft(kind: .event, title: "Concert"))
            let start = try #require(event.startsAt)
            let later = try await f.tasks.updateItem(try await f.households.caller(for: member), id: event.id, patch: TaskPatch(startsAt: .some(start.addingTimeInterval(7200))))
            #expect(later.startsAt == start.addingTimeInterval(7200) && later.endsAt == start.addingTimeInterval(10_800), "moving the start keeps the length")
            await #expect(throws: ServiceError.invalidInput(field: "endsAt", message: "endsAt must not be before startsAt.")) {
                try await f.tasks.updateItem(try await f.households.caller(for: member), id: event.id, patch: TaskPatch(endsAt: .some(start)))
            }
            await #expect(throws: ServiceError.invalidInput(field: "startsAt", message: "An event's startsAt cannot be cleared.")) {
                try await f.tasks.updateItem(try await f.households.caller(for: member), id: event.id, patch: TaskPatch(startsAt: .some(nil)))
            }
        }
    }

    @Test func completingReopeningDeletingAndSubtasks() async throws {
        try await Self.withFixture { f in
            let member = try await f.person("mia", role: .member)
            let viewer = try await f.person("vic", role: .viewer)
            let admin = try await f.person("ada", role: .admin)
            let deadline = f.clock.now.addingTimeInterval(86_400)
            let item = try await f.tasks.createItem(try await f.households.caller(for: member), householdID: f.household,
                                                    draft: TaskDraft(title: "Pack", deadline: deadline, subtasks: ["Socks", "Shirts", "Shoes"]))
            let done = try await f.tasks.completeItem(try await f.households.caller(for: member), id: item.id)
            #expect(done.completedBy == member && done.completedAt == f.clock.now && done.reminderDueAt == nil)
            let reopened = try await f.tasks.reopenItem(try await f.households.caller(for: member), id: item.id)
            #expect(reopened.completedAt == nil && reopened.reminderDueAt == deadline, "a reminder still ahead is re-armed")

            let ids = item.subtasks.map(\.id)
            let reordered = try await f.tasks.reorderSubtasks(try await f.households.caller(for: member), taskID: item.id, ids: [ids[2], ids[0], ids[1]])
            #expect(reordered.subtasks.map(\.title) == ["Shoes", "Socks", "Shirts"])
            await #expect(throws: ServiceError.self) { try await f.tasks.reorderSubtasks(try await f.households.caller(for: member), taskID: item.id, ids: [ids[0], ids[1]]) }
            let ticked = try await f.tasks.updateSubtask(try await f.households.caller(for: member), id: ids[0], title: nil, done: true)
            #expect(ticked.subtasks.first { $0.id == ids[0] }?.done == true && ticked.subtasks.first { $0.id == ids[0] }?.title == "Socks")
            let added = try await f.tasks.addSubtask(try await f.households.caller(for: member), taskID: item.id, title: "Hat")
            #expect(added.subtasks.map(\.title) == ["Shoes", "Socks", "Shirts", "Hat"])
            let removed = try await f.tasks.removeSubtask(try await f.households.caller(for: member), id: ids[1])
            #expect(removed.subtasks.map(\.title) == ["Shoes", "Socks", "Hat"])

            for attempt in [{ try await f.tasks.completeItem(try await f.households.caller(for: viewer), id: item.id) },
                            { try await f.tasks.addSubtask(try await f.households.caller(for: viewer), taskID: item.id, title: "x") },
                            { try await f.tasks.deleteItem(try await f.households.caller(for: member), id: item.id) }] as [@Sendable () async throws -> TaskItem] {
                do {
                    _ = try await attempt()
                    Issue.record("allowed")
                } catch let error as ServiceError {
                    guard error.kind == .forbidden, error.details.denial != nil else { Issue.record("\(error)"); continue }
                }
            }
            let label = try await f.tasks.createLabel(try await f.households.caller(for: member), householdID: f.household, name: "Trip", color: "blue")
            await #expect(throws: ServiceError.self) { try await f.tasks.updateLabel(try await f.households.caller(for: member), id: label.id, name: "Holiday", color: nil) }
            let renamed = try await f.tasks.updateLabel(try await f.households.caller(for: admin), id: label.id, name: "Holiday", color: "#00ff00")
            #expect(renamed.name == "Holiday" && renamed.color == "#00FF00")

            #expect(try await f.tasks.deleteItem(try await f.households.caller(for: admin), id: item.id).id == item.id)
            #expect(try await f.count("SELECT count(*) FROM subtasks") == 0)
            await #expect(throws: ServiceError.notFound("Task")) { try await f.tasks.item(try await f.households.caller(for: admin), id: item.id) }
            _ = try await f.tasks.deleteLabel(try await f.households.caller(for: admin), id: label.id)
            #expect(try await f.count("SELECT count(*) FROM labels") == 0)
        }
    }

    @Test func listsFilterSortAndPage() async throws {
        try await Self.withFixture { f in
            let member = try await f.person("mia", role: .member)
            let base = f.clock.now
            let specs: [(String, TaskPriority, Double?, UUID?, [String])] = [
                ("Alpha", .low, 3, member, ["home"]), ("bravo", .high, 1, nil, ["home", "urgent"]), ("Charlie", .none, nil, nil, []),
                ("delta", .high, 2, member, ["urgent"]), ("Echo", .medium, nil, member, []),
            ]
            for (title, priority, days, assignee, labels) in specs {
                f.clock.advance(by: 1)
                _ = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household, draft: TaskDraft(
                    title: title, priority: priority, deadline: days.map { base.addingTimeInterval($0 * 86_400) }, assigneeID: assignee, labelNames: labels))
            }
            func titles(_ query: TaskQuery, first: Int = 100) async throws -> [String] {
                var all: [String] = []
                var after: String?
                repeat {
                    let page = try await f.tasks.items(try await f.households.caller(for: member), householdID: f.household, query: query, page: try PageRequest(first: first, after: after))
                    all += page.items.map(\.item.title)
                    after = page.hasNextPage ? page.items.last?.cursor : nil
                } while after != nil
                return all
            }
            let byDeadline = try await titles(TaskQuery(sort: .deadline), first: 2)
            #expect(byDeadline.prefix(3) == ["bravo", "delta", "Alpha"] && Set(byDeadline.suffix(2)) == ["Charlie", "Echo"],
                    "no deadline last (among themselves by id): \(byDeadline)")
            #expect(try await titles(TaskQuery(sort: .priority), first: 2) == ["bravo", "delta", "Echo", "Alpha", "Charlie"], "HIGH first, then the soonest deadline")
            #expect(try await titles(TaskQuery(sort: .created), first: 2) == ["Echo", "delta", "Charlie", "bravo", "Alpha"])
            #expect(try await titles(TaskQuery(sort: .title), first: 2) == ["Alpha", "bravo", "Charlie", "delta", "Echo"])
            #expect(try await titles(TaskQuery(assigneeID: member, sort: .title)) == ["Alpha", "delta", "Echo"])
            // Kind and completion alone (a first page's prepared statement; the pages after it are not).
            let bravo = try await f.tasks.items(try await f.households.caller(for: member), householdID: f.household,
                                                query: TaskQuery(sort: .title), page: try PageRequest(first: 2, after: nil)).items[1].item
            #expect(bravo.title == "bravo")
            _ = try await f.tasks.completeItem(try await f.households.caller(for: member), id: bravo.id)
            for sort in TaskQuery.Sort.allCases {
                #expect(try await titles(TaskQuery(completed: true, sort: sort), first: 2) == ["bravo"], "\(sort)")
                #expect(Set(try await titles(TaskQuery(kind: .task, completed: false, sort: sort), first: 2)) == ["Alpha", "Charlie", "delta", "Echo"], "\(sort)")
                #expect(try await titles(TaskQuery(kind: .event, sort: sort), first: 2) == [], "\(sort)")
            }
            #expect(try await titles(TaskQuery(completed: false, sort: .priority), first: 3) == ["delta", "Echo", "Alpha", "Charlie"])
            let labels = try await f.tasks.labels(try await f.households.caller(for: member), householdID: f.household)
            let urgent = try #require(labels.first { $0.name == "urgent" }?.id)
            let home = try #require(labels.first { $0.name == "home" }?.id)
            #expect(try await titles(TaskQuery(labelIDs: [urgent, home], sort: .title)) == ["bravo"])
            #expect(try await titles(TaskQuery(dueBefore: base.addingTimeInterval(2.5 * 86_400), dueAfter: base.addingTimeInterval(1.5 * 86_400))) == ["delta"])
            #expect(try await titles(TaskQuery(search: "RAV")) == ["bravo"])
            #expect(try await titles(TaskQuery(search: "%")) == [], "LIKE wildcards are taken literally")
            let page = try await f.tasks.items(try await f.households.caller(for: member), householdID: f.household, query: TaskQuery(sort: .title), page: try PageRequest(first: 1, after: nil))
            #expect(page.totalCount == 5)
            let wrongSort = try PageRequest(first: 1, after: page.items[0].cursor)
            await #expect(throws: PageRequestError.self) {
                try await f.tasks.items(try await f.households.caller(for: member), householdID: f.household, query: TaskQuery(sort: .deadline), page: wrongSort)
            }
        }
    }

    /// The agenda in the household's zone: an event at 23:30 local belongs to its local day, and
    /// the day clocks go forward has 23 hours.
    @Test func theAgendaKeepsLocalDays() async throws {
        try await Self.withFixture { f in
            // 2026-03-28 23:30 in Berlin (UTC+1) is 22:30 UTC.
            let late = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household,
                                                    draft: TaskDraft(kind: .event, title: "Late show", startsAt: Date(timeIntervalSince1970: 1_774_737_000)))
            // 2026-03-29 23:30 in Berlin (UTC+2 by then) is 21:30 UTC.
            let sunday = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household,
                                                      draft: TaskDraft(title: "Sunday night task", deadline: Date(timeIntervalSince1970: 1_774_819_800)))
            let spanning = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household, draft: TaskDraft(
                kind: .event, title: "Weekend away", startsAt: Date(timeIntervalSince1970: 1_774_620_000), endsAt: Date(timeIntervalSince1970: 1_774_900_000)))
            // occursOn: an event by its start, a task by its deadline, on the household's local day.
            #expect(try await f.tasks.occursOn(try await f.households.caller(for: f.owner), householdID: f.household, date: "2026-03-28").map(\.id) == [late.id])
            #expect(try await f.tasks.occursOn(try await f.households.caller(for: f.owner), householdID: f.household, date: "2026-03-29").map(\.id) == [sunday.id])
            #expect(try await f.tasks.occursOn(try await f.households.caller(for: f.owner), householdID: f.household, date: "2026-03-27").map(\.id) == [spanning.id])
            // The agenda of Sunday's local hours: events overlapping it (the late show runs to 00:30), tasks due in it.
            let (sundayStart, sundayEnd) = try TaskService.localDay("2026-03-29", in: try #require(TimeZone(identifier: "Europe/Berlin")))
            let agenda = try await f.tasks.agenda(try await f.households.caller(for: f.owner), householdID: f.household, from: sundayStart, to: sundayEnd)
            #expect(agenda.map(\.id) == [spanning.id, late.id, sunday.id])
            let mondayAgenda = try await f.tasks.agenda(try await f.households.caller(for: f.owner), householdID: f.household, from: sundayEnd, to: sundayEnd.addingTimeInterval(86_400))
            #expect(mondayAgenda.map(\.id) == [spanning.id])
            let (start, end) = try TaskService.localDay("2026-03-29", in: try #require(TimeZone(identifier: "Europe/Berlin")))
            #expect(end.timeIntervalSince(start) == 23 * 3600)
            for bad in ["2026-02-30", "2026-3-29", "yesterday"] {
                await #expect(throws: ServiceError.self, "\(bad)") { try await f.tasks.occursOn(try await f.households.caller(for: f.owner), householdID: f.household, date: bad) }
            }
            await #expect(throws: ServiceError.self) {
                try await f.tasks.agenda(try await f.households.caller(for: f.owner), householdID: f.household, from: start, to: start.addingTimeInterval(367 * 86_400))
            }
        }
    }
}

extension TaskServiceTests {
    /// Two instances' reminder loops over 30 due items: each reminder is sent exactly once, to
    /// the assignee or else to every member.
    @Test func twoLoopsSendEachReminderOnce() async throws {
        try await Self.withFixture { f in
            let member = try await f.person("mia", role: .member)
            let due = f.clock.now.addingTimeInterval(600)
            for index in 0..<30 {
                _ = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household,
                                                 draft: TaskDraft(title: "Chore \(index)", deadline: due, assigneeID: index % 3 == 0 ? member : nil))
            }
            let future = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household,
                                                      draft: TaskDraft(title: "Later", deadline: due.addingTimeInterval(86_400)))
            let done = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household, draft: TaskDraft(title: "Done", deadline: due))
            _ = try await f.tasks.completeItem(try await f.households.caller(for: f.owner), id: done.id)
            let gone = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household, draft: TaskDraft(title: "Gone", deadline: due))
            _ = try await f.tasks.deleteItem(try await f.households.caller(for: f.owner), id: gone.id)
            #expect(try await TaskReminderLoop(tasks: f.tasks).runRound() == 0, "nothing is due yet")

            f.clock.advance(by: 601)
            // A second instance: its own services, the same database and clock.
            let other = HearthServices(database: f.database, configuration: .init(clock: f.clock)).tasks
            async let first = TaskReminderLoop(tasks: f.tasks).runRound()
            async let second = TaskReminderLoop(tasks: other).runRound()
            let (a, b) = try await (first, second)
            #expect(a + b == 30, "\(a) + \(b)")
            // 10 assigned to Mia: one notification each; 20 unassigned: one per member (2).
            #expect(try await f.count("SELECT count(*) FROM notifications WHERE kind = 'REMINDER'") == 10 + 20 * 2)
            #expect(try await f.count("SELECT count(DISTINCT (user_id, title)) FROM notifications WHERE kind = 'REMINDER'") == 50, "nobody got one twice")
            #expect(try await f.count("SELECT count(*) FROM notifications WHERE body = 'Due 2026-03-29 14:10'") == 50, "due time in Berlin")
            #expect(try await f.count("SELECT count(*) FROM task_items WHERE reminder_due_at IS NOT NULL") == 1, "only the later one is pending")
            #expect(try await f.tasks.item(try await f.households.caller(for: f.owner), id: future.id).reminderDueAt == future.deadline)
            #expect(try await TaskReminderLoop(tasks: f.tasks).runRound() == 0)
        }
    }

    @Test func snoozeFiresAgainAndMovingTheDeadlineMovesTheReminder() async throws {
        try await Self.withFixture { f in
            let viewer = try await f.person("vic", role: .viewer)
            let due = f.clock.now.addingTimeInterval(60)
            let item = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household,
                                                    draft: TaskDraft(title: "Call grandma", priority: .high, deadline: due))
            let reminderID = item.reminderID
            f.clock.advance(by: 61)
            let sent = try await f.tasks.deliverDueReminders()
            #expect(sent.map(\.id) == [reminderID] && sent.first?.notifications.map(\.priority) == [.high, .high])
            let snoozed = try await f.tasks.snoozeReminder(try await f.households.caller(for: f.owner), taskID: item.id)
            #expect(snoozed.reminderDueAt == f.clock.now.addingTimeInterval(900) && snoozed.reminderID == reminderID)
            f.clock.advance(by: 899)
            #expect(try await f.tasks.deliverDueReminders().isEmpty)
            f.clock.advance(by: 2)
            #expect(try await f.tasks.deliverDueReminders().map(\.id) == [reminderID], "the same reminder, again")
            await #expect(throws: ServiceError.self) { try await f.tasks.snoozeReminder(try await f.households.caller(for: f.owner), taskID: item.id, minutes: 0) }
            await #expect(throws: ServiceError.self) { try await f.tasks.snoozeReminder(try await f.households.caller(for: viewer), taskID: item.id) }

            let later = f.clock.now.addingTimeInterval(3600)
            let moved = try await f.tasks.updateItem(try await f.households.caller(for: f.owner), id: item.id, patch: TaskPatch(deadline: .some(later)))
            #expect(moved.reminderDueAt == later && moved.reminderID == reminderID)
            let explicit = try await f.tasks.updateItem(try await f.households.caller(for: f.owner), id: item.id, patch: TaskPatch(remindAt: .some(later.addingTimeInterval(-600))))
            #expect(explicit.reminderDueAt == later.addingTimeInterval(-600), "remindAt wins over the deadline")
            _ = try await f.tasks.completeItem(try await f.households.caller(for: f.owner), id: item.id)
            f.clock.advance(by: 7200)
            #expect(try await f.tasks.deliverDueReminders().isEmpty, "completing cancels the reminder")
            await #expect(throws: ServiceError.self) { try await f.tasks.snoozeReminder(try await f.households.caller(for: f.owner), taskID: item.id) }
        }
    }

    /// A household's labels are capped, so `labels` stays a bounded plain list: creates by name
    /// and createLabel are refused past the cap, naming it, and nothing is written.
    @Test func labelsStopAtTheHouseholdCap() async throws {
        try await Self.withFixture { f in
            let cap = TaskService.maximumLabelsPerHousehold
            try await f.database.client.query(
                """
                INSERT INTO labels (id, household_id, name, color, created_at)
                SELECT gen_random_uuid(), \(f.household), 'L' || n, '#8E8E93', now() FROM generate_series(1, \(cap - 2)) AS n
                """, logger: f.database.logger)
            _ = try await f.tasks.createLabel(try await f.households.caller(for: f.owner), householdID: f.household, name: "One more", color: "blue")
            do {
                _ = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household, draft: TaskDraft(title: "Two new", labelNames: ["X", "Y"]))
                Issue.record("two labels past the cap were made")
            } catch let error as ServiceError {
                guard error.kind == .conflict else { Issue.record("\(error)"); return }
                #expect(error.message.contains("at most \(cap) labels"), "\(error.message)")
            }
            #expect(try await f.count("SELECT count(*) FROM task_items") == 0, "the refused create wrote nothing")
            // The last place, and existing labels by name, still work.
            let item = try await f.tasks.createItem(try await f.households.caller(for: f.owner), householdID: f.household, draft: TaskDraft(title: "Fits", labelNames: ["X", "one MORE"]))
            #expect(item.labels.map(\.name).sorted() == ["One more", "X"])
            await #expect(throws: ServiceError.self) {
                try await f.tasks.createLabel(try await f.households.caller(for: f.owner), householdID: f.household, name: "Too many", color: "red")
            }
            #expect(try await f.count("SELECT count(*) FROM labels WHERE household_id = \(f.household)") == cap)
        }
    }
}
