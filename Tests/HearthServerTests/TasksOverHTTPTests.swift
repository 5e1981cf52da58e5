import Foundation
import GraphQLEngine
import HearthCore
import HearthServer
import Testing

/// Tasks, events and labels end to end: GraphQL over real HTTP on 127.0.0.1, a real PostgreSQL.
@Suite struct TasksOverHTTPTests {
    typealias Server = UsersOverHTTPTests.Server
    typealias Person = HouseholdsOverHTTPTests.Person

    static let fields = "id kind title notes priority deadline estimateMinutes assigneeId startsAt endsAt location completed labels { name color } subtasks { title done } reminderId reminderDueAt"

    static func task(_ data: [String: Any], _ key: String) throws -> [String: Any] {
        try #require(data[key] as? [String: Any], "\(data)")
    }

    @Test func createUpdateWithNullsAndRetrySafely() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let owner = try await HouseholdsOverHTTPTests.person(server, "Olive")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, owner)
            let id = UUID().uuidString.lowercased()
            let create = "mutation($h: UUID!, $i: TaskInput!) { createTask(householdId: $h, input: $i) { \(Self.fields) } }"
            let input: [String: Any] = ["id": id, "title": " Buy milk ", "notes": "Oat", "priority": "HIGH", "deadline": "2030-01-02T10:00:00Z",
                                        "estimateMinutes": 15, "labels": ["Shopping", "shopping", "Errands"], "subtasks": ["Shop A", "Shop B"]]
            let created = try Self.task(try await server.data(create, ["h": home, "i": input], token: owner.token), "createTask")
            #expect(created["id"] as? String == id && created["title"] as? String == "Buy milk" && created["priority"] as? String == "HIGH")
            #expect((created["labels"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Errands", "Shopping"])
            #expect((created["subtasks"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Shop A", "Shop B"])
            #expect(created["reminderDueAt"] as? String == "2030-01-02T10:00:00.000Z" || created["reminderDueAt"] as? String == "2030-01-02T10:00:00Z")

            // A retry (same id, same content) answers the same task; other content is a conflict.
            let again = try Self.task(try await server.data(create, ["h": home, "i": input], token: owner.token), "createTask")
            #expect(again["id"] as? String == id && again["reminderId"] as? String == created["reminderId"] as? String)
            var other = input
            other["title"] = "Buy bread"
            #expect(try await server.error(create, ["h": home, "i": other], token: owner.token).code == "CONFLICT")

            let update = "mutation($id: UUID!, $i: TaskUpdateInput!) { updateTask(id: $id, input: $i) { \(Self.fields) } }"
            let cleared = try Self.task(try await server.data(update, ["id": id, "i": ["notes": NSNull(), "deadline": NSNull(), "labels": ["Dairy"]]],
                                                              token: owner.token), "updateTask")
            #expect(cleared["notes"] is NSNull && cleared["deadline"] is NSNull && cleared["reminderDueAt"] is NSNull)
            #expect(cleared["title"] as? String == "Buy milk" && cleared["priority"] as? String == "HIGH" && cleared["estimateMinutes"] as? Int == 15)
            #expect((cleared["labels"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Dairy"])

            let bad = try await server.error(create, ["h": home, "i": ["title": "   "]], token: owner.token)
            #expect(bad.code == "BAD_USER_INPUT" && bad.extensions["field"] as? String == "title")
            let labels = try await server.data("query($h: UUID!) { labels(householdId: $h) { name color } }", ["h": home], token: owner.token)
            #expect((labels["labels"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Dairy", "Errands", "Shopping"])

            let list = try await server.data("query($h: UUID!) { tasks(householdId: $h, filter: {search: \"MILK\"}) { totalCount edges { node { id } } } }",
                                             ["h": home], token: owner.token)
            #expect((list["tasks"] as? [String: Any])?["totalCount"] as? Int == 1)
            let done = try Self.task(try await server.data("mutation($id: UUID!) { completeTask(id: $id) { completed } }", ["id": id], token: owner.token),
                                     "completeTask")
            #expect(done["completed"] as? Bool == true)
        }
    }

    @Test func eventsAgendaAndPermissions() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let owner = try await HouseholdsOverHTTPTests.person(server, "Olive")
            let viewer = try await HouseholdsOverHTTPTests.person(server, "Vic")
            let member = try await HouseholdsOverHTTPTests.person(server, "Mia")
            let stranger = try await HouseholdsOverHTTPTests.person(server, "Sam")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, owner)  // Europe/Berlin
            try await HouseholdsOverHTTPTests.add(server, owner, home, viewer, "VIEWER")
            try await HouseholdsOverHTTPTests.add(server, owner, home, member, "MEMBER")
            let createEvent = "mutation($h: UUID!, $i: EventInput!) { createEvent(householdId: $h, input: $i) { \(Self.fields) } }"
            // 23:30 in Berlin on 2030-01-05 (UTC+1) is 22:30 UTC.
            let late = try Self.task(try await server.data(createEvent, ["h": home, "i": ["title": "Late show", "startsAt": "2030-01-05T22:30:00Z",
                                                                                       "location": "Opera"]], token: member.token), "createEvent")
            #expect(late["kind"] as? String == "EVENT")
            // Without an end: an hour after the start.
            #expect((late["endsAt"] as? String).flatMap(DateTimeScalar.date(from:)) == DateTimeScalar.date(from: "2030-01-05T23:30:00Z"), "\(late)")
            let saturday = try await server.data("query($h: UUID!) { occursOn(householdId: $h, date: \"2030-01-05\") { title } }", ["h": home], token: viewer.token)
            #expect((saturday["occursOn"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Late show"])
            let sunday = try await server.data("query($h: UUID!) { occursOn(householdId: $h, date: \"2030-01-06\") { title } }", ["h": home], token: viewer.token)
            #expect((sunday["occursOn"] as? [[String: Any]])?.isEmpty == true)
            let agenda = try await server.data("query($h: UUID!) { agenda(householdId: $h, from: \"2030-01-05T23:00:00Z\", to: \"2030-01-06T23:00:00Z\") { title } }",
                                               ["h": home], token: viewer.token)
            #expect((agenda["agenda"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Late show"], "it runs past midnight")
            let backwards = try await server.error(createEvent, ["h": home, "i": ["title": "Backwards", "startsAt": "2030-01-05T10:00:00Z",
                                                                                 "endsAt": "2030-01-05T09:00:00Z"]], token: member.token)
            #expect(backwards.code == "BAD_USER_INPUT" && backwards.extensions["field"] as? String == "endsAt")

            // Without times: the next 09:00 in Berlin (today before nine, else tomorrow), for one hour.
            let plain = try Self.task(try await server.data(createEvent, ["h": home, "i": ["title": "Dentist"]], token: member.token), "createEvent")
            var berlin = Calendar(identifier: .gregorian)
            berlin.timeZone = try #require(TimeZone(identifier: "Europe/Berlin"))
            var day = berlin.dateComponents([.year, .month, .day], from: server.clock.now)
            day.hour = 9
            var nine = try #require(berlin.date(from: day))
            if nine <= server.clock.now { nine = try #require(berlin.date(byAdding: .day, value: 1, to: nine)) }
            #expect((plain["startsAt"] as? String).flatMap(DateTimeScalar.date(from:)) == nine, "\(plain)")
            #expect((plain["endsAt"] as? String).flatMap(DateTimeScalar.date(from:)) == nine.addingTimeInterval(3600))
            let id = try #require(late["id"] as? String)
            #expect(try await server.error(createEvent, ["h": home, "i": ["title": "Nope"]], token: viewer.token).code == "FORBIDDEN")
            #expect(try await server.error("mutation($id: UUID!) { deleteTask(id: $id) { id } }", ["id": id], token: member.token).code == "FORBIDDEN")
            #expect(try await server.error("query($id: UUID!) { task(id: $id) { id } }", ["id": id], token: stranger.token).code == "NOT_FOUND")
            #expect(try await server.error("mutation($id: UUID!) { completeTask(id: $id) { id } }", ["id": id], token: stranger.token).code == "NOT_FOUND")
            #expect(try await server.error("query($h: UUID!) { tasks(householdId: $h) { totalCount } }", ["h": home], token: stranger.token).code == "NOT_FOUND")
            let snoozed = try Self.task(try await server.data("mutation($id: UUID!) { snoozeReminder(taskId: $id, minutes: 30) { reminderDueAt } }",
                                                              ["id": id], token: member.token), "snoozeReminder")
            // Snoozed: due 30 minutes from now by the manual clock.
            #expect(snoozed["reminderDueAt"] as? String == DateTimeScalar.string(from: server.clock.now.addingTimeInterval(30 * 60)), "\(snoozed)")
            let deleted = try await server.data("mutation($id: UUID!) { deleteTask(id: $id) { id } }", ["id": id], token: owner.token)
            #expect((deleted["deleteTask"] as? [String: Any])?["id"] as? String == id)
            #expect(try await server.error("query($id: UUID!) { task(id: $id) { id } }", ["id": id], token: owner.token).code == "NOT_FOUND",
                    "a deleted task is gone")
        }
    }

    @Test func subtasksLabelsReopeningAndRolesOverHTTP() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let owner = try await HouseholdsOverHTTPTests.person(server, "Olive")
            let admin = try await HouseholdsOverHTTPTests.person(server, "Ada")
            let member = try await HouseholdsOverHTTPTests.person(server, "Mia")
            let viewer = try await HouseholdsOverHTTPTests.person(server, "Vic")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, owner)
            let cabin = try await HouseholdsOverHTTPTests.createHousehold(server, owner, name: "Cabin")
            try await HouseholdsOverHTTPTests.add(server, owner, home, admin, "ADMIN")
            try await HouseholdsOverHTTPTests.add(server, owner, home, member, "MEMBER")
            try await HouseholdsOverHTTPTests.add(server, owner, home, viewer, "VIEWER")
            let created = try Self.task(try await server.data(
                "mutation($h: UUID!) { createTask(householdId: $h, input: {title: \"Pack\", subtasks: [\"Socks\", \"Shirts\"]}) { id subtasks { id title } } }",
                ["h": home], token: member.token), "createTask")
            let id = try #require(created["id"] as? String)
            let subtaskIDs = (created["subtasks"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(subtaskIDs.count == 2)
            let titles = { (data: [String: Any], key: String) in
                ((data[key] as? [String: Any])?["subtasks"] as? [[String: Any]] ?? []).map { "\($0["title"] as? String ?? "")\($0["done"] as? Bool == true ? "✓" : "")" }
            }
            let added = try await server.data("mutation($t: UUID!) { addSubtask(taskId: $t, title: \"Shoes\") { subtasks { title done } } }", ["t": id], token: member.token)
            #expect(titles(added, "addSubtask") == ["Socks", "Shirts", "Shoes"])
            let ticked = try await server.data("mutation($s: UUID!) { updateSubtask(id: $s, done: true) { subtasks { title done } } }", ["s": subtaskIDs[0]], token: member.token)
            #expect(titles(ticked, "updateSubtask") == ["Socks✓", "Shirts", "Shoes"])
            let all = try await server.data("query($t: UUID!) { task(id: $t) { subtasks { id } } }", ["t": id], token: viewer.token)
            let allIDs = (((all["task"] as? [String: Any])?["subtasks"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
            let reordered = try await server.data("mutation($t: UUID!, $o: [UUID!]!) { reorderSubtasks(taskId: $t, subtaskIds: $o) { subtasks { title done } } }",
                                                  ["t": id, "o": Array(allIDs.reversed())], token: member.token)
            #expect(titles(reordered, "reorderSubtasks") == ["Shoes", "Shirts", "Socks✓"])
            let bad = try await server.error("mutation($t: UUID!, $o: [UUID!]!) { reorderSubtasks(taskId: $t, subtaskIds: $o) { id } }", ["t": id, "o": [allIDs[0]]], token: member.token)
            #expect(bad.code == "BAD_USER_INPUT" && bad.extensions["field"] as? String == "subtaskIds")
            let removed = try await server.data("mutation($s: UUID!) { removeSubtask(id: $s) { subtasks { title done } } }", ["s": subtaskIDs[1]], token: member.token)
            #expect(titles(removed, "removeSubtask") == ["Shoes", "Socks✓"])
            #expect(try await server.error("mutation($s: UUID!) { removeSubtask(id: $s) { id } }", ["s": subtaskIDs[0]], token: viewer.token).code == "FORBIDDEN")

            _ = try await server.data("mutation($t: UUID!) { completeTask(id: $t) { id } }", ["t": id], token: member.token)
            let reopened = try await server.data("mutation($t: UUID!) { reopenTask(id: $t) { completed completedAt completedBy } }", ["t": id], token: member.token)
            #expect((reopened["reopenTask"] as? [String: Any])?["completed"] as? Bool == false)
            #expect((reopened["reopenTask"] as? [String: Any])?["completedBy"] is NSNull)

            // Labels: members create; admins rename, recolour and delete; names clash case aside.
            let label = try await server.data("mutation($h: UUID!) { createLabel(householdId: $h, name: \"Trip\", color: \"indigo\") { id name color } }",
                                              ["h": home], token: member.token)
            let labelID = try #require((label["createLabel"] as? [String: Any])?["id"] as? String)
            #expect((label["createLabel"] as? [String: Any])?["color"] as? String == "#5856D6")
            let clash = try await server.error("mutation($h: UUID!) { createLabel(householdId: $h, name: \"TRIP\") { id } }", ["h": home], token: member.token)
            #expect(clash.code == "CONFLICT")
            let badColor = try await server.error("mutation($h: UUID!) { createLabel(householdId: $h, name: \"Paint\", color: \"#12\") { id } }", ["h": home], token: member.token)
            #expect(badColor.code == "BAD_USER_INPUT" && badColor.extensions["field"] as? String == "color")
            #expect(try await server.error("mutation($l: UUID!) { updateLabel(id: $l, name: \"Holiday\") { id } }", ["l": labelID], token: member.token).code == "FORBIDDEN")
            let renamed = try await server.data("mutation($l: UUID!) { updateLabel(id: $l, name: \"Holiday\", color: \"#00aa00\") { name color } }", ["l": labelID], token: admin.token)
            #expect((renamed["updateLabel"] as? [String: Any])?["color"] as? String == "#00AA00")
            #expect(try await server.error("mutation($l: UUID!) { deleteLabel(id: $l) { id } }", ["l": labelID], token: member.token).code == "FORBIDDEN")
            #expect((try await server.data("mutation($l: UUID!) { deleteLabel(id: $l) { name } }", ["l": labelID], token: admin.token)["deleteLabel"]
                as? [String: Any])?["name"] as? String == "Holiday")

            // Another household's items: NOT_FOUND for someone who is not in it, whatever the role elsewhere.
            let foreign = try Self.task(try await server.data("mutation($h: UUID!) { createTask(householdId: $h, input: {title: \"Cabin chores\"}) { id } }",
                                                              ["h": cabin], token: owner.token), "createTask")
            let foreignID = try #require(foreign["id"] as? String)
            for (query, variables) in [("mutation($t: UUID!) { updateTask(id: $t, input: {title: \"x\"}) { id } }", ["t": foreignID]),
                                       ("mutation($t: UUID!) { deleteTask(id: $t) { id } }", ["t": foreignID]),
                                       ("mutation($t: UUID!) { addSubtask(taskId: $t, title: \"x\") { id } }", ["t": foreignID]),
                                       ("mutation($t: UUID!) { snoozeReminder(taskId: $t) { id } }", ["t": foreignID]),
                                       ("query($h: UUID!) { agenda(householdId: $h, from: \"2030-01-01T00:00:00Z\", to: \"2030-01-02T00:00:00Z\") { id } }", ["h": cabin])] {
                #expect(try await server.error(query, variables, token: admin.token).code == "NOT_FOUND", "\(query)")
            }
            #expect((try await server.data("query($t: UUID!) { task(id: $t) { title } }", ["t": foreignID], token: owner.token)["task"]
                as? [String: Any])?["title"] as? String == "Cabin chores")
        }
    }

    /// The clock moved forward to the next `hour:minute` in Berlin.
    static func moveClock(_ server: Server, toBerlin hour: Int, _ minute: Int) throws -> Calendar {
        var berlin = Calendar(identifier: .gregorian)
        berlin.timeZone = try #require(TimeZone(identifier: "Europe/Berlin"))
        let target = try #require(berlin.nextDate(
            after: server.clock.now, matching: DateComponents(hour: hour, minute: minute), matchingPolicy: .nextTime))
        server.clock.advance(by: target.timeIntervalSince(server.clock.now))
        return berlin
    }

    /// An untimed event made in the evening starts at 09:00 the next day (never in the past), a
    /// date picks the day, and an item whose reminder time has passed gets no reminder at all.
    @Test func eveningEventsStartTomorrowAndPastRemindersStaySilent() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let owner = try await HouseholdsOverHTTPTests.person(server, "Olive")
            let member = try await HouseholdsOverHTTPTests.person(server, "Mia")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, owner)  // Europe/Berlin
            try await HouseholdsOverHTTPTests.add(server, owner, home, member, "MEMBER")
            let berlin = try Self.moveClock(server, toBerlin: 19, 34)
            let now = server.clock.now
            let createEvent = "mutation($h: UUID!, $i: EventInput!) { createEvent(householdId: $h, input: $i) { \(Self.fields) } }"
            let createTask = "mutation($h: UUID!, $i: TaskInput!) { createTask(householdId: $h, input: $i) { \(Self.fields) } }"

            let evening = try Self.task(try await server.data(createEvent, ["h": home, "i": ["title": "Recycling"]], token: member.token), "createEvent")
            var tomorrow = berlin.dateComponents([.year, .month, .day], from: try #require(berlin.date(byAdding: .day, value: 1, to: now)))
            tomorrow.hour = 9
            let tomorrowNine = try #require(berlin.date(from: tomorrow))
            #expect((evening["startsAt"] as? String).flatMap(DateTimeScalar.date(from:)) == tomorrowNine, "\(evening)")
            #expect((evening["endsAt"] as? String).flatMap(DateTimeScalar.date(from:)) == tomorrowNine.addingTimeInterval(3600))
            #expect((evening["reminderDueAt"] as? String).flatMap(DateTimeScalar.date(from:)) == tomorrowNine)

            // A date picks the day: 09:00 Berlin on 2030-01-05 is 08:00 UTC.
            let dated = try Self.task(try await server.data(createEvent, ["h": home, "i": ["title": "Fair", "date": "2030-01-05"]], token: member.token), "createEvent")
            #expect(dated["startsAt"] as? String == "2030-01-05T08:00:00.000Z", "\(dated)")
            let both = try await server.error(createEvent, ["h": home, "i": ["title": "Both", "date": "2030-01-05", "startsAt": "2030-01-05T10:00:00Z"]], token: member.token)
            #expect(both.code == "BAD_USER_INPUT" && both.extensions["field"] as? String == "date")
            let badDay = try await server.error(createEvent, ["h": home, "i": ["title": "Never", "date": "2030-02-30"]], token: member.token)
            #expect(badDay.code == "BAD_USER_INPUT" && badDay.message?.contains("YYYY-MM-DD") == true, "\(badDay)")

            // Past reminder times arm nothing: a task due an hour ago, an event that started this morning.
            let overdue = try Self.task(try await server.data(
                createTask, ["h": home, "i": ["title": "Overdue", "deadline": DateTimeScalar.string(from: now.addingTimeInterval(-3600))]],
                token: member.token), "createTask")
            #expect(overdue["reminderDueAt"] is NSNull, "\(overdue)")
            let morning = try Self.task(try await server.data(
                createEvent, ["h": home, "i": ["title": "Standup", "startsAt": DateTimeScalar.string(from: now.addingTimeInterval(-9 * 3600))]],
                token: member.token), "createEvent")
            #expect(morning["reminderDueAt"] is NSNull)
            // Moved into the past: the reminder goes; moved ahead again: it comes back.
            let later = try Self.task(try await server.data(
                createTask, ["h": home, "i": ["title": "Later", "deadline": DateTimeScalar.string(from: now.addingTimeInterval(3600))]],
                token: member.token), "createTask")
            #expect(later["reminderDueAt"] as? String == DateTimeScalar.string(from: now.addingTimeInterval(3600)), "\(later)")
            let update = "mutation($id: UUID!, $i: TaskUpdateInput!) { updateTask(id: $id, input: $i) { reminderDueAt } }"
            let moved = try await server.data(update, ["id": later["id"] ?? "", "i": ["deadline": DateTimeScalar.string(from: now.addingTimeInterval(-60))]], token: member.token)
            #expect((moved["updateTask"] as? [String: Any])?["reminderDueAt"] is NSNull)
            let back = try await server.data(update, ["id": later["id"] ?? "", "i": ["deadline": DateTimeScalar.string(from: now.addingTimeInterval(7200))]], token: member.token)
            #expect((back["updateTask"] as? [String: Any])?["reminderDueAt"] as? String == DateTimeScalar.string(from: now.addingTimeInterval(7200)))

            // Nothing fires now: nobody is alerted by items made or moved after their time.
            #expect(try await server.services.tasks.deliverDueReminders().isEmpty)
            let notifications = try await server.data("{ notifications { totalCount } }", token: owner.token)
            #expect((notifications["notifications"] as? [String: Any])?["totalCount"] as? Int == 0)
        }
    }

    /// Reminders follow each person's master switch: someone with notifications off gets none.
    @Test func remindersSkipPeopleWhoSwitchedNotificationsOff() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let (owner, member, quiet, home) = try await HouseholdsOverHTTPTests.householdOfThree(server, ("Olive", "Mia", "Quinn"))
            _ = try await server.data("mutation { updatePreferences(input: {notifications: {enabled: false}}) { theme } }", token: quiet.token)
            let createTask = "mutation($h: UUID!, $i: TaskInput!) { createTask(householdId: $h, input: $i) { id } }"
            let due = DateTimeScalar.string(from: server.clock.now.addingTimeInterval(60))
            _ = try await server.data(createTask, ["h": home, "i": ["title": "Water the plants", "deadline": due]], token: member.token)
            _ = try await server.data(createTask, ["h": home, "i": ["title": "Quinn's chore", "deadline": due, "assigneeId": quiet.id]], token: member.token)
            server.clock.advance(by: 61)
            let sent = try await server.services.tasks.deliverDueReminders()
            #expect(sent.count == 2, "both reminders are done with")
            // The feed behind notificationReceived carries exactly these notifications.
            #expect(Set(sent.flatMap(\.notifications).map { $0.userID.uuidString.lowercased() }) == Set([owner.id, member.id]))
            let query = "{ notifications(kinds: [REMINDER]) { totalCount edges { node { title body } } } }"
            for (person, expected) in [(owner, 1), (member, 1), (quiet, 0)] {
                let data = try await server.data(query, token: person.token)
                #expect((data["notifications"] as? [String: Any])?["totalCount"] as? Int == expected, "\(person.id)")
            }
            #expect(try await server.services.tasks.deliverDueReminders().isEmpty)
        }
    }
}
