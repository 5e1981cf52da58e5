import Foundation
import GraphQLEngine
import HearthCore
import HearthServer
import Testing

/// Repeating tasks, turns and repeating events end to end: GraphQL and `push` over real HTTP on
/// 127.0.0.1, a real PostgreSQL.
@Suite struct RepeatingTasksOverHTTPTests {
    typealias Server = UsersOverHTTPTests.Server

    static let fields = """
        id deadline completed occurrence repeat { rule from exceptions until count start } rotation { memberIds current } assigneeId
        lastCompletion { occurrence completedBy assigneeId } completions { totalCount edges { node { occurrence } } }
        """

    static func object(_ data: [String: Any], _ key: String) throws -> [String: Any] {
        try #require(data[key] as? [String: Any], "\(data)")
    }

    @Test func aWeeklyChoreCompletesOnceRotatesAndCounts() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let olive = try await HouseholdsOverHTTPTests.person(server, "Olive")
            let mia = try await HouseholdsOverHTTPTests.person(server, "Mia")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, olive)  // Europe/Berlin
            try await HouseholdsOverHTTPTests.add(server, olive, home, mia, "MEMBER")
            // Tuesday 1 January 2030, 07:00 in Berlin.
            let create = "mutation($h: UUID!, $i: TaskInput!) { createTask(householdId: $h, input: $i) { \(Self.fields) } }"
            let created = try Self.object(try await server.data(create, ["h": home, "i": [
                "title": "Bins", "deadline": "2030-01-01T06:00:00Z", "repeat": ["rule": "freq=weekly;byday=TU;until=20300131"],
                "rotation": [olive.id, mia.id],
            ]], token: olive.token), "createTask")
            let id = try #require(created["id"] as? String)
            let rule = try #require(created["repeat"] as? [String: Any])
            #expect(rule["rule"] as? String == "FREQ=WEEKLY;UNTIL=20300131T225959Z;BYDAY=TU" && rule["from"] as? String == "SCHEDULE")
            #expect(rule["until"] as? String == "2030-01-31T22:59:59.000Z" && rule["count"] is NSNull && rule["start"] as? String == "2030-01-01T06:00:00.000Z")
            #expect((created["rotation"] as? [String: Any])?["current"] as? String == olive.id && created["assigneeId"] as? String == olive.id)
            #expect(created["occurrence"] as? String == "2030-01-01T06:00:00.000Z" && created["lastCompletion"] is NSNull)

            let complete = "mutation($id: UUID!, $o: DateTime) { completeTask(id: $id, occurrence: $o) { \(Self.fields) } }"
            let done = try Self.object(try await server.data(complete, ["id": id, "o": "2030-01-01T06:00:00Z"], token: olive.token), "completeTask")
            #expect(done["completed"] as? Bool == false && done["deadline"] as? String == "2030-01-08T06:00:00.000Z")
            #expect((done["lastCompletion"] as? [String: Any])?["occurrence"] as? String == "2030-01-01T06:00:00.000Z")
            #expect((done["lastCompletion"] as? [String: Any])?["assigneeId"] as? String == olive.id)
            #expect(done["assigneeId"] as? String == mia.id, "the turn passes to Mia")
            let again = try Self.object(try await server.data(complete, ["id": id, "o": "2030-01-01T06:00:00Z"], token: mia.token), "completeTask")
            #expect(again["deadline"] as? String == "2030-01-08T06:00:00.000Z" && (again["completions"] as? [String: Any])?["totalCount"] as? Int == 1)
            let ahead = try await server.error(complete, ["id": id, "o": "2030-01-22T06:00:00Z"], token: mia.token)
            #expect(ahead.code == "BAD_USER_INPUT" && ahead.extensions["field"] as? String == "occurrence")

            let skipped = try Self.object(try await server.data("mutation($id: UUID!) { skipOccurrence(id: $id) { deadline assigneeId } }", ["id": id],
                                                                token: mia.token), "skipOccurrence")
            #expect(skipped["deadline"] as? String == "2030-01-15T06:00:00.000Z" && skipped["assigneeId"] as? String == mia.id)

            // Two phones completed the 15th offline: the second push is a duplicate, the task moved once.
            let push = "mutation($c: UUID!, $m: [ClientMutation!]!) { push(clientId: $c, mutations: $m) { results { id status } } }"
            let op: [String: Any] = ["id": 1, "op": ["completeTask": ["id": id, "occurrence": "2030-01-15T06:00:00Z"]]]
            for expected in ["APPLIED", "DUPLICATE"] {
                let pushed = try await server.data(push, ["c": UUID().uuidString, "m": [op]], token: mia.token)
                #expect(((pushed["push"] as? [String: Any])?["results"] as? [[String: Any]])?.first?["status"] as? String == expected, "\(pushed)")
            }
            let now = try Self.object(try await server.data("query($id: UUID!) { task(id: $id) { \(Self.fields) } }", ["id": id], token: olive.token), "task")
            #expect(now["deadline"] as? String == "2030-01-22T06:00:00.000Z" && now["assigneeId"] as? String == olive.id)
            #expect(((now["completions"] as? [String: Any])?["edges"] as? [[String: Any]])?.compactMap { ($0["node"] as? [String: Any])?["occurrence"] as? String }
                    == ["2030-01-15T06:00:00.000Z", "2030-01-01T06:00:00.000Z"])

            // Olive is away over the 22nd: completing passes over her.
            let away = try await server.data("mutation($h: UUID!) { setAway(householdId: $h, until: \"2030-02-01T00:00:00Z\") { awayUntil } }",
                                             ["h": home], token: olive.token)
            #expect((away["setAway"] as? [String: Any])?["awayUntil"] as? String == "2030-02-01T00:00:00.000Z")
            #expect(try await server.error("mutation($h: UUID!, $u: UUID!) { setAway(householdId: $h, until: null, userId: $u) { awayUntil } }",
                                           ["h": home, "u": olive.id], token: mia.token).code == "FORBIDDEN")
            let last = try Self.object(try await server.data(complete, ["id": id, "o": "2030-01-22T06:00:00Z"], token: mia.token), "completeTask")
            #expect(last["deadline"] as? String == "2030-01-29T06:00:00.000Z" && last["assigneeId"] as? String == mia.id)
            let ended = try Self.object(try await server.data(complete, ["id": id, "o": "2030-01-29T06:00:00Z"], token: mia.token), "completeTask")
            #expect(ended["completed"] as? Bool == true && ended["deadline"] as? String == "2030-01-29T06:00:00.000Z", "UNTIL ends the series")

            let stats = try await server.data("""
                query($h: UUID!) { household(id: $h) { choreStats(from: "2000-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z") {
                  byMember { userId completions } byTask { title completions } } } }
                """, ["h": home], token: olive.token)
            let chores = try #require((stats["household"] as? [String: Any])?["choreStats"] as? [String: Any])
            #expect((chores["byMember"] as? [[String: Any]])?.map { "\($0["userId"] as? String ?? "")=\($0["completions"] as? Int ?? 0)" }
                    == ["\(mia.id)=3", "\(olive.id)=1"])
            #expect((chores["byTask"] as? [[String: Any]])?.map { $0["completions"] as? Int } == [4])

            let bad = try await server.error(create, ["h": home, "i": ["title": "Hourly", "deadline": "2030-01-01T06:00:00Z",
                                                                   "repeat": ["rule": "FREQ=HOURLY"]]], token: olive.token)
            #expect(bad.code == "BAD_USER_INPUT" && bad.extensions["field"] as? String == "repeat.rule", "\(bad.message)")
        }
    }

    @Test func aRepeatingEventIsListedOnceForEachOccurrence() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let olive = try await HouseholdsOverHTTPTests.person(server, "Olive")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, olive)  // Europe/Berlin
            // Sundays at 18:00 in Berlin, four times, not on the 13th.
            let created = try Self.object(try await server.data("""
                mutation($h: UUID!) { createEvent(householdId: $h, input: {title: "Choir", startsAt: "2030-01-06T17:00:00Z", endsAt: "2030-01-06T19:00:00Z",
                  repeat: {rule: "FREQ=WEEKLY;COUNT=4", exceptions: ["2030-01-13T17:00:00Z"]}}) { id } }
                """, ["h": home], token: olive.token), "createEvent")
            let id = try #require(created["id"] as? String)
            let agenda = try await server.data("""
                query($h: UUID!) { agenda(householdId: $h, from: "2030-01-06T18:00:00Z", to: "2030-02-28T00:00:00Z") { id startsAt endsAt occurrence } }
                """, ["h": home], token: olive.token)
            let listed = try #require(agenda["agenda"] as? [[String: Any]])
            #expect(listed.map { $0["id"] as? String } == [id, id, id])
            #expect(listed.map { $0["startsAt"] as? String } == ["2030-01-06T17:00:00.000Z", "2030-01-20T17:00:00.000Z", "2030-01-27T17:00:00.000Z"],
                    "the first overlaps the range's start; the 13th is an exception; COUNT ends it")
            #expect(listed.map { $0["occurrence"] as? String } == listed.map { $0["startsAt"] as? String })
            #expect(listed.last?["endsAt"] as? String == "2030-01-27T19:00:00.000Z")
            let sunday = try await server.data("query($h: UUID!) { occursOn(householdId: $h, date: \"2030-01-20\") { title startsAt } }", ["h": home],
                                               token: olive.token)
            #expect((sunday["occursOn"] as? [[String: Any]])?.map { $0["startsAt"] as? String } == ["2030-01-20T17:00:00.000Z"])
            let fromCompletion = try await server.error("""
                mutation($h: UUID!) { createEvent(householdId: $h, input: {title: "X", repeat: {rule: "FREQ=DAILY", from: COMPLETION}}) { id } }
                """, ["h": home], token: olive.token)
            #expect(fromCompletion.code == "BAD_USER_INPUT" && fromCompletion.extensions["field"] as? String == "repeat.from")
        }
    }
}
