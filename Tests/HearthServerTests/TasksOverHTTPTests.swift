import Foundation
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
            #expect(late["kind"] as? String == "EVENT" && late["endsAt"] as? String != nil)
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

            let id = try #require(late["id"] as? String)
            #expect(try await server.error(createEvent, ["h": home, "i": ["title": "Nope"]], token: viewer.token).code == "FORBIDDEN")
            #expect(try await server.error("mutation($id: UUID!) { deleteTask(id: $id) { id } }", ["id": id], token: member.token).code == "FORBIDDEN")
            #expect(try await server.data("query($id: UUID!) { task(id: $id) { id } }", ["id": id], token: stranger.token)["task"] is NSNull)
            #expect(try await server.error("mutation($id: UUID!) { completeTask(id: $id) { id } }", ["id": id], token: stranger.token).code == "NOT_FOUND")
            #expect(try await server.error("query($h: UUID!) { tasks(householdId: $h) { totalCount } }", ["h": home], token: stranger.token).code == "NOT_FOUND")
            let snoozed = try Self.task(try await server.data("mutation($id: UUID!) { snoozeReminder(taskId: $id, minutes: 30) { reminderDueAt } }",
                                                              ["id": id], token: member.token), "snoozeReminder")
            #expect(snoozed["reminderDueAt"] as? String != nil)
            #expect(try await server.data("mutation($id: UUID!) { deleteTask(id: $id) { id } }", ["id": id], token: owner.token)["deleteTask"] != nil)
        }
    }
}
