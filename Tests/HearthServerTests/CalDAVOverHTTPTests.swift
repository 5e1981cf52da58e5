import Foundation
import HearthCore
import HearthTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// CalDAV discovery over real HTTP, checked by the `caldav` client library from PyPI (in
/// `.build/python-caldav`, which `make test` installs): from the server's address, an email and
/// an access token to the principal and two calendars per household; Basic with a password is
/// refused; a READ token's calendars are read-only.
@Suite struct CalDAVOverHTTPTests {
    typealias Server = UsersOverHTTPTests.Server
    static let python = CalendarFeedOverHTTPTests.python
    static let discover = DeliveryCryptoTests.root.appendingPathComponent("scripts/clients/caldav_discover.py").path
    static let roundtrip = DeliveryCryptoTests.root.appendingPathComponent("scripts/clients/caldav_roundtrip.py").path
    static let hasClient = ChildProcess.succeeds(python, ["-c", "import caldav"])

    /// Runs a step of caldav_roundtrip.py; its JSON.
    static func roundtrip(_ arguments: [String]) async throws -> [String: Any] {
        let run = try await ChildProcess.run(python, [roundtrip] + arguments)
        #expect(run.status == 0, "\(run.text.suffix(4000))")
        return try #require(try? JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.text.suffix(4000))")
    }

