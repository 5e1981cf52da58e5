import Foundation
import HearthCore
import HearthTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// A household moved between two servers over HTTP: exported by its owner on one (others refused),
/// imported on the other as a new household — the same tasks, events, subtasks, labels, reminders,
/// completion and stores; members matched by email, the rest invited — and a bad document refused
/// with where it is wrong, nothing written. Also `hearth household import`.
@Suite struct HouseholdTransferOverHTTPTests {
    typealias Server = UsersOverHTTPTests.Server

    static func request(_ server: Server, _ method: HTTPRequest.Method, _ path: String, token: String?, body: Data? = nil)
        async throws -> (status: HTTPResponse.Status, headers: HTTPFields, body: Data) {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        let response = try await server.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(data: $0) })
        return (response.status, response.headers, Data(buffer: response.body))
    }

    static func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// A household with what an export carries, on `server`: Ann owns it, Ben is a member, Cat a viewer.
    static func seed(_ server: Server) async throws -> (ann: HouseholdsOverHTTPTests.Person, ben: HouseholdsOverHTTPTests.Person, home: String) {
        let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
        let ben = try await HouseholdsOverHTTPTests.person(server, "Ben")
        let cat = try await HouseholdsOverHTTPTests.person(server, "Cat")
        let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann)
        try await HouseholdsOverHTTPTests.add(server, ann, home, ben, "MEMBER")
        try await HouseholdsOverHTTPTests.add(server, ann, home, cat, "VIEWER")
        _ = try await server.data(#"mutation($h: UUID!) { createLabel(householdId: $h, name: "Garden", color: "green") { id } }"#, ["h": home], token: ann.token)
        let later = ISO8601DateFormatter().string(from: server.clock.now.addingTimeInterval(86_400 * 3))
        let shop = try await server.data("mutation($h: UUID!, $i: TaskInput!) { createTask(householdId: $h, input: $i) { id subtasks { id } } }", ["h": home, "i": [
            "title": "Weekly shop", "notes": "Oat milk", "priority": "HIGH", "deadline": later, "estimateMinutes": 45, "assigneeId": ben.id,
            "labels": ["Groceries", "Urgent"], "remindAt": later, "subtasks": ["Milk", "Bread", "Eggs"],
        ]], token: ann.token)
        let subtask = try #require((((shop["createTask"] as? [String: Any])?["subtasks"] as? [[String: Any]])?.first?["id"]) as? String)
        _ = try await server.data("mutation($s: UUID!) { updateSubtask(id: $s, done: true) { id } }", ["s": subtask], token: ben.token)
        let done = try await server.data("mutation($h: UUID!) { createTask(householdId: $h, input: {title: \"Call the plumber\", labels: [\"Garden\"]}) { id } }",
                                         ["h": home], token: ben.token)
        _ = try await server.data("mutation($t: UUID!) { completeTask(id: $t) { id } }", ["t": try #require((done["createTask"] as? [String: Any])?["id"])],
                                  token: ben.token)
        _ = try await server.data("mutation($h: UUID!, $i: EventInput!) { createEvent(householdId: $h, input: $i) { id } }", ["h": home, "i": [
            "title": "Parents' evening", "startsAt": later, "endsAt": ISO8601DateFormatter().string(from: server.clock.now.addingTimeInterval(86_400 * 3 + 5400)),
            "location": "School hall",
        ]], token: ann.token)
        // Stores are watched by domain (the catalog comes back by syncing): written here as an add leaves them.
        try await server.database.client.query("""
            INSERT INTO stores (id, household_id, domain, name, created_at, next_sync_at, sync_count)
            VALUES (gen_random_uuid(), \(UUID(uuidString: home)), 'allbirds.com', 'Allbirds', now(), now() + interval '1 day', 3)
            """, logger: server.database.logger)
        return (ann, ben, home)
    }

    /// What must come across: the document without the moment it was made, items in title order.
    static func comparable(_ document: HouseholdExport) -> HouseholdExport {
        var document = document
        document.exportedAt = Date(timeIntervalSince1970: 0)
        document.items.sort { $0.title < $1.title }
        return document
    }

    @Test func aHouseholdMovesToAnotherServerWithItsTasksLabelsAndStores() async throws {
        try await UsersOverHTTPTests.withServer { a in
            let (ann, ben, home) = try await Self.seed(a)
            // Owners only: a member is refused, a stranger is not told it exists, no token is unauthenticated.
            #expect(try await Self.request(a, .get, "/households/\(home)/export", token: ben.token).status == .forbidden)
            #expect(try await Self.request(a, .get, "/households/\(home)/export", token: nil).status == .unauthorized)
            let exported = try await Self.request(a, .get, "/households/\(home)/export", token: ann.token)
            #expect(exported.status == .ok)
            #expect(exported.headers[.contentDisposition]?.hasPrefix("attachment; filename=\"hearth-household-home-") == true)
            let document = try HouseholdExport.read(exported.body)
            #expect(document.members.map(\.email) == ["ann@example.org", "ben@example.org", "cat@example.org"])
            #expect(document.items.count == 3 && document.labels.map(\.name) == ["Garden", "Groceries", "Urgent"] && document.stores.map(\.domain) == ["allbirds.com"])

            try Self.checkAgainstTheSchema(exported.body)

            try await UsersOverHTTPTests.withServer { b in
                let annB = try await HouseholdsOverHTTPTests.person(b, "Ann")
                let benB = try await HouseholdsOverHTTPTests.person(b, "Ben")
                let imported = try await Self.request(b, .post, "/households/import", token: annB.token, body: exported.body)
                #expect(imported.status == .created, "\(String(decoding: imported.body, as: UTF8.self))")
                let answer = try Self.json(imported.body)
                #expect(answer["items"] as? Int == 3 && answer["labels"] as? Int == 3 && answer["stores"] as? Int == 1)
                // Nobody is added: Ben (who has an account here) and Cat (who has none) are both invited, alike.
                #expect(answer["members"] == nil)
                let invitations = try #require(answer["invitations"] as? [[String: Any]])
                #expect(invitations.map { "\($0["email"] ?? "") \($0["role"] ?? "")" } == ["ben@example.org MEMBER", "cat@example.org VIEWER"])
                // Ben's assignment and completion are left out, and the answer says which.
                let dropped = try #require(answer["dropped"] as? [[String: Any]]).map { entry in
                    "\(document.items[entry["item"] as? Int ?? -1].title) \(entry["field"] ?? "") \(entry["email"] ?? "")"
                }
                #expect(Set(dropped) == ["Weekly shop assignee ben@example.org", "Call the plumber completedBy ben@example.org"])
                let newHome = try #require(answer["householdId"] as? String)
                #expect(newHome != home)

                // The same household, read back the same way, but for the people: Ann alone, Ben's name off the items.
                let again = try HouseholdExport.read(try await Self.request(b, .get, "/households/\(newHome)/export", token: annB.token).body)
                var expected = Self.comparable(document)
                expected.members.removeAll { $0.email != "ann@example.org" }
                for index in expected.items.indices {
                    if expected.items[index].assignee == "ben@example.org" { expected.items[index].assignee = nil }
                    if expected.items[index].completedBy == "ben@example.org" { expected.items[index].completedBy = nil }
                }
                #expect(Self.comparable(again) == expected)
                #expect(try await b.database.strings("SELECT user_id::text FROM household_members") == [annB.id])
                // Ben and Cat join with their invitations, as whom the document said.
                let cat = try await HouseholdsOverHTTPTests.person(b, "Cat")
                for (person, invitation, role) in [(benB, invitations[0], "MEMBER"), (cat, invitations[1], "VIEWER")] {
                    let joined = try await b.data("mutation($c: String!) { acceptInvitation(code: $c) { id myRole } }",
                                                  ["c": try #require(invitation["code"])], token: person.token)
                    #expect((joined["acceptInvitation"] as? [String: Any])?["myRole"] as? String == role)
                }
                // Ben sees the tasks and subtasks over the API, his subtask done.
                let tasks = try await b.data("query($h: UUID!) { tasks(householdId: $h, filter: {search: \"Weekly\"}) { edges { node { title assigneeId subtasks { title done } labels { name } } } } }",
                                             ["h": newHome], token: benB.token)
                let node = (((tasks["tasks"] as? [String: Any])?["edges"] as? [[String: Any]])?.first?["node"]) as? [String: Any]
                #expect(node?["title"] as? String == "Weekly shop" && node?["assigneeId"] is NSNull)
                #expect((node?["subtasks"] as? [[String: Any]])?.map { "\($0["title"] ?? "") \($0["done"] as? Bool == true)" } == ["Milk true", "Bread false", "Eggs false"])

                // The store is due at once, and its first sync reports no changes (as adding a store does).
                let due = try await b.database.strings("SELECT domain || ' ' || (next_sync_at <= now())::text || ' ' || sync_count::text FROM stores")
                #expect(due == ["allbirds.com true 0"])
            }
        }
    }

    /// The export's objects have the keys docs/household-export.schema.json lists (no more; the required ones).
    static func checkAgainstTheSchema(_ export: Data) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/household-export.schema.json")
        let schema = try json(try Data(contentsOf: path))
        func check(_ value: [String: Any], _ schema: [String: Any], _ at: String) {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            #expect(Set(value.keys).isSubset(of: properties.keys), "\(at): \(Set(value.keys).subtracting(properties.keys)) are not in the schema")
            #expect(Set(schema["required"] as? [String] ?? []).isSubset(of: value.keys), "\(at): a required key is missing")
            for (key, child) in value {
                let described = properties[key] as? [String: Any] ?? [:]
                if let object = child as? [String: Any] { check(object, described, at + "." + key) }
                if let array = child as? [[String: Any]], let items = described["items"] as? [String: Any] {
                    for (index, element) in array.enumerated() { check(element, items, "\(at).\(key)[\(index)]") }
                }
            }
        }
        check(try json(export), schema, "export")
    }

    @Test func aBadDocumentIsRefusedWhereItIsWrongAndNothingIsWritten() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let item = ["kind": "TASK", "title": "Fine", "priority": "NONE", "createdAt": "2026-01-01T00:00:00Z", "labels": [String](), "subtasks": [Any]()] as [String: Any]
            var blank = item
            blank["title"] = "  "
            func document(_ items: [[String: Any]], version: Int = 1) throws -> Data {
                try JSONSerialization.data(withJSONObject: [
                    "format": "hearth-household", "version": version, "exportedAt": "2026-11-26T10:00:00Z",
                    "household": ["name": "Home", "description": "", "timeZone": "Europe/Berlin"],
                    "members": [[String: Any]](), "labels": [[String: Any]](), "items": items, "stores": [[String: Any]](),
                ] as [String: Any])
            }
            let refused = try await Self.request(server, .post, "/households/import", token: ann.token, body: try document([item, blank]))
            #expect(refused.status == .badRequest)
            let answer = try Self.json(refused.body)
            #expect(answer["field"] as? String == "items[1].title" && answer["code"] as? String == "BAD_USER_INPUT", "\(answer)")
            let newer = try Self.json(try await Self.request(server, .post, "/households/import", token: ann.token, body: try document([item], version: 2)).body)
            #expect(newer["error"] as? String == "This export is version 2, made by a newer Hearth; this one reads up to 1.")
            let notOne = try Self.json(try await Self.request(server, .post, "/households/import", token: ann.token, body: Data("[1, 2]".utf8)).body)
            #expect(notOne["field"] as? String == "document")
            #expect(try await Self.request(server, .post, "/households/import", token: nil, body: try document([item])).status == .unauthorized)
            #expect(try await server.database.strings("SELECT name FROM households").isEmpty)
            // The same document, mended, is taken.
            #expect(try await Self.request(server, .post, "/households/import", token: ann.token, body: try document([item])).status == .created)
            #expect(try await server.database.strings("SELECT title FROM task_items") == ["Fine"])
        }
    }

    /// A small document naming `members` (email and role) and items assigned to them, due for a reminder in a minute.
    static func document(members: [(String, String)], now: Date, labels: [String] = []) throws -> Data {
        let soon = ISO8601DateFormatter().string(from: now.addingTimeInterval(60))
        return try JSONSerialization.data(withJSONObject: [
            "format": "hearth-household", "version": 1, "exportedAt": "2026-11-26T10:00:00Z",
            "household": ["name": "Totally your family", "description": "", "timeZone": "UTC"],
            "members": members.map { ["name": "Someone", "email": $0.0, "role": $0.1] }, "labels": [[String: Any]](),
            "items": members.map { member in
                ["kind": "TASK", "title": "Buy gift cards for \(member.0)", "priority": "HIGH", "createdAt": "2026-01-01T00:00:00Z", "assignee": member.0,
                 "remindAt": soon, "reminderDueAt": soon, "labels": labels, "subtasks": [Any]()] as [String: Any]
            },
            "stores": [[String: Any]](),
        ] as [String: Any])
    }

    @Test func anImportAddsNobodyButTheImporterAndTellsNothingOfWhoHasAnAccount() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let mallory = try await HouseholdsOverHTTPTests.person(server, "Mallory")
            let victim = try await HouseholdsOverHTTPTests.person(server, "Victim")
            let body = try Self.document(members: [("victim@example.org", "OWNER"), ("nobody@example.org", "OWNER")], now: server.clock.now)
            let imported = try await Self.request(server, .post, "/households/import", token: mallory.token, body: body)
            #expect(imported.status == .created, "\(String(decoding: imported.body, as: UTF8.self))")
            let answer = try Self.json(imported.body)
            // The victim (an account) and nobody (none) are answered alike: an invitation each, an assignment dropped each.
            let invitations = try #require(answer["invitations"] as? [[String: Any]])
            #expect(invitations.map { Set($0.keys) } == [["email", "role", "code"], ["email", "role", "code"]])
            #expect(invitations.map { $0["email"] as? String } == ["victim@example.org", "nobody@example.org"])
            #expect(try #require(answer["dropped"] as? [[String: Any]]).map { "\($0["item"] ?? "") \($0["field"] ?? "") \($0["email"] ?? "")" }
                    == ["0 assignee victim@example.org", "1 assignee nobody@example.org"])
            // The victim is in no household, and the reminders (due now) reach only Mallory.
            let theirs = try await server.data("{ households { totalCount } }", token: victim.token)
            #expect((theirs["households"] as? [String: Any])?["totalCount"] as? Int == 0, "\(theirs)")
            #expect(try await server.database.strings("SELECT user_id::text FROM household_members") == [mallory.id])
            #expect(try await server.database.strings("SELECT count(*)::text FROM task_items WHERE assignee_id IS NOT NULL") == ["0"])
            server.clock.advance(by: 120)
            let sent = try await server.services.tasks.deliverDueReminders()
            #expect(sent.count == 2 && sent.allSatisfy { $0.notifications.map(\.userID.lowercasedString) == [mallory.id] })
        }
    }

    @Test func importsAreLimitedPerPersonAndLabelsItemsNameCount() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let ben = try await HouseholdsOverHTTPTests.person(server, "Ben")
            // Items naming labels the list lacks make them: the cap of 1 000 is on every label the import makes.
            let many = (0..<1_001).map { "Label \($0)" }
            let tooMany = try Self.document(members: (0..<51).map { ("p\($0)@example.org", "MEMBER") }, now: server.clock.now)
            var object = try Self.json(tooMany)
            object["items"] = (object["items"] as? [[String: Any]] ?? []).enumerated().map { index, item in
                var item = item
                item["labels"] = Array(many[(index * 20)..<min(many.count, index * 20 + 20)])
                return item
            }
            let refused = try Self.json(try await Self.request(server, .post, "/households/import", token: ann.token,
                                                               body: try JSONSerialization.data(withJSONObject: object)).body)
            #expect(refused["field"] as? String == "labels" && refused["code"] as? String == "BAD_USER_INPUT", "\(refused)")
            #expect((refused["error"] as? String)?.contains("at most 1000 labels") == true, "\(refused)")
            #expect(try await server.database.strings("SELECT count(*)::text FROM labels") == ["0"])
            // Ten imports an hour each; the eleventh is refused with when to try again, Ben's own still taken.
            let small = try Self.document(members: [], now: server.clock.now)
            for _ in 0..<HouseholdsConfiguration().importsPerPerson {
                #expect(try await Self.request(server, .post, "/households/import", token: ann.token, body: small).status == .created)
            }
            let limited = try await Self.request(server, .post, "/households/import", token: ann.token, body: small)
            #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] == "3600", "\(limited.headers)")
            #expect(try Self.json(limited.body)["code"] as? String == "RATE_LIMITED")
            #expect(try await Self.request(server, .post, "/households/import", token: ben.token, body: small).status == .created)
            server.clock.advance(by: HouseholdsConfiguration().importWindow + 1)
            #expect(try await Self.request(server, .post, "/households/import", token: ann.token, body: small).status == .created)
        }
    }

    @Test func aDocumentIsRefusedByItsListsLengthsBeforeTheirElementsAreRead() throws {
        // More items than an import takes, each of them unreadable: the length is what is refused.
        let items = String(repeating: "0,", count: HouseholdExport.maximumItems) + "0"
        let text = #"{"format": "hearth-household", "version": 1, "exportedAt": "2026-11-26T10:00:00Z", "#
            + #""household": {"name": "H", "description": "", "timeZone": "UTC"}, "members": [], "labels": [], "items": ["# + items + #"], "stores": []}"#
        #expect(throws: ServiceError.invalidInput(field: "items", message: "An import takes at most 100000 items.")) {
            try HouseholdExport.read(Data(text.utf8))
        }
        #expect(throws: ServiceError.invalidInput(field: "document", message: #"This is not a Hearth household export (a JSON object with "format": "hearth-household")."#)) {
            try HouseholdExport.read(Data(#"{"format": "something-else", "version": 1}"#.utf8))
        }
    }

    @Test func theCommandImportsForAnAccountHere() async throws {
        let endpoint = try await TestPostgres.shared.createDatabase()
        try await withTemporaryDirectory { dir in
            let document = HouseholdExport(
                format: HouseholdExport.formatName, version: 1, exportedAt: Date(), household: .init(name: "Cabin", description: "By the lake", timeZone: "UTC"),
                members: [.init(name: "Dan", email: "dan@example.org", role: .admin)], labels: [.init(name: "Wood", color: "#8B4513")],
                items: [.init(kind: .task, title: "Chop wood", priority: .low, createdAt: Date(timeIntervalSince1970: 1_790_000_000), labels: ["Wood"],
                              subtasks: [.init(title: "Sharpen the axe", done: true)])],
                stores: [])
            try document.json().write(to: URL(fileURLWithPath: dir + "/cabin.json"))
            let create = try HearthProcess(["user", "create", "--email", "eve@example.org", "--database-url", endpoint.url], input: "correct horse\n")
            #expect(try await create.waitForExit().status == 0, "\(create.stderr)")
            let missing = try HearthProcess(["household", "import", dir + "/cabin.json", "--owner", "nobody@example.org", "--database-url", endpoint.url])
            #expect(try await missing.waitForExit().status == 1)
            #expect(missing.stderr.contains("no account has the email nobody@example.org"), "\(missing.stderr)")
            let run = try HearthProcess(["household", "import", dir + "/cabin.json", "--owner", "eve@example.org", "--database-url", endpoint.url])
            #expect(try await run.waitForExit().status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("imported Cabin (") && run.stdout.contains("for eve@example.org: 1 tasks and events, 1 labels, 0 stores"), "\(run.stdout)")
            #expect(run.stdout.contains("invite dan@example.org (ADMIN) with the code "), "\(run.stdout)")
        }
    }
}
