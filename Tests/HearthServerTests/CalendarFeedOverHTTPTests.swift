import Foundation
import HearthCore
import HearthTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// Private calendar feeds over HTTP: made through GraphQL (the address shown once), read by a
/// calendar app with the token alone and parsed by `icalendar` from PyPI (in `.build/python-caldav`,
/// which `make test` installs) — open tasks with deadlines and events, in the household's zone;
/// an unchanged feed is 304; what its owner can no longer read leaves it; a revoked feed is 404.
@Suite struct CalendarFeedOverHTTPTests {
    typealias Server = UsersOverHTTPTests.Server
    static let python = DeliveryCryptoTests.root.appendingPathComponent(".build/python-caldav/bin/python").path
    static let reader = DeliveryCryptoTests.root.appendingPathComponent("scripts/clients/icalendar_read.py").path
    static let hasReader = ChildProcess.succeeds(python, ["-c", "import icalendar"])

    static func get(_ server: Server, _ path: String, ifNoneMatch: String? = nil) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, body: String) {
        var headers = HTTPFields()
        if let ifNoneMatch { headers[.ifNoneMatch] = ifNoneMatch }
        let response = try await server.execute(uri: path, method: .get, headers: headers)
        return (response.status, response.headers, String(buffer: response.body))
    }

    /// The feed as `icalendar` reads it.
    static func read(_ ics: String) async throws -> [String: Any] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-feed-\(UUID().uuidString).ics")
        try Data(ics.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await ChildProcess.run(python, [reader, file.path])
        #expect(result.status == 0, "\(result.text.prefix(2000))")
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.text.prefix(2000))")
        #expect((json["errors"] as? [String])?.isEmpty == true, "\(json["errors"] ?? "")")
        return json
    }

    @Test(.enabled(if: hasReader || DeliveryCryptoTests.isCI, "SKIPPED: needs icalendar in .build/python-caldav (make test installs it)"))
    func aFeedShowsOpenTasksWithDeadlinesAndEventsInTheHouseholdsZone() async throws {
        try #require(Self.hasReader, "icalendar is missing from \(Self.python) (make test installs it)")
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let ben = try await HouseholdsOverHTTPTests.person(server, "Ben")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann)
            try await HouseholdsOverHTTPTests.add(server, ann, home, ben, "MEMBER")
            let other = try await HouseholdsOverHTTPTests.createHousehold(server, ann, name: "Cabin")
            // 2030-03-01 09:30 UTC is 10:30 in Berlin.
            let create = "mutation($h: UUID!, $i: TaskInput!) { createTask(householdId: $h, input: $i) { id } }"
            let bins = try await server.data(create, ["h": home, "i": ["title": "Bins out; then, coffee", "deadline": "2030-03-01T09:30:00Z",
                                                                         "labels": ["Chores", "Outside"], "priority": "HIGH", "notes": "Green bin\nand blue"]], token: ann.token)
            _ = try await server.data(create, ["h": home, "i": ["title": "Someday"]], token: ann.token)
            let done = try await server.data(create, ["h": home, "i": ["title": "Done already", "deadline": "2030-03-02T09:30:00Z"]], token: ann.token)
            _ = try await server.data("mutation($t: UUID!) { completeTask(id: $t) { id } }", ["t": try #require((done["createTask"] as? [String: Any])?["id"])],
                                      token: ann.token)
            _ = try await server.data("mutation($h: UUID!, $i: EventInput!) { createEvent(householdId: $h, input: $i) { id } }", ["h": home, "i": [
                "title": "Parents' evening", "startsAt": "2030-03-03T17:00:00Z", "endsAt": "2030-03-03T18:30:00Z", "location": "School hall",
            ]], token: ann.token)
            _ = try await server.data(create, ["h": other, "i": ["title": "Cabin chores", "deadline": "2030-03-04T09:30:00Z"]], token: ann.token)

            // Ben's feed of the household they share; the address is absolute and shown once.
            let made = try await server.data("mutation($h: UUID!) { createCalendarFeed(input: {name: \"Home\", householdIds: [$h]}) { url feed { id name kinds householdIds } } }",
                                             ["h": home], token: ben.token)
            let created = try #require(made["createCalendarFeed"] as? [String: Any])
            let url = try #require(created["url"] as? String)
            #expect(url.hasPrefix("http") && url.contains("/feeds/") && url.hasSuffix(".ics"), "\(url)")
            let path = String(url[try #require(url.range(of: "/feeds/")).lowerBound...])
            #expect((created["feed"] as? [String: Any])?["kinds"] as? [String] == ["TASK", "EVENT"])
            // A household Ben is not in is refused.
            let refused = try await server.error("mutation($h: UUID!) { createCalendarFeed(input: {name: \"Cabin\", householdIds: [$h]}) { url } }", ["h": other],
                                                 token: ben.token)
            #expect(refused.code == "BAD_USER_INPUT")

            let first = try await Self.get(server, path)
            #expect(first.status == .ok && first.headers[.contentType] == "text/calendar; charset=utf-8", "\(first.status) \(first.body) \(path)")
            let etag = try #require(first.headers[.eTag])
            let calendar = try await Self.read(first.body)
            #expect(calendar["name"] as? String == "Home" && calendar["ttl"] as? String == "PT15M")
            #expect(calendar["timezones"] as? [String] == ["Europe/Berlin"])
            let events = try #require(calendar["events"] as? [[String: Any]])
            #expect(events.map { $0["summary"] as? String } == ["Bins out; then, coffee", "Parents' evening"])
            let task = events[0]
            #expect(task["uid"] as? String == "\(try #require((bins["createTask"] as? [String: Any])?["id"] as? String))@hearth")
            #expect(task["start"] as? String == "2030-03-01T09:30:00Z" && task["tzid"] as? String == "Europe/Berlin" && task["end"] is NSNull)
            #expect(task["categories"] as? [String] == ["Chores", "Outside"] && task["priority"] as? Int == 1 && task["description"] as? String == "Green bin\nand blue")
            let event = events[1]
            #expect(event["start"] as? String == "2030-03-03T17:00:00Z" && event["end"] as? String == "2030-03-03T18:30:00Z" && event["location"] as? String == "School hall")

            // Unchanged: 304 to the same tag. A change: a new tag and the new item.
            #expect(try await Self.get(server, path, ifNoneMatch: etag).status == .notModified)
            _ = try await server.data(create, ["h": home, "i": ["title": "Call the plumber", "deadline": "2030-03-05T08:00:00Z"]], token: ann.token)
            let second = try await Self.get(server, path, ifNoneMatch: etag)
            #expect(second.status == .ok && second.headers[.eTag] != etag)
            #expect((try await Self.read(second.body)["events"] as? [[String: Any]])?.count == 3)
            let listed = try await server.data("{ calendarFeeds { name lastFetchedAt } }", token: ben.token)
            #expect(((listed["calendarFeeds"] as? [[String: Any]])?.first?["lastFetchedAt"] as? String)?.isEmpty == false)

            // Ben leaves: the feed still answers, with nothing of that household. Revoked: 404 at once.
            _ = try await server.data("mutation($h: UUID!, $u: UUID!) { removeMember(householdId: $h, userId: $u) }", ["h": home, "u": ben.id], token: ann.token)
            #expect((try await Self.read(try await Self.get(server, path).body)["events"] as? [[String: Any]])?.isEmpty == true)
            let id = try #require((created["feed"] as? [String: Any])?["id"] as? String)
            _ = try await server.data("mutation($f: UUID!) { revokeCalendarFeed(id: $f) { id } }", ["f": id], token: ben.token)
            #expect(try await Self.get(server, path).status == .notFound)
            #expect(try await Self.get(server, "/feeds/not-a-feed.ics").status == .notFound)
        }
    }

    @Test(.enabled(if: hasReader || DeliveryCryptoTests.isCI, "SKIPPED: needs icalendar in .build/python-caldav (make test installs it)"))
    func aFeedCarriesTheRulesOfRepeatingItems() async throws {
        try #require(Self.hasReader, "icalendar is missing from \(Self.python) (make test installs it)")
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann)  // Europe/Berlin
            // A series that began years ago is in the feed all the same: its rule brings its occurrences.
            _ = try await server.data("mutation($h: UUID!, $i: EventInput!) { createEvent(householdId: $h, input: $i) { id } }", ["h": home, "i": [
                "title": "Choir", "startsAt": "2020-01-06T17:00:00Z", "endsAt": "2020-01-06T19:00:00Z",
                "repeat": ["rule": "FREQ=WEEKLY", "exceptions": ["2020-01-13T17:00:00Z"]],
            ]], token: ann.token)
            _ = try await server.data("mutation($h: UUID!, $i: TaskInput!) { createTask(householdId: $h, input: $i) { id } }", ["h": home, "i": [
                "title": "Bins", "deadline": "2030-01-01T06:00:00Z", "repeat": ["rule": "FREQ=WEEKLY;COUNT=10"],
            ]], token: ann.token)
            let made = try await server.data("mutation($h: UUID!) { createCalendarFeed(input: {name: \"Home\", householdIds: [$h]}) { url } }",
                                             ["h": home], token: ann.token)
            let url = try #require((made["createCalendarFeed"] as? [String: Any])?["url"] as? String)
            let feed = try await Self.get(server, String(url[try #require(url.range(of: "/feeds/")).lowerBound...]))
            #expect(feed.body.contains("RRULE:FREQ=WEEKLY\r\nEXDATE;TZID=Europe/Berlin:20200113T180000\r\n"), "\(feed.body)")
            #expect(feed.body.contains("RRULE:FREQ=WEEKLY;COUNT=10\r\n"), "\(feed.body)")
            let events = try #require(try await Self.read(feed.body)["events"] as? [[String: Any]])
            #expect(events.compactMap { $0["summary"] as? String }.sorted() == ["Bins", "Choir"])
        }
    }
}
