import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import Testing

/// Local-first sync end to end over real HTTP: field-level concurrency, exactly-once pushes,
/// commit-safe pulls with tombstones, cursor errors and permissions.
@Suite struct SyncOverHTTPTests {
    typealias Server = UsersOverHTTPTests.Server
    typealias Person = HouseholdsOverHTTPTests.Person

    static let pullQuery = """
        query($h: UUID!, $a: String, $f: Int, $c: UUID) { sync(householdId: $h, after: $a, first: $f, clientId: $c) {
            cursor hasMore lastMutationId
            changes { type id version deleted record {
                __typename
                ... on Task { id title notes version completed subtasks { title } labels { name } }
                ... on Label { id name color version }
                ... on Household { id name version }
                ... on Member { role version user { id } }
                ... on Store { id version }
                ... on Product { id version }
                ... on StoreEvent { eventId: id version read }
                ... on Notification { id version }
            } } } }
        """

    static let pushQuery = """
        mutation($c: UUID!, $m: [ClientMutation!]!) { push(clientId: $c, mutations: $m) {
            lastMutationId results { id status code message fields version } } }
        """

    struct Pulled {
        var changes: [[String: Any]]
        var cursor: String
        var hasMore: Bool
        var lastMutationID: Int
    }

    static func pull(_ server: Server, _ person: Person, _ home: String, after: String? = nil, first: Int = 500,
                     client: String? = nil) async throws -> Pulled {
        var variables: [String: Any] = ["h": home, "f": first]
        if let after { variables["a"] = after }
        if let client { variables["c"] = client }
        let page = try #require(try await server.data(pullQuery, variables, token: person.token)["sync"] as? [String: Any])
        return Pulled(changes: page["changes"] as? [[String: Any]] ?? [], cursor: try #require(page["cursor"] as? String),
                      hasMore: page["hasMore"] as? Bool ?? false, lastMutationID: page["lastMutationId"] as? Int ?? -1)
    }

    /// A device's copy: "TYPE/id" → the record's version and fields.
    typealias Copy = [String: [String: Any]]

    /// Pulls while `hasMore`, applying each change to `copy`; returns the cursor to continue from.
    @discardableResult
    static func pullAll(_ server: Server, _ person: Person, _ home: String, into copy: inout Copy, after: String?, first: Int = 500) async throws -> String {
        var cursor = after
        while true {
            let page = try await pull(server, person, home, after: cursor, first: first)
            var seen = Set<String>()
            for change in page.changes {
                let key = "\(change["type"] ?? "")/\(change["id"] ?? "")"
                #expect(seen.insert(key).inserted, "\(key) came twice in one page")
                if change["deleted"] as? Bool == true {
                    copy[key] = nil
                } else {
                    var record = change["record"] as? [String: Any] ?? [:]
                    record["version"] = change["version"]
                    copy[key] = record
                }
            }
            cursor = page.cursor
            if !page.hasMore { return page.cursor }
        }
    }