    static func request(_ server: Server, _ method: HTTPRequest.Method, _ path: String, authorization: String?, depth: String? = nil,
                        body: String? = nil, headers extra: HTTPFields = [:]) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, body: String) {
        var headers: HTTPFields = [.contentType: "application/xml"]
        headers.append(contentsOf: extra)
        if let authorization { headers[.authorization] = authorization }
        if let depth, let name = HTTPField.Name("Depth") { headers[name] = depth }
        let response = try await server.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        return (response.status, response.headers, String(buffer: response.body))
    }

    static func basic(_ email: String, _ secret: String) -> String {
        "Basic " + Data("\(email):\(secret)".utf8).base64EncodedString()
    }

    static func token(_ server: Server, _ person: HouseholdsOverHTTPTests.Person, scopes: String) async throws -> String {
        let made = try await server.data("mutation { createAccessToken(input: {name: \"Calendar\", scopes: [\(scopes)]}) { token } }", token: person.token)
        return try #require((made["createAccessToken"] as? [String: Any])?["token"] as? String)
    }

    @Test(.enabled(if: hasClient || DeliveryCryptoTests.isCI, "SKIPPED: needs caldav in .build/python-caldav (make test installs it)"))
    func aCalendarAppFindsTwoCalendarsPerHousehold() async throws {
        try #require(Self.hasClient, "caldav is missing from \(Self.python) (make test installs it)")
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let ben = try await HouseholdsOverHTTPTests.person(server, "Ben")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann, name: "Elm Street")
            try await HouseholdsOverHTTPTests.add(server, ann, home, ben, "VIEWER")
            _ = try await HouseholdsOverHTTPTests.createHousehold(server, ann, name: "Cabin")
            let port = try #require(server.client.port)
            let write = try await Self.token(server, ann, scopes: "READ, WRITE")

            let found = try await ChildProcess.run(Self.python, [Self.discover, "http://127.0.0.1:\(port)/dav/", "ann@example.org", write])
            #expect(found.status == 0, "\(found.text.prefix(3000))")
            let json = try #require(try JSONSerialization.jsonObject(with: found.stdout) as? [String: Any], "\(found.text.prefix(2000))")
            #expect((json["principal"] as? String)?.hasSuffix("/dav/principals/\(ann.id)/") == true, "\(json)")
            let calendars = try #require(json["calendars"] as? [[String: Any]])
            #expect(calendars.map { $0["name"] as? String } == ["Cabin — Tasks", "Cabin — Events", "Elm Street — Tasks", "Elm Street — Events"])
            #expect(calendars.map { $0["components"] as? [String] } == [["VTODO"], ["VEVENT"], ["VTODO"], ["VEVENT"]])
            #expect((calendars[2]["url"] as? String)?.hasSuffix("/dav/calendars/\(ann.id)/\(home)-tasks/") == true)

            // Discovery from the well-known address; what the server says it speaks.
            let wellKnown = try await Self.request(server, .get, "/.well-known/caldav", authorization: nil)
            #expect(wellKnown.status == .movedPermanently && wellKnown.headers[.location] == "/dav/")
            let options = try await Self.request(server, .options, "/dav/", authorization: nil)
            #expect(options.headers[try #require(HTTPField.Name("DAV"))] == "1, 3, calendar-access")
            // No credentials, or a password: 401 asking for Basic.
            let propfind = try #require(HTTPRequest.Method("PROPFIND"))
            let anonymous = try await Self.request(server, propfind, "/dav/", authorization: nil, depth: "0")
            #expect(anonymous.status == .unauthorized && anonymous.headers[.wwwAuthenticate] == #"Basic realm="Hearth""#)
            let password = try await Self.request(server, propfind, "/dav/", authorization: Self.basic("ann@example.org", "correct horse"), depth: "0")
            #expect(password.status == .unauthorized && password.body.contains("access token"))
            let wrongEmail = try await Self.request(server, propfind, "/dav/", authorization: Self.basic("ben@example.org", write), depth: "0")
            #expect(wrongEmail.status == .unauthorized)

            // A viewer's calendars are read-only; the household they are not in is not there; asked-for unknown properties are 404.
            let read = try await Self.token(server, ben, scopes: "READ")
            let body = """
                <?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:x="urn:example"><d:prop><d:displayname/><d:current-user-privilege-set/><x:unknown/></d:prop></d:propfind>
                """
            let listing = try await Self.request(server, propfind, "/dav/calendars/\(ben.id)/", authorization: Self.basic("ben@example.org", read), depth: "1", body: body)
            #expect(listing.status.code == 207)
            #expect(listing.body.contains("Elm Street — Tasks") && !listing.body.contains("Cabin"))
            #expect(listing.body.contains("<d:privilege><d:read/></d:privilege>") && !listing.body.contains("<d:write/>"))
            #expect(listing.body.contains("<x:unknown xmlns:x=\"urn:example\"/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status>"))
            // Another person's calendar home is not found.
            let other = try await Self.request(server, propfind, "/dav/calendars/\(ann.id)/", authorization: Self.basic("ben@example.org", read), depth: "1")
            #expect(other.status == .notFound)
        }
    }

    @Test(.enabled(if: hasClient || DeliveryCryptoTests.isCI, "SKIPPED: needs caldav in .build/python-caldav (make test installs it)"))
    func aCalendarAppWritesTasksAndEventsAndSyncsTheirChanges() async throws {
        try #require(Self.hasClient, "caldav is missing from \(Self.python) (make test installs it)")
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann, name: "Elm Street")
            let port = try #require(server.client.port)
            let write = try await Self.token(server, ann, scopes: "READ, WRITE")
            let account = ["http://127.0.0.1:\(port)/.well-known/caldav", "ann@example.org", write, home]

            // The app saves a task and an event; GraphQL finds them, times read in the household's zone (Europe/Berlin).
            let made = try await Self.roundtrip(["create"] + account)
            let todoURL = try #require(made["todo"] as? String)
            let eventURL = try #require(made["event"] as? String)
            #expect(made["todos"] as? [String] == [todoURL] && made["events"] as? [String] == [eventURL])
            #expect(made["todoCategories"] as? [String] == ["Errands", "Kitchen"])
            // What the app wrote and Hearth does not model comes back as it was (the library gives lines ended by LF).
            let todoLines = try #require(made["todoData"] as? String).split(whereSeparator: \.isNewline)
            #expect(todoLines.contains("X-EXAMPLE-CLIENT-STATE:keep me exactly") && todoLines.contains("X-APPLE-SORT-ORDER:42"), "\(todoLines)")
            #expect(todoLines.contains("UID:roundtrip-todo-1@example.org") && todoLines.contains("TRIGGER;RELATED=END:-PT30M"), "\(todoLines)")
            let day = try await server.data("""
                query($h: UUID!) { occursOn(householdId: $h, date: "2026-11-30") { kind title notes priority deadline remindAt labels { name } completed } }
                """, ["h": home], token: ann.token)
            let task = try #require((day["occursOn"] as? [[String: Any]])?.first, "\(day)")
            #expect(task["title"] as? String == "Buy candles" && task["notes"] as? String == "Beeswax, not paraffin" && task["priority"] as? String == "HIGH")
            #expect((task["deadline"] as? String)?.hasPrefix("2026-11-30T16:00:00") == true, "17:00 in Berlin is 16:00 UTC: \(task)")
            #expect((task["remindAt"] as? String)?.hasPrefix("2026-11-30T15:30:00") == true, "\(task)")
            #expect((task["labels"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Errands", "Kitchen"])
            let evening = try await server.data("""
                query($h: UUID!) { occursOn(householdId: $h, date: "2026-11-29") { kind title startsAt endsAt location } }
                """, ["h": home], token: ann.token)
            let event = try #require((evening["occursOn"] as? [[String: Any]])?.first, "\(evening)")
            #expect(event["kind"] as? String == "EVENT" && event["title"] as? String == "Advent dinner" && event["location"] as? String == "Grandma's")
            #expect((event["startsAt"] as? String)?.hasPrefix("2026-11-29T17:00:00") == true && (event["endsAt"] as? String)?.hasPrefix("2026-11-29T20:00:00") == true)

            // The app renames and completes the task and deletes the event; a sync from the earlier tokens brings exactly that.
            let taskToken = try #require(made["taskToken"] as? String)
            let eventToken = try #require(made["eventToken"] as? String)
            let edited = try await Self.roundtrip(["edit"] + account + [taskToken, eventToken])
            let tasksSync = try #require(edited["tasks"] as? [String: Any])
            let eventsSync = try #require(edited["events"] as? [String: Any])
            #expect(tasksSync["changed"] as? [String] == [todoURL] && tasksSync["deleted"] as? [String] == [], "\(tasksSync)")
            #expect(eventsSync["changed"] as? [String] == [] && eventsSync["deleted"] as? [String] == [eventURL], "\(eventsSync)")
            #expect((edited["todoData"] as? String)?.split(whereSeparator: \.isNewline).contains("X-EXAMPLE-CLIENT-STATE:keep me exactly") == true)
            let after = try await server.data("""
                query($h: UUID!) { tasks(householdId: $h) { edges { node { kind title completed deadline } } } }
                """, ["h": home], token: ann.token)
            let nodes = ((after["tasks"] as? [String: Any])?["edges"] as? [[String: Any]])?.compactMap { $0["node"] as? [String: Any] } ?? []
            #expect(nodes.count == 1, "the event is gone: \(nodes)")
            #expect(nodes.first?["title"] as? String == "Buy beeswax candles" && nodes.first?["completed"] as? Bool == true, "\(nodes)")
            #expect((nodes.first?["deadline"] as? String)?.hasPrefix("2026-11-30T16:00:00") == true)
        }
    }

    static func todo(uid: String, summary: String, extra: String = "") -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nBEGIN:VTODO\r\nUID:\(uid)\r\nSUMMARY:\(summary)\r\n\(extra)END:VTODO\r\nEND:VCALENDAR\r\n"
    }

    @Test func writesFollowTheHouseholdsPermissionsAndETags() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let ben = try await HouseholdsOverHTTPTests.person(server, "Ben")
            let cy = try await HouseholdsOverHTTPTests.person(server, "Cy")
            let dee = try await HouseholdsOverHTTPTests.person(server, "Dee")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann, name: "Elm Street")
            try await HouseholdsOverHTTPTests.add(server, ann, home, ben, "MEMBER")
            try await HouseholdsOverHTTPTests.add(server, ann, home, cy, "VIEWER")
            let annAuth = Self.basic("ann@example.org", try await Self.token(server, ann, scopes: "READ, WRITE"))
            let benAuth = Self.basic("ben@example.org", try await Self.token(server, ben, scopes: "READ, WRITE"))
            let benRead = Self.basic("ben@example.org", try await Self.token(server, ben, scopes: "READ"))
            let cyAuth = Self.basic("cy@example.org", try await Self.token(server, cy, scopes: "READ, WRITE"))
            let deeAuth = Self.basic("dee@example.org", try await Self.token(server, dee, scopes: "READ, WRITE"))
            let annTasks = "/dav/calendars/\(ann.id)/\(home)-tasks/"
            let benTasks = "/dav/calendars/\(ben.id)/\(home)-tasks/"
            let create: HTTPFields = [.ifNoneMatch: "*"]

            // Made once; made again with If-None-Match: * is 412.
            let made = try await Self.request(server, .put, annTasks + "shopping.ics", authorization: annAuth, body: Self.todo(uid: "shopping", summary: "Shopping"),
                                              headers: create)
            #expect(made.status == .created, "\(made.body)")
            let firstTag = try #require(made.headers[.eTag])
            let again = try await Self.request(server, .put, annTasks + "shopping.ics", authorization: annAuth, body: Self.todo(uid: "shopping", summary: "Other"),
                                               headers: create)
            #expect(again.status == .preconditionFailed)

            // A viewer, a READ token and a stranger cannot write; the stranger does not even see the calendar.
            let viewer = try await Self.request(server, .put, "/dav/calendars/\(cy.id)/\(home)-tasks/x.ics", authorization: cyAuth,
                                                body: Self.todo(uid: "x", summary: "X"), headers: create)
            #expect(viewer.status == .forbidden && viewer.body.contains("<d:need-privileges/>"), "\(viewer.body)")
            let readOnly = try await Self.request(server, .put, benTasks + "x.ics", authorization: benRead, body: Self.todo(uid: "x", summary: "X"), headers: create)
            #expect(readOnly.status == .forbidden && readOnly.body.contains("may only read"))
            let stranger = try await Self.request(server, .get, "/dav/calendars/\(dee.id)/\(home)-tasks/shopping.ics", authorization: deeAuth)
            #expect(stranger.status == .notFound)
            let propfind = try #require(HTTPRequest.Method("PROPFIND"))
            let deeHome = try await Self.request(server, propfind, "/dav/calendars/\(dee.id)/", authorization: deeAuth, depth: "1")
            #expect(deeHome.status.code == 207 && !deeHome.body.contains(home))

            // A stale ETag is 412 and changes nothing; fetched again and re-sent with the new one, it applies.
            let fetched = try await Self.request(server, .get, benTasks + "shopping.ics", authorization: benAuth)
            #expect(fetched.status == .ok && fetched.headers[.eTag] == firstTag && fetched.body.contains("SUMMARY:Shopping\r\n"))
            let listed = try await server.data("query($h: UUID!) { tasks(householdId: $h) { edges { node { id } } } }", ["h": home], token: ann.token)
            let taskID = try #require((((listed["tasks"] as? [String: Any])?["edges"] as? [[String: Any]])?.first?["node"] as? [String: Any])?["id"] as? String)
            _ = try await server.data(#"mutation($id: UUID!) { updateTask(id: $id, input: {notes: "Candles"}) { id } }"#, ["id": taskID], token: ann.token)
            let stale = try await Self.request(server, .put, benTasks + "shopping.ics", authorization: benAuth,
                                               body: Self.todo(uid: "shopping", summary: "Big shopping"), headers: [.ifMatch: firstTag])
            #expect(stale.status == .preconditionFailed && stale.body.contains("fetch it"))
            let title = "query($id: UUID!) { task(id: $id) { title notes } }"
            #expect(((try await server.data(title, ["id": taskID], token: ann.token))["task"] as? [String: Any])?["title"] as? String == "Shopping")
            let refetched = try await Self.request(server, .get, benTasks + "shopping.ics", authorization: benAuth)
            #expect(refetched.body.contains("DESCRIPTION:Candles\r\n"))
            let newTag = try #require(refetched.headers[.eTag])
            #expect(newTag != firstTag)
            let applied = try await Self.request(server, .put, benTasks + "shopping.ics", authorization: benAuth,
                                                 body: Self.todo(uid: "shopping", summary: "Big shopping", extra: "DESCRIPTION:Candles\r\n"), headers: [.ifMatch: newTag])
            #expect(applied.status == .noContent && applied.headers[.eTag] != newTag)
            let task = (try await server.data(title, ["id": taskID], token: ann.token))["task"] as? [String: Any]
            #expect(task?["title"] as? String == "Big shopping" && task?["notes"] as? String == "Candles")

            // What is not an item Hearth can keep is refused with the precondition that names why.
            let broken = try await Self.request(server, .put, annTasks + "broken.ics", authorization: annAuth,
                                                body: "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:b\r\nSUMMARY\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
            #expect(broken.status == .badRequest && broken.body.contains("<c:valid-calendar-data/>") && broken.body.contains("line 5"), "\(broken.body)")
            let annEvents = "/dav/calendars/\(ann.id)/\(home)-events/"
            let todoAsEvent = try await Self.request(server, .put, annEvents + "t.ics", authorization: annAuth, body: Self.todo(uid: "t", summary: "T"))
            #expect(todoAsEvent.status == .forbidden && todoAsEvent.body.contains("<c:supported-calendar-component/>"), "\(todoAsEvent.body)")
            let noStart = try await Self.request(server, .put, annEvents + "e.ics", authorization: annAuth,
                                                 body: "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:e\r\nSUMMARY:E\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
            #expect(noStart.status == .forbidden && noStart.body.contains("<c:valid-calendar-object-resource/>") && noStart.body.contains("DTSTART"))
            // Repeating is kept (CalDAVRecurrenceTests); a rule finer than daily, and RDATE, are not.
            let hourly = try await Self.request(server, .put, annTasks + "r.ics", authorization: annAuth,
                                                body: Self.todo(uid: "r", summary: "Bins", extra: "DUE:20261201T070000Z\r\nRRULE:FREQ=HOURLY\r\n"))
            #expect(hourly.status == .forbidden && hourly.body.contains("<c:supported-calendar-component/>") && hourly.body.contains("FREQ"), "\(hourly.body)")
            let dates = try await Self.request(server, .put, annTasks + "r.ics", authorization: annAuth,
                                               body: Self.todo(uid: "r", summary: "Bins", extra: "DUE:20261201T070000Z\r\nRRULE:FREQ=WEEKLY\r\nRDATE:20261205T070000Z\r\n"))
            #expect(dates.status == .forbidden && dates.body.contains("RDATE"), "\(dates.body)")
            let sameUID = try await Self.request(server, .put, annTasks + "copy.ics", authorization: annAuth, body: Self.todo(uid: "shopping", summary: "Copy"))
            #expect(sameUID.status == .forbidden && sameUID.body.contains("<c:no-uid-conflict><d:href>shopping.ics</d:href>"), "\(sameUID.body)")

            // Members may not delete (as in the API); a stale If-Match is 412; the owner's current one deletes.
            let memberDelete = try await Self.request(server, .delete, benTasks + "shopping.ics", authorization: benAuth)
            #expect(memberDelete.status == .forbidden)
            let staleDelete = try await Self.request(server, .delete, annTasks + "shopping.ics", authorization: annAuth, headers: [.ifMatch: newTag])
            #expect(staleDelete.status == .preconditionFailed)
            let current = try #require(try await Self.request(server, .get, annTasks + "shopping.ics", authorization: annAuth).headers[.eTag])
            let deleted = try await Self.request(server, .delete, annTasks + "shopping.ics", authorization: annAuth, headers: [.ifMatch: current])
            #expect(deleted.status == .noContent)
            #expect(try await Self.request(server, .get, annTasks + "shopping.ics", authorization: annAuth).status == .notFound)

            // A token that is not one Hearth gave is 403 DAV:valid-sync-token.
            let report = try #require(HTTPRequest.Method("REPORT"))
            let badToken = try await Self.request(server, report, annTasks, authorization: annAuth, body: Self.sync(token: "http://hearth.invalid/ns/sync/nonsense"))
            #expect(badToken.status == .forbidden && badToken.body.contains("<d:valid-sync-token/>"))

            // A revoked token is refused at once.
            let revocable = try await server.data("mutation { createAccessToken(input: {name: \"Phone\", scopes: [READ]}) { token accessToken { id } } }", token: ann.token)
            let created = try #require(revocable["createAccessToken"] as? [String: Any])
            let phone = Self.basic("ann@example.org", try #require(created["token"] as? String))
            #expect(try await Self.request(server, propfind, annTasks, authorization: phone, depth: "0").status.code == 207)
            let id = try #require((created["accessToken"] as? [String: Any])?["id"] as? String)
            _ = try await server.data("mutation($id: UUID!) { revokeAccessToken(id: $id) { id } }", ["id": id], token: ann.token)
            #expect(try await Self.request(server, propfind, annTasks, authorization: phone, depth: "0").status == .unauthorized)
        }
    }

    static func sync(token: String, limit: Int? = nil) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>\(token)</d:sync-token><d:sync-level>1</d:sync-level>\
        \(limit.map { "<d:limit><d:nresults>\($0)</d:nresults></d:limit>" } ?? "")<d:prop><d:getetag/></d:prop></d:sync-collection>
        """
    }

    @Test func aLimitedSyncIsTruncatedAndContinued() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann, name: "Elm Street")
            let auth = Self.basic("ann@example.org", try await Self.token(server, ann, scopes: "READ, WRITE"))
            let tasks = "/dav/calendars/\(ann.id)/\(home)-tasks/"
            for name in ["a", "b", "c"] {
                let made = try await Self.request(server, .put, tasks + name + ".ics", authorization: auth, body: Self.todo(uid: name, summary: name.uppercased()))
                #expect(made.status == .created)
            }
            let report = try #require(HTTPRequest.Method("REPORT"))
            func hrefs(_ body: String) -> [String] {
                body.components(separatedBy: "<d:href>").dropFirst().compactMap { $0.components(separatedBy: "</d:href>").first }
            }
            func token(_ body: String) throws -> String {
                try #require(body.components(separatedBy: "<d:sync-token>").last?.components(separatedBy: "</d:sync-token>").first)
            }
            let first = try await Self.request(server, report, tasks, authorization: auth, body: Self.sync(token: "", limit: 2))
            #expect(first.status.code == 207)
            #expect(hrefs(first.body) == [tasks + "a.ics", tasks + "b.ics", tasks], "\(first.body)")
            #expect(first.body.contains("<d:status>HTTP/1.1 507 Insufficient Storage</d:status>"))
            let rest = try await Self.request(server, report, tasks, authorization: auth, body: Self.sync(token: try token(first.body), limit: 2))
            #expect(hrefs(rest.body) == [tasks + "c.ics"] && !rest.body.contains("507"), "\(rest.body)")
            // Up to date: nothing; after a deletion, exactly that.
            let quiet = try await Self.request(server, report, tasks, authorization: auth, body: Self.sync(token: try token(rest.body)))
            #expect(hrefs(quiet.body) == [], "\(quiet.body)")
            #expect(try await Self.request(server, .delete, tasks + "b.ics", authorization: auth).status == .noContent)
            let gone = try await Self.request(server, report, tasks, authorization: auth, body: Self.sync(token: try token(quiet.body)))
            #expect(hrefs(gone.body) == [tasks + "b.ics"] && gone.body.contains("<d:status>HTTP/1.1 404 Not Found</d:status>"), "\(gone.body)")
        }
    }

    @Test func subtasksAreTheirOwnVTODOsRelatedToTheirTask() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann, name: "Elm Street")
            let auth = Self.basic("ann@example.org", try await Self.token(server, ann, scopes: "READ, WRITE"))
            let made = try await server.data(#"mutation($h: UUID!) { createTask(householdId: $h, input: {title: "Shopping", subtasks: ["Milk", "Eggs"]}) { id subtasks { id title } } }"#,
                                             ["h": home], token: ann.token)
            let task = try #require(made["createTask"] as? [String: Any])
            let taskID = try #require(task["id"] as? String)
            let milk = try #require((task["subtasks"] as? [[String: Any]])?.first?["id"] as? String)
            let tasks = "/dav/calendars/\(ann.id)/\(home)-tasks/"
            let report = try #require(HTTPRequest.Method("REPORT"))
            func sync(_ token: String) async throws -> MultistatusReader {
                let answer = try await Self.request(server, report, tasks, authorization: auth, body: Self.sync(token: token))
                return try #require(MultistatusReader(answer.body), "\(answer.body)")
            }
            let first = try await sync("")
            #expect(Set(first.responses.map(\.href)).count == 3, "the task and its two steps")
            let step = try await Self.request(server, .get, tasks + milk + ".ics", authorization: auth)
            #expect(step.status == .ok && step.body.contains("SUMMARY:Milk\r\n") && step.body.contains("RELATED-TO;RELTYPE=PARENT:\(taskID)\r\n"))
            let token = try #require(first.syncToken)

            // A step added in the app: a VTODO related to the task becomes its subtask, under the app's name.
            let added = try await Self.request(server, .put, tasks + "bread.ics", authorization: auth, body: Self.todo(uid: "bread-1", summary: "Bread",
                                               extra: "RELATED-TO;RELTYPE=PARENT:\(taskID)\r\nX-APP-STATE:1\r\n"), headers: [.ifNoneMatch: "*"])
            #expect(added.status == .created)
            let steps = "query($id: UUID!) { task(id: $id) { subtasks { title done } } }"
            func titles() async throws -> [String] {
                let read = try await server.data(steps, ["id": taskID], token: ann.token)
                return (((read["task"] as? [String: Any])?["subtasks"] as? [[String: Any]]) ?? []).map { "\($0["title"] ?? "")\($0["done"] as? Bool == true ? " ✓" : "")" }
            }
            #expect(try await titles() == ["Milk", "Eggs", "Bread"])
            let bread = try await Self.request(server, .get, tasks + "bread.ics", authorization: auth)
            #expect(bread.body.contains("UID:bread-1\r\n") && bread.body.contains("X-APP-STATE:1\r\n"))
            // Ticked off with its ETag; then removed.
            let done = Self.todo(uid: "bread-1", summary: "Bread", extra: "STATUS:COMPLETED\r\nRELATED-TO;RELTYPE=PARENT:\(taskID)\r\nX-APP-STATE:2\r\n")
            let ticked = try await Self.request(server, .put, tasks + "bread.ics", authorization: auth, body: done, headers: [.ifMatch: try #require(bread.headers[.eTag])])
            #expect(ticked.status == .noContent)
            #expect(try await titles() == ["Milk", "Eggs", "Bread ✓"])
            let changed = try await sync(token)
            #expect(Set(changed.responses.map(\.href)) == [tasks + "bread.ics", tasks + taskID + ".ics", tasks + milk + ".ics",
                                                           tasks + "\(((task["subtasks"] as? [[String: Any]])?.last?["id"] as? String) ?? "").ics"],
                    "the new step, and the task whose version moved with it (and its other steps, whose ETag is the task's)")
            let removed = try await Self.request(server, .delete, tasks + "bread.ics", authorization: auth)
            #expect(removed.status == .noContent)
            #expect(try await titles() == ["Milk", "Eggs"])
            let gone = try await sync(try #require(changed.syncToken))
            #expect(gone.response(tasks + "bread.ics")?.status == 404, "\(gone.responses.map { ($0.href, $0.status as Any) })")
        }
    }

    /// Phones that save the same new item at once: one makes it, the others are told it exists (412), none fails.
    @Test func concurrentCreatesOfOneNameMakeOneItem() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann, name: "Elm Street")
            let auth = Self.basic("ann@example.org", try await Self.token(server, ann, scopes: "READ, WRITE"))
            let path = "/dav/calendars/\(ann.id)/\(home)-tasks/same.ics"
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for phone in 0..<6 {
                    group.addTask {
                        try await Self.request(server, .put, path, authorization: auth, body: Self.todo(uid: "same", summary: "Phone \(phone)"),
                                               headers: [.ifNoneMatch: "*"]).status.code
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.sorted() == [201, 412, 412, 412, 412, 412], "\(statuses)")
            let listed = try await server.data("query($h: UUID!) { tasks(householdId: $h) { totalCount } }", ["h": home], token: ann.token)
            #expect((listed["tasks"] as? [String: Any])?["totalCount"] as? Int == 1)
        }
    }
}