    static func createTask(_ server: Server, _ person: Person, _ home: String, _ title: String, subtasks: [String] = []) async throws -> (id: String, version: Int) {
        let data = try await server.data(
            "mutation($h: UUID!, $i: TaskInput!) { createTask(householdId: $h, input: $i) { id version } }",
            ["h": home, "i": ["title": title, "subtasks": subtasks]], token: person.token)
        let task = try #require(data["createTask"] as? [String: Any])
        return (try #require(task["id"] as? String), try #require(task["version"] as? Int))
    }

    static func push(_ server: Server, _ person: Person, client: String, _ mutations: [[String: Any]]) async throws -> (last: Int, results: [[String: Any]]) {
        let data = try await server.data(pushQuery, ["c": client, "m": mutations], token: person.token)
        let result = try #require(data["push"] as? [String: Any])
        return (result["lastMutationId"] as? Int ?? -1, result["results"] as? [[String: Any]] ?? [])
    }

    // MARK: No lost updates

    @Test func concurrentEditsOfDifferentFieldsAllSurvive() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let ben = try await HouseholdsOverHTTPTests.person(server, "Ben")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann)
            try await HouseholdsOverHTTPTests.add(server, ann, home, ben, "MEMBER")
            var ids: [String] = []
            for index in 0..<30 { ids.append(try await Self.createTask(server, ann, home, "Task \(index)").id) }
            let update = "mutation($id: UUID!, $i: TaskUpdateInput!) { updateTask(id: $id, input: $i) { id } }"
            // Each edit on a connection of its own, so the two people's edits of a task really race.
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for id in ids {
                    group.addTask { try await server.graphQL(update, ["id": id, "i": ["title": "Title by Ann \(id.prefix(4))"]], token: ann.token).json["errors"] == nil }
                    group.addTask { try await server.graphQL(update, ["id": id, "i": ["notes": "Notes by Ben \(id.prefix(4))"]], token: ben.token).json["errors"] == nil }
                }
                for try await succeeded in group { #expect(succeeded) }
            }
            for id in ids {
                let task = try #require(try await server.data("query($id: UUID!) { task(id: $id) { title notes } }", ["id": id], token: ann.token)["task"] as? [String: Any])
                #expect(task["title"] as? String == "Title by Ann \(id.prefix(4))" && task["notes"] as? String == "Notes by Ben \(id.prefix(4))", "\(task)")
            }
        }
    }

    @Test func staleEditsConflictOnlyOnTheFieldsTheyName() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann)
            let (id, base) = try await Self.createTask(server, ann, home, "Milk")
            let update = "mutation($id: UUID!, $i: TaskUpdateInput!, $v: Int) { updateTask(id: $id, input: $i, expectedVersion: $v) { title notes version } }"
            let first = try #require(try await server.data(update, ["id": id, "i": ["title": "Oat milk"]], token: ann.token)["updateTask"] as? [String: Any])
            let current = try #require(first["version"] as? Int)
            #expect(current > base)

            // The same field from the old version: refused, naming the field and the version now.
            let stale = try await server.error(update, ["id": id, "i": ["title": "Soy milk", "priority": "HIGH"], "v": base], token: ann.token)
            #expect(stale.code == "CONFLICT" && stale.extensions["conflictingFields"] as? [String] == ["title"], "\(stale)")
            #expect(stale.extensions["currentVersion"] as? Int == current)
            // Another field from the old version: applied, the newer title stays.
            let disjoint = try #require(try await server.data(update, ["id": id, "i": ["notes": "2 litres"], "v": base], token: ann.token)["updateTask"] as? [String: Any])
            #expect(disjoint["title"] as? String == "Oat milk" && disjoint["notes"] as? String == "2 litres")
            let latest = try #require(disjoint["version"] as? Int)

            // A stale deletion is refused; a current one goes through.
            let delete = "mutation($id: UUID!, $v: Int) { deleteTask(id: $id, expectedVersion: $v) { id } }"
            let refused = try await server.error(delete, ["id": id, "v": base], token: ann.token)
            #expect(refused.code == "CONFLICT" && (refused.extensions["conflictingFields"] as? [String])?.contains("title") == true, "\(refused)")

            // Completing twice is no error and no new version.
            let complete = "mutation($id: UUID!) { completeTask(id: $id) { completed version } }"
            let done = try #require(try await server.data(complete, ["id": id], token: ann.token)["completeTask"] as? [String: Any])
            let again = try #require(try await server.data(complete, ["id": id], token: ann.token)["completeTask"] as? [String: Any])
            #expect(done["completed"] as? Bool == true && again["version"] as? Int == done["version"] as? Int)
            #expect((done["version"] as? Int ?? 0) > latest)
            _ = try await server.data(delete, ["id": id, "v": done["version"] ?? 0], token: ann.token)

            // Labels and households take expectedVersion the same way.
            let label = try #require(try await server.data(
                "mutation($h: UUID!) { createLabel(householdId: $h, name: \"Food\", color: \"green\") { id version } }", ["h": home], token: ann.token)["createLabel"] as? [String: Any])
            let relabel = "mutation($id: UUID!, $n: String, $c: String, $v: Int) { updateLabel(id: $id, name: $n, color: $c, expectedVersion: $v) { name color } }"
            _ = try await server.data(relabel, ["id": label["id"] ?? "", "n": "Groceries"], token: ann.token)
            let staleLabel = try await server.error(relabel, ["id": label["id"] ?? "", "n": "Eats", "v": label["version"] ?? 0], token: ann.token)
            #expect(staleLabel.code == "CONFLICT" && staleLabel.extensions["conflictingFields"] as? [String] == ["name"])
            let recolour = try await server.data(relabel, ["id": label["id"] ?? "", "c": "red", "v": label["version"] ?? 0], token: ann.token)
            #expect((recolour["updateLabel"] as? [String: Any])?["name"] as? String == "Groceries")
            let household = try #require(try await server.data("query($h: UUID!) { household(id: $h) { version } }", ["h": home], token: ann.token)["household"] as? [String: Any])
            let rename = "mutation($h: UUID!, $i: UpdateHouseholdInput!, $v: Int) { updateHousehold(id: $h, input: $i, expectedVersion: $v) { name } }"
            _ = try await server.data(rename, ["h": home, "i": ["name": "Flat"]], token: ann.token)
            let staleHousehold = try await server.error(rename, ["h": home, "i": ["name": "House"], "v": household["version"] ?? 0], token: ann.token)
            #expect(staleHousehold.code == "CONFLICT" && staleHousehold.extensions["conflictingFields"] as? [String] == ["name"])
        }
    }

    // MARK: Push

    @Test func pushAppliesEachMutationExactlyOnce() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let viv = try await HouseholdsOverHTTPTests.person(server, "Viv")
            let mo = try await HouseholdsOverHTTPTests.person(server, "Mo")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann)
            try await HouseholdsOverHTTPTests.add(server, ann, home, viv, "VIEWER")
            try await HouseholdsOverHTTPTests.add(server, ann, home, mo, "MEMBER")
            let client = UUID().uuidString.lowercased()
            let task = UUID().uuidString.lowercased()
            let subtask = UUID().uuidString.lowercased()
            let label = UUID().uuidString.lowercased()
            let batch: [[String: Any]] = [
                ["id": 1, "op": ["createTask": ["householdId": home, "input": ["id": task, "title": "Bins"]]]],
                ["id": 2, "op": ["addSubtask": ["taskId": task, "id": subtask, "title": "Blue bin"]]],
                ["id": 3, "op": ["createLabel": ["householdId": home, "id": label, "name": "Chores", "color": "blue"]]],
                ["id": 4, "op": ["updateTask": ["id": task, "input": ["notes": "Tuesday", "labelIds": [label]]]]],
                ["id": 5, "op": ["completeTask": ["id": task]]],
            ]
            let first = try await Self.push(server, ann, client: client, batch)
            #expect(first.last == 5 && first.results.map { $0["status"] as? String } == Array(repeating: "APPLIED", count: 5), "\(first)")
            #expect(first.results.allSatisfy { ($0["version"] as? Int ?? 0) > 0 })

            // The same push again: every id DUPLICATE, nothing applied twice.
            let again = try await Self.push(server, ann, client: client, batch)
            #expect(again.last == 5 && again.results.map { $0["status"] as? String } == Array(repeating: "DUPLICATE", count: 5), "\(again)")
            // Overlapping: 4 and 5 again, 6 new (the same subtask again under a new id: still one subtask).
            let overlap = try await Self.push(server, ann, client: client, Array(batch[3...]) + [
                ["id": 6, "op": ["addSubtask": ["taskId": task, "id": subtask, "title": "Blue bin"]]],
                ["id": 7, "op": ["createTask": ["householdId": home, "input": ["id": task, "title": "Bins"]]]],
                ["id": 8, "op": ["createTask": ["householdId": home, "input": ["id": task, "title": "Other"]]]],
            ])
            #expect(overlap.results.map { $0["status"] as? String } == ["DUPLICATE", "DUPLICATE", "APPLIED", "APPLIED", "CONFLICT"], "\(overlap)")
            #expect(overlap.last == 8)
            let stored = try #require(try await server.data("query($id: UUID!) { task(id: $id) { notes completed subtasks { title } labels { name } } }",
                                                            ["id": task], token: ann.token)["task"] as? [String: Any])
            #expect((stored["subtasks"] as? [[String: Any]])?.count == 1 && stored["completed"] as? Bool == true && stored["notes"] as? String == "Tuesday")
            #expect((stored["labels"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Chores"])
            #expect(try await Self.pull(server, ann, home, client: client).lastMutationID == 8)

            // A viewer's create is refused; a member's delete (admins only) is refused while the rest of the batch applies.
            let viewer = try await Self.push(server, viv, client: UUID().uuidString.lowercased(), [
                ["id": 1, "op": ["createTask": ["householdId": home, "input": ["id": UUID().uuidString.lowercased(), "title": "Nope"]]]]])
            #expect(viewer.results.first?["status"] as? String == "REJECTED" && viewer.results.first?["code"] as? String == "FORBIDDEN", "\(viewer)")
            let member = try await Self.push(server, mo, client: UUID().uuidString.lowercased(), [
                ["id": 10, "op": ["deleteTask": ["id": task]]],
                ["id": 11, "op": ["updateTask": ["id": task, "input": ["title": "Bins out"]]]]])
            #expect(member.results.map { $0["status"] as? String } == ["REJECTED", "APPLIED"] && member.results.first?["code"] as? String == "FORBIDDEN")
            #expect(member.last == 11)

            // Someone else's client id is not theirs to push with.
            let stolen = try await server.error(Self.pushQuery, ["c": client, "m": [["id": 9, "op": ["completeTask": ["id": task]]]]], token: mo.token)
            #expect(stolen.code == "FORBIDDEN")
            // Malformed pushes apply nothing.
            let unordered = try await server.error(Self.pushQuery, ["c": client, "m": [
                ["id": 20, "op": ["reopenTask": ["id": task]]], ["id": 20, "op": ["reopenTask": ["id": task]]]]], token: ann.token)
            #expect(unordered.code == "BAD_USER_INPUT" && unordered.extensions["field"] as? String == "mutations[1].id", "\(unordered)")
            let twoThings = try await server.error(Self.pushQuery, ["c": client, "m": [
                ["id": 21, "op": ["reopenTask": ["id": task], "completeTask": ["id": task]]]]], token: ann.token)
            #expect(twoThings.code == "BAD_USER_INPUT", "\(twoThings)")
            let tooMany = try await server.error(Self.pushQuery, ["c": client, "m": (1...501).map { ["id": $0, "op": ["reopenTask": ["id": task]]] }],
                                                 token: ann.token)
            #expect(tooMany.code == "BAD_USER_INPUT" && tooMany.extensions["field"] as? String == "mutations", "\(tooMany)")
            let still = try #require(try await server.data("query($id: UUID!) { task(id: $id) { completed } }", ["id": task], token: ann.token)["task"] as? [String: Any])
            #expect(still["completed"] as? Bool == true)
            #expect(try await Self.pull(server, ann, home, client: client).lastMutationID == 8)
        }
    }

    // MARK: Pull

    @Test func pullsSnapshotDeltasAndTombstones() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let ben = try await HouseholdsOverHTTPTests.person(server, "Ben")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann)
            let other = try await HouseholdsOverHTTPTests.createHousehold(server, ann, name: "Cabin")
            try await HouseholdsOverHTTPTests.add(server, ann, home, ben, "MEMBER")
            let kept = try await Self.createTask(server, ann, home, "Kept", subtasks: ["a", "b"])
            let doomed = try await Self.createTask(server, ann, home, "Doomed", subtasks: ["c"])
            let label = try #require(try await server.data(
                "mutation($h: UUID!) { createLabel(householdId: $h, name: \"Old\", color: \"red\") { id } }", ["h": home], token: ann.token)["createLabel"] as? [String: Any])

            // The snapshot in pages of 2 is what the queries show.
            var copy: Copy = [:]
            let cursor = try await Self.pullAll(server, ann, home, into: &copy, after: nil, first: 2)
            #expect(copy["TASK/\(kept.id)"]?["title"] as? String == "Kept" && copy["TASK/\(doomed.id)"] != nil)
            #expect(copy["HOUSEHOLD/\(home)"] != nil && copy["MEMBER/\(ben.id)"] != nil && copy["LABEL/\(label["id"] ?? "")"] != nil)
            #expect(copy.keys.count == 6, "\(copy.keys.sorted())")
            let listed = try await server.data("query($h: UUID!) { tasks(householdId: $h) { edges { node { id version } } } }", ["h": home], token: ann.token)
            for edge in ((listed["tasks"] as? [String: Any])?["edges"] as? [[String: Any]]) ?? [] {
                let node = edge["node"] as? [String: Any] ?? [:]
                #expect(copy["TASK/\(node["id"] ?? "")"]?["version"] as? Int == node["version"] as? Int)
            }

            // Nothing changed: an empty page. Then a change, a deletion with subtasks, a label deletion, a member leaving.
            #expect(try await Self.pull(server, ann, home, after: cursor).changes.isEmpty)
            _ = try await server.data("mutation($id: UUID!) { updateTask(id: $id, input: {title: \"Kept!\"}) { id } }", ["id": kept.id], token: ann.token)
            _ = try await server.data("mutation($id: UUID!) { deleteTask(id: $id) { id } }", ["id": doomed.id], token: ann.token)
            _ = try await server.data("mutation($id: UUID!) { deleteLabel(id: $id) { id } }", ["id": label["id"] ?? ""], token: ann.token)
            _ = try await server.data("mutation($h: UUID!, $u: UUID!) { removeMember(householdId: $h, userId: $u) }", ["h": home, "u": ben.id], token: ann.token)
            let delta = try await Self.pull(server, ann, home, after: cursor)
            let tombstones = Set(delta.changes.filter { $0["deleted"] as? Bool == true }.map { "\($0["type"] ?? "")/\($0["id"] ?? "")" })
            #expect(tombstones == ["TASK/\(doomed.id)", "LABEL/\(label["id"] ?? "")", "MEMBER/\(ben.id)"], "\(delta.changes)")
            #expect(delta.changes.contains { $0["type"] as? String == "TASK" && $0["id"] as? String == kept.id && $0["deleted"] as? Bool == false })
            try await Self.pullAll(server, ann, home, into: &copy, after: cursor)
            var snapshot: Copy = [:]
            try await Self.pullAll(server, ann, home, into: &snapshot, after: nil)
            #expect(Set(copy.keys) == Set(snapshot.keys) && copy["TASK/\(kept.id)"]?["title"] as? String == "Kept!")
            #expect(copy.keys.allSatisfy { copy[$0]?["version"] as? Int == snapshot[$0]?["version"] as? Int })

            // The removed member: NOT_FOUND. Cursors: another household's, garbage, expired.
            #expect(try await server.error(Self.pullQuery, ["h": home], token: ben.token).code == "NOT_FOUND")
            let foreign = try await server.error(Self.pullQuery, ["h": other, "a": cursor], token: ann.token)
            #expect(foreign.code == "BAD_USER_INPUT" && foreign.extensions["field"] as? String == "after")
            #expect(try await server.error(Self.pullQuery, ["h": home, "a": "not-a-cursor"], token: ann.token).code == "BAD_USER_INPUT")
            #expect(try await server.error(Self.pullQuery, ["h": home, "f": 0], token: ann.token).code == "BAD_USER_INPUT")
            server.clock.advance(by: 31 * 86_400)
            // (The session has expired too: sign in again.)
            let signIn = try await server.data("mutation { signIn(email: \"ann@example.org\", password: \"correct horse\") { token } }")
            let token = try #require((signIn["signIn"] as? [String: Any])?["token"] as? String)
            let expired = try await server.error(Self.pullQuery, ["h": home, "a": cursor], token: token)
            #expect(expired.code == "SYNC_CURSOR_EXPIRED" && expired.extensions["field"] as? String == "after", "\(expired)")
            #expect(try await Self.pull(server, Person(token: token, id: ann.id), home).changes.count == 3)
            // Pruning is leased: one instance per hour does it.
            #expect(try await server.services.sync.pruneTombstonesIfLeased(instance: "a") ?? 0 >= 3)
            #expect(try await server.services.sync.pruneTombstonesIfLeased(instance: "b") == nil)
            server.clock.advance(by: 3601)
            #expect(try await server.services.sync.pruneTombstonesIfLeased(instance: "b") == 0)
        }
    }

    /// A transaction that began before a pull and commits after it is not skipped: the next pull
    /// returns its change, though later transactions committed (and were pulled) first.
    @Test func cursorsNeverSkipALateCommit() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann)
            let slow = try await Self.createTask(server, ann, home, "Slow")
            var copy: Copy = [:]
            var cursor = try await Self.pullAll(server, ann, home, into: &copy, after: nil)
            let database = server.database
            cursor = try await database.transaction(logger: database.logger) { connection in
                // Held open across another writer's commit and a pull.
                try await connection.query("UPDATE task_items SET title = 'Slow, late' WHERE id = \(UUID(uuidString: slow.id))", logger: database.logger)
                let fast = try await Self.createTask(server, ann, home, "Fast")
                var inner = copy
                let next = try await Self.pullAll(server, ann, home, into: &inner, after: cursor)
                #expect(inner["TASK/\(fast.id)"] != nil && inner["TASK/\(slow.id)"]?["title"] as? String == "Slow")
                copy = inner
                return next
            }
            let after = try await Self.pull(server, ann, home, after: cursor)
            #expect(after.changes.map { $0["id"] as? String } == [slow.id], "\(after.changes)")
            try await Self.pullAll(server, ann, home, into: &copy, after: cursor)
            var snapshot: Copy = [:]
            try await Self.pullAll(server, ann, home, into: &snapshot, after: nil)
            #expect(copy["TASK/\(slow.id)"]?["title"] as? String == "Slow, late" && Set(copy.keys) == Set(snapshot.keys))
        }
    }

    /// Two instances on one database: a push on one is pulled, and poked, on the other.
    @Test func pushOnOneInstancePullAndPokeOnAnother() async throws {
        try await UsersOverHTTPTests.withServers(count: 2) { servers in
            let ann = try await HouseholdsOverHTTPTests.person(servers[0], "Ann")
            let home = try await HouseholdsOverHTTPTests.createHousehold(servers[0], ann)
            var copy: Copy = [:]
            let cursor = try await Self.pullAll(servers[1], ann, home, into: &copy, after: nil)
            let pokes = servers[1].services.sync.pokes.subscribe()
            let task = UUID().uuidString.lowercased()
            let pushed = try await Self.push(servers[0], ann, client: UUID().uuidString.lowercased(), [
                ["id": 1, "op": ["createTask": ["householdId": home, "input": ["id": task, "title": "Across"]]]]])
            #expect(pushed.results.first?["status"] as? String == "APPLIED")
            var poked: SyncCommit?
            for await commit in pokes where commit.householdID.uuidString.lowercased() == home {
                poked = commit
                break
            }
            #expect(poked?.householdID.uuidString.lowercased() == home)
            let delta = try await Self.pull(servers[1], ann, home, after: cursor)
            #expect(delta.changes.map { $0["id"] as? String } == [task], "\(delta.changes)")
        }
    }

    /// Stores, products and events sync like the rest; read state is per person; a removed store's
    /// tombstone stands for its products and events.
    @Test func storesProductsEventsAndReadState() async throws {
        try await StoresOverHTTPTests.withShops { server, shop in
            shop.addShop("alpha", products: 5)
            let (owner, _, viewer, home) = try await HouseholdsOverHTTPTests.householdOfThree(server, ("Olive", "Mia", "Vic"))
            let store = try #require(try await StoresOverHTTPTests.add(server, owner, home, "alpha.test", name: "Alpha")["id"] as? String)
            var ownerCopy: Copy = [:]
            var viewerCopy: Copy = [:]
            var ownerCursor = try await Self.pullAll(server, owner, home, into: &ownerCopy, after: nil, first: 3)
            var viewerCursor = try await Self.pullAll(server, viewer, home, into: &viewerCopy, after: nil)
            #expect(ownerCopy.keys.filter { $0.hasPrefix("PRODUCT/") }.count == 5 && ownerCopy["STORE/\(store)"] != nil, "\(ownerCopy.keys.sorted())")

            let catalog = try #require(shop.catalog("alpha"))
            _ = shop.update("alpha") { $0.setPrice(product: 0, to: catalog.products[0].variants[0].price / 2) }
            _ = try await StoresOverHTTPTests.sync(server, owner, store)
            let delta = try await Self.pull(server, owner, home, after: ownerCursor)
            let types = Set(delta.changes.compactMap { $0["type"] as? String })
            #expect(types.isSuperset(of: ["STORE", "PRODUCT", "STORE_EVENT", "NOTIFICATION"]), "\(delta.changes)")
            ownerCursor = try await Self.pullAll(server, owner, home, into: &ownerCopy, after: ownerCursor)
            let event = try #require(ownerCopy.keys.first { $0.hasPrefix("STORE_EVENT/") }?.dropFirst("STORE_EVENT/".count))
            #expect(ownerCopy["STORE_EVENT/\(event)"]?["read"] as? Bool == false)

            // A viewer's push: the create is refused, reading the event (theirs to do) applies.
            let pushed = try await Self.push(server, viewer, client: UUID().uuidString.lowercased(), [
                ["id": 1, "op": ["createTask": ["householdId": home, "input": ["id": UUID().uuidString.lowercased(), "title": "Nope"]]]],
                ["id": 2, "op": ["markEventRead": ["id": String(event)]]]])
            #expect(pushed.results.map { $0["status"] as? String } == ["REJECTED", "APPLIED"] && pushed.results.first?["code"] as? String == "FORBIDDEN",
                    "\(pushed)")
            viewerCursor = try await Self.pullAll(server, viewer, home, into: &viewerCopy, after: viewerCursor)
            #expect(viewerCopy["STORE_EVENT/\(event)"]?["read"] as? Bool == true)
            #expect(viewerCopy["STORE_EVENT/\(event)"]?["version"] as? Int == pushed.results.last?["version"] as? Int)
            // Another person's read state does not reach the owner; each has only their own notifications.
            #expect(try await Self.pull(server, owner, home, after: ownerCursor).changes.isEmpty)
            let ownerNotifications = Set(ownerCopy.keys.filter { $0.hasPrefix("NOTIFICATION/") })
            let viewerNotifications = Set(viewerCopy.keys.filter { $0.hasPrefix("NOTIFICATION/") })
            // (The viewer's second is the one telling them they were added.)
            #expect(ownerNotifications.count == 1 && viewerNotifications.count == 2 && ownerNotifications.isDisjoint(with: viewerNotifications))

            _ = try await server.data("mutation($s: UUID!) { removeStore(id: $s) }", ["s": store], token: owner.token)
            let removed = try await Self.pull(server, owner, home, after: ownerCursor)
            let tombstones = removed.changes.filter { $0["deleted"] as? Bool == true }.compactMap { $0["type"] as? String }
            #expect(tombstones.contains("STORE") && !tombstones.contains("PRODUCT") && !tombstones.contains("STORE_EVENT"), "\(removed.changes)")
            try await Self.pullAll(server, owner, home, into: &ownerCopy, after: ownerCursor)
            // The client drops the store's products and events with it.
            ownerCopy = ownerCopy.filter { !$0.key.hasPrefix("PRODUCT/") && !$0.key.hasPrefix("STORE_EVENT/") }
            var snapshot: Copy = [:]
            try await Self.pullAll(server, owner, home, into: &snapshot, after: nil)
            #expect(Set(ownerCopy.keys) == Set(snapshot.keys), "\(ownerCopy.keys.sorted()) vs \(snapshot.keys.sorted())")
        }
    }

    /// `syncAvailable` over WebSocket on instance B pokes for commits made on A: a burst of
    /// commits comes as few pokes (at most one per 250 ms), the last after the last commit, and a
    /// person removed from the household stops being poked.
    @Test func pokesOverWebSocketFoldBurstsAndStopForTheRemoved() async throws {
        try await UsersOverHTTPTests.withServers(count: 2) { servers in
            let (a, b) = (servers[0], servers[1])
            let owner = try await HouseholdsOverHTTPTests.person(a, "Olive")
            let member = try await HouseholdsOverHTTPTests.person(a, "Mia")
            let home = try await HouseholdsOverHTTPTests.createHousehold(a, owner)
            try await HouseholdsOverHTTPTests.add(a, owner, home, member, "MEMBER")
            var copy: Copy = [:]
            let start = try await Self.pullAll(b, owner, home, into: &copy, after: nil)
            let port = try #require(b.client.port)
            try await GraphQLWebSocketTests.connect(port) { reader, outbound in
                try await GraphQLWebSocketTests.send(outbound, #"{"type":"connection_init","payload":{"authorization":"Bearer \#(owner.token)"}}"#)
                #expect(try await reader.next() == #"{"type":"connection_ack"}"#)
                try await GraphQLWebSocketTests.send(outbound, #"{"id":"s","type":"subscribe","payload":{"query":"subscription { syncAvailable(householdId: \"\#(home)\") { householdId cursor } }"}}"#)
                #expect(try await eventually { b.services.sync.pokes.subscriberCount == 1 })

                let started = ContinuousClock.now
                let burst = (1...20).map { index in
                    ["id": index, "op": ["createTask": ["householdId": home, "input": ["id": UUID().uuidString.lowercased(), "title": "Burst \(index)"]]]]
                }
                let pushed = try await Self.push(a, owner, client: UUID().uuidString.lowercased(), burst)
                #expect(pushed.results.count == 20 && pushed.results.allSatisfy { $0["status"] as? String == "APPLIED" }, "\(pushed)")
                let elapsed = ContinuousClock.now - started
                // Each poke says "pull": pulling after each until all 20 arrived.
                var pokes = 0
                var pulled = 0
                var cursor = start
                while pulled < 20 {
                    let message = try await withTimeout(.seconds(20)) { try await reader.next() ?? "" }
                    #expect(message.hasPrefix(#"{"id":"s","type":"next","payload":{"data":{"syncAvailable":{"householdId":"\#(home)","cursor":"#), "\(message)")
                    pokes += 1
                    let page = try await Self.pull(b, owner, home, after: cursor)
                    pulled += page.changes.filter { $0["type"] as? String == "TASK" }.count
                    cursor = page.cursor
                }
                let window = Int((elapsed + .seconds(1)) / .milliseconds(250)) + 2
                #expect(pokes >= 1 && pokes <= min(20, window), "\(pokes) pokes for 20 commits in \(elapsed)")
                try await outbound.close(.normalClosure, reason: nil)
            }

            // Mia is poked while a member; removed, her subscription ends at the next commit.
            try await GraphQLWebSocketTests.connect(port) { reader, outbound in
                try await GraphQLWebSocketTests.send(outbound, #"{"type":"connection_init","payload":{"authorization":"Bearer \#(member.token)"}}"#)
                #expect(try await reader.next() == #"{"type":"connection_ack"}"#)
                try await GraphQLWebSocketTests.send(outbound, #"{"id":"m","type":"subscribe","payload":{"query":"subscription { syncAvailable(householdId: \"\#(home)\") { householdId } }"}}"#)
                #expect(try await eventually { b.services.sync.pokes.subscriberCount == 1 })
                _ = try await Self.createTask(a, owner, home, "Seen by Mia")
                #expect(try await withTimeout(.seconds(20)) { try await reader.next() } == #"{"id":"m","type":"next","payload":{"data":{"syncAvailable":{"householdId":"\#(home)"}}}}"#)
                _ = try await a.data("mutation($h: UUID!, $u: UUID!) { removeMember(householdId: $h, userId: $u) }", ["h": home, "u": member.id], token: owner.token)
                var rest: [String] = []
                while let message = try await withTimeout(.seconds(20), operation: { try await reader.next() }), message != #"{"id":"m","type":"complete"}"# {
                    rest.append(message)
                    _ = try await Self.createTask(a, owner, home, "Not for Mia")
                }
                #expect(rest.count <= 1, "\(rest)")
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
    }

    /// A device that subscribes with its client id is told which pokes announce only its own
    /// pushes (the pull after its push brought those): not a push by another device, not a change
    /// made through an ordinary mutation, and not a subscription without a client id.
    @Test func aPokeSaysWhenItAnnouncesOnlyTheDevicesOwnPush() async throws {
        try await UsersOverHTTPTests.withServers(count: 2) { servers in
            let (a, b) = (servers[0], servers[1])
            let owner = try await HouseholdsOverHTTPTests.person(a, "Olive")
            // The household's creation is heard on B before anyone subscribes, so no poke of it comes late.
            @Sendable func createdAndHeard() async throws -> String {
                let commits = b.services.sync.pokes.subscribe()
                let home = try await HouseholdsOverHTTPTests.createHousehold(a, owner)
                for await commit in commits where commit.householdID.uuidString.lowercased() == home { break }
                return home
            }
            let home = try await createdAndHeard()
            let (mine, other) = (UUID().uuidString.lowercased(), UUID().uuidString.lowercased())
            @Sendable func create(_ id: Int) -> [[String: Any]] {
                [["id": id, "op": ["createTask": ["householdId": home, "input": ["id": UUID().uuidString.lowercased(), "title": "Task \(id)"]]]]]
            }
            let port = try #require(b.client.port)
            try await GraphQLWebSocketTests.connect(port) { reader, outbound in
                try await GraphQLWebSocketTests.send(outbound, #"{"type":"connection_init","payload":{"authorization":"Bearer \#(owner.token)"}}"#)
                #expect(try await reader.next() == #"{"type":"connection_ack"}"#)
                for (id, client) in [("c", "\"\(mine)\""), ("n", "null")] {
                    try await GraphQLWebSocketTests.send(outbound, #"{"id":"\#(id)","type":"subscribe","payload":{"query":"subscription($c: UUID) { syncAvailable(householdId: \"\#(home)\", clientId: $c) { fromYourPush } }","variables":{"c":\#(client)}}}"#)
                }
                #expect(try await eventually { b.services.sync.pokes.subscriberCount == 2 })
                /// The next poke of each subscription: whether it was the device's own.
                func nextPokes() async throws -> [String: Bool] {
                    var pokes: [String: Bool] = [:]
                    while pokes.count < 2 {
                        let message = try await withTimeout(.seconds(20)) { try await reader.next() ?? "" }
                        let json = try #require(try JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any])
                        let poke = ((json["payload"] as? [String: Any])?["data"] as? [String: Any])?["syncAvailable"] as? [String: Any]
                        pokes[try #require(json["id"] as? String)] = try #require(poke?["fromYourPush"] as? Bool, "\(message)")
                    }
                    return pokes
                }
                _ = try await Self.push(a, owner, client: mine, create(1))
                #expect(try await nextPokes() == ["c": true, "n": false])
                _ = try await Self.push(a, owner, client: other, create(1))
                #expect(try await nextPokes() == ["c": false, "n": false])
                _ = try await Self.createTask(a, owner, home, "Through the API")
                #expect(try await nextPokes() == ["c": false, "n": false])
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
    }

    /// One page costs the same few statements whatever its size (a statement per record type,
    /// not per record).
    @Test func aPageCostsABoundedNumberOfStatements() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann)
            for index in 0..<3 {
                _ = try await server.data("mutation($h: UUID!, $i: TaskInput!) { createTask(householdId: $h, input: $i) { id } }",
                                          ["h": home, "i": ["title": "Seed \(index)", "labels": ["L\(index)"], "subtasks": ["a", "b"]]], token: ann.token)
            }
            try await server.database.client.query("""
                INSERT INTO task_items (id, household_id, kind, title, priority, created_at, updated_at, create_digest, reminder_id)
                SELECT gen_random_uuid(), \(UUID(uuidString: home)), 'TASK', 'Bulk ' || i, 'NONE', now(), now(), 'bulk', gen_random_uuid()
                FROM generate_series(1, 120) AS i
                """, logger: server.database.logger)
            _ = try await Self.pull(server, ann, home, first: 1)  // caches warm
            func cost(first: Int) async throws -> (statements: Int, changes: Int) {
                let before = try await server.database.statementCount()
                let page = try await Self.pull(server, ann, home, first: first)
                return (try await server.database.statementCount() - before, page.changes.count)
            }
            let small = try await cost(first: 5)
            let large = try await cost(first: 1000)
            #expect(small.changes == 5 && large.changes == 128, "\(small) \(large)")
            #expect(large.statements == small.statements && large.statements <= 12, "\(small) \(large)")
        }
    }

    @Test func replaysAreHarmlessAndBadPushesApplyNothing() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let sam = try await HouseholdsOverHTTPTests.person(server, "Sam")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann)
            let client = UUID().uuidString.lowercased()
            let event = UUID().uuidString.lowercased()
            let created = try await Self.push(server, ann, client: client, [
                ["id": 1, "op": ["createEvent": ["householdId": home, "input": ["id": event, "title": "Dentist", "startsAt": "2030-03-01T09:00:00Z"]]]],
                ["id": 2, "op": ["reopenTask": ["id": event]]],
                ["id": 3, "op": ["deleteTask": ["id": event]]],
                ["id": 4, "op": ["deleteTask": ["id": event]]],
                ["id": 5, "op": ["createEvent": ["householdId": home, "input": ["id": event, "title": "Dentist", "startsAt": "2030-03-01T09:00:00Z"]]]],
                ["id": 6, "op": ["createTask": ["householdId": home, "input": ["title": "No id"]]]],
            ])
            // Reopening an open item and deleting a deleted one change nothing; a deleted item is not created again.
            #expect(created.results.map { $0["status"] as? String } == ["APPLIED", "APPLIED", "APPLIED", "APPLIED", "CONFLICT", "REJECTED"], "\(created)")
            #expect(created.results[1]["version"] as? Int == created.results[0]["version"] as? Int)
            #expect(created.results[3]["version"] as? Int == created.results[2]["version"] as? Int)
            #expect(created.results[5]["code"] as? String == "BAD_USER_INPUT" && created.results[5]["fields"] as? [String] == ["input.id"])

            // A stranger cannot pull the household; an op naming nothing applies nothing.
            #expect(try await server.error(Self.pullQuery, ["h": home], token: sam.token).code == "NOT_FOUND")
            let nothing = try await server.error(Self.pushQuery, ["c": client, "m": [["id": 7, "op": [String: Any]()]]], token: ann.token)
            #expect(nothing.code == "BAD_USER_INPUT", "\(nothing)")
            let malformed = try await server.error(Self.pushQuery, ["c": client, "m": [
                ["id": 7, "op": ["createTask": ["householdId": home, "input": ["id": UUID().uuidString.lowercased(), "title": "Fine"]]]],
                ["id": 8, "op": ["completeTask": ["id": "not-a-uuid"]]]]], token: ann.token)
            #expect(malformed.code == "BAD_USER_INPUT", "\(malformed)")
            #expect(try await Self.pull(server, ann, home, client: client).lastMutationID == 6)
        }
    }
}
