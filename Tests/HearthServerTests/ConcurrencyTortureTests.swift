import AsyncHTTPClient
import FixtureShop
import Foundation
import HearthCore
import HearthServer
import HTTPTypes
import NIOCore
import Synchronization
import Testing

/// A household writing at once: writers spread over two instances sharing one PostgreSQL fire a
/// seeded random mix of every mutation a household uses — items with overlapping label names,
/// edits, completes and reopens, subtasks, snoozes, deletes, labels, read marks, `push` batches
/// with stale versions and re-sent duplicates, role changes — each on a connection of its own.
/// Every answer must be data or a typed refusal (never an internal error, a 5xx or a time-out),
/// and afterwards the database, the sync snapshot and the queries must agree with what was
/// acknowledged. The seed is printed; `HEARTH_TORTURE_SEED` replays it. `make stress` runs it
/// with 32 writers for two minutes (`HEARTH_TORTURE_WRITERS`, `HEARTH_TORTURE_SECONDS`).
@Suite struct ConcurrencyTortureTests {
    typealias Server = UsersOverHTTPTests.Server
    typealias Person = HouseholdsOverHTTPTests.Person

    /// How long and how wide the run is.
    struct Plan: Sendable, CustomStringConvertible {
        var seed: UInt64
        var writers: Int
        /// Operations per writer, when no duration is given.
        var operationsPerWriter: Int
        var duration: Duration?

        static func fromEnvironment() -> Plan {
            let environment = ProcessInfo.processInfo.environment
            return Plan(
                seed: environment["HEARTH_TORTURE_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64(UInt32.max)),
                writers: environment["HEARTH_TORTURE_WRITERS"].flatMap { Int($0) }.map { max(2, $0) } ?? 8,
                operationsPerWriter: 40,
                duration: environment["HEARTH_TORTURE_SECONDS"].flatMap { Int($0) }.map { .seconds($0) })
        }

        var description: String {
            "seed \(seed), \(writers) writers, " + (duration.map { "for \($0)" } ?? "\(operationsPerWriter) operations each")
        }
    }

    /// One answer as the writer saw it.
    enum Answer {
        case data([String: Any])
        /// A typed refusal: its code, and whether it says to try again (contention outlasted the retries).
        case refused(code: String, retryable: Bool, message: String)
        /// What must never happen: an internal error, a 5xx, a time-out, a broken connection.
        case failure(String)
    }

    /// What the writers acknowledged, shared so that each can aim at the others' items.
    final class Pool: Sendable {
        struct Ids {
            var tasks: [String] = []
            var labels: [String] = []
        }
        let ids = Mutex(Ids())

        func withLock<T>(_ body: (inout Ids) -> T) -> T { ids.withLock { body(&$0) } }
    }

    /// What one writer saw.
    struct Tally: Sendable {
        var operations = 0
        var applied = 0
        var refusals: [String: Int] = [:]
        var failures: [String] = []
        /// Items whose create was acknowledged (by a mutation or an APPLIED push result), and deletes likewise.
        var created: Set<String> = []
        var deleted: Set<String> = []
        /// Pushed creates answered CONFLICT or REJECTED: they must not exist.
        var refusedCreates: Set<String> = []
        /// Per client id: the highest mutation id answered, and the highest sent.
        var clients: [String: (answered: Int, sent: Int)] = [:]
        var pushStatuses: [String: Int] = [:]

        mutating func merge(_ other: Tally) {
            operations += other.operations
            applied += other.applied
            refusals.merge(other.refusals, uniquingKeysWith: +)
            failures += other.failures
            created.formUnion(other.created)
            deleted.formUnion(other.deleted)
            refusedCreates.formUnion(other.refusedCreates)
            clients.merge(other.clients) { first, _ in first }
            pushStatuses.merge(other.pushStatuses, uniquingKeysWith: +)
        }
    }

    /// The operation on a connection of its own (so writers really race), answered in full.
    static func send(_ port: Int, _ query: String, _ variables: [String: Any], token: String) async -> Answer {
        do {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/graphql")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: ["query": query, "variables": variables])))
            let response = try await UsersOverHTTPTests.Server.http.execute(request, timeout: .seconds(120))
            let body = try await response.body.collect(upTo: 1 << 22)
            guard response.status.code < 500 else { return .failure("HTTP \(response.status.code): \(String(buffer: body).prefix(300))") }
            let json = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any] ?? [:]
            if let error = (json["errors"] as? [[String: Any]])?.first {
                let extensions = error["extensions"] as? [String: Any] ?? [:]
                let code = extensions["code"] as? String ?? "NONE"
                let message = error["message"] as? String ?? ""
                guard ["BAD_USER_INPUT", "FORBIDDEN", "NOT_FOUND", "CONFLICT"].contains(code) else {
                    return .failure("\(code): \(message)")
                }
                return .refused(code: code, retryable: extensions["retryable"] as? Bool == true, message: message)
            }
            guard let data = json["data"] as? [String: Any] else { return .failure("no data: \(json)") }
            return .data(data)
        } catch {
            return .failure("request failed: \(error)")
        }
    }

    static let labelNames = ["Shared", "shared", "SHARED", "Groceries", "groceries", "N1", "n2", "N3", "Urgent", "Later"]

    /// One writer: `person` on `port`, drawing operations from `random` until its plan is done.
    static func write(
        _ index: Int, person: Person, role: String, port: Int, household: String, others: [Person], plan: Plan, deadline: ContinuousClock.Instant?,
        pool: Pool
    ) async -> Tally {
        var random = SplitMix(seed: plan.seed &+ UInt64(index) &* 0x9E37_79B9)
        var tally = Tally()
        let client = UUID().uuidString.lowercased()
        var nextMutation = 1
        var lastBatch: (first: Int, mutations: [[String: Any]])?
        func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[Int(random.next() % UInt64(items.count))] }
        func chance(_ percent: Int) -> Bool { Int(random.next() % 100) < percent }
        func labels() -> [String] { (0..<Int(random.next() % 4)).compactMap { _ in pick(labelNames) } }
        func someTask() -> String? { pool.withLock { $0.tasks.isEmpty ? nil : $0.tasks[Int(random.next() % UInt64($0.tasks.count))] } }
        func someLabel() -> String? { pool.withLock { $0.labels.isEmpty ? nil : $0.labels[Int(random.next() % UInt64($0.labels.count))] } }
        func record(_ answer: Answer, _ what: String) -> [String: Any]? {
            tally.operations += 1
            switch answer {
            case .data(let data):
                tally.applied += 1
                return data
            case .refused(let code, let retryable, _):
                tally.refusals[retryable ? "\(code) (try again)" : code, default: 0] += 1
            case .failure(let text):
                tally.failures.append("\(what): \(text)")
            }
            return nil
        }
        func created(_ id: String) {
            tally.created.insert(id)
            pool.withLock { $0.tasks.append(id) }
        }
        func deleted(_ id: String) {
            tally.deleted.insert(id)
            pool.withLock { $0.tasks.removeAll { $0 == id } }
        }
        /// A push of `mutations` (numbered from `first`), its results folded into the tally.
        func push(_ first: Int, _ mutations: [[String: Any]]) async {
            let numbered = mutations.enumerated().map { ["id": first + $0.offset, "op": $0.element] as [String: Any] }
            let sent = first + mutations.count - 1
            var ids = tally.clients[client] ?? (0, 0)
            ids.sent = max(ids.sent, sent)
            tally.clients[client] = ids
            let answer = await send(port, SyncOverHTTPTests.pushQuery, ["c": client, "m": numbered], token: person.token)
            guard let data = record(answer, "push"), let result = data["push"] as? [String: Any] else { return }
            ids.answered = max(ids.answered, result["lastMutationId"] as? Int ?? 0)
            tally.clients[client] = ids
            for (offset, outcome) in (result["results"] as? [[String: Any]] ?? []).enumerated() where offset < mutations.count {
                let status = outcome["status"] as? String ?? "?"
                tally.pushStatuses[status, default: 0] += 1
                let op = mutations[offset]
                if let create = (op["createTask"] ?? op["createEvent"]) as? [String: Any], let id = (create["input"] as? [String: Any])?["id"] as? String {
                    if status == "APPLIED" { created(id) } else if status == "CONFLICT" || status == "REJECTED" { tally.refusedCreates.insert(id) }
                }
                if let delete = op["deleteTask"] as? [String: Any], let id = delete["id"] as? String, status == "APPLIED" { deleted(id) }
            }
        }

        while true {
            if let deadline { if ContinuousClock.now >= deadline { break } } else if tally.operations >= plan.operationsPerWriter { break }
            let roll = Int(random.next() % 100)
            switch roll {
            case 0..<18:  // a task, with label names others use too
                let id = UUID().uuidString.lowercased()
                var input: [String: Any] = ["id": id, "title": "Task \(index)-\(tally.operations)", "labels": labels()]
                if chance(30) { input["subtasks"] = ["one", "two"] }
                if chance(20) { input["remindAt"] = ISO8601DateFormatter().string(from: Date().addingTimeInterval(3600)) }
                let answer = await send(port, "mutation($h: UUID!, $i: TaskInput!) { createTask(householdId: $h, input: $i) { id labels { name } } }",
                                        ["h": household, "i": input], token: person.token)
                if record(answer, "createTask") != nil { created(id) }
            case 18..<25:  // an event
                let id = UUID().uuidString.lowercased()
                let answer = await send(port, "mutation($h: UUID!, $i: EventInput!) { createEvent(householdId: $h, input: $i) { id } }",
                                        ["h": household, "i": ["id": id, "title": "Event \(index)-\(tally.operations)", "date": "2030-01-0\(1 + random.next() % 9)",
                                                               "labels": labels()]], token: person.token)
                if record(answer, "createEvent") != nil { created(id) }
            case 25..<37:  // an edit: a title, new labels, or an assignee
                guard let task = someTask() else { continue }
                var input: [String: Any] = chance(50) ? ["title": "Edited \(index)-\(tally.operations)"] : ["labels": labels()]
                if chance(15), let other = pick(others) { input["assigneeId"] = other.id }
                _ = record(await send(port, "mutation($id: UUID!, $i: TaskUpdateInput!) { updateTask(id: $id, input: $i) { id } }",
                                      ["id": task, "i": input], token: person.token), "updateTask")
            case 37..<45:
                guard let task = someTask() else { continue }
                _ = record(await send(port, "mutation($id: UUID!) { completeTask(id: $id) { id } }", ["id": task], token: person.token), "completeTask")
            case 45..<50:
                guard let task = someTask() else { continue }
                _ = record(await send(port, "mutation($id: UUID!) { reopenTask(id: $id) { id } }", ["id": task], token: person.token), "reopenTask")
            case 50..<58:
                guard let task = someTask() else { continue }
                _ = record(await send(port, "mutation($id: UUID!, $t: String!) { addSubtask(taskId: $id, title: $t) { id } }",
                                      ["id": task, "t": "Step \(tally.operations)"], token: person.token), "addSubtask")
            case 58..<62:
                guard let task = someTask() else { continue }
                _ = record(await send(port, "mutation($id: UUID!) { snoozeReminder(taskId: $id, minutes: 5) { id } }", ["id": task], token: person.token),
                           "snoozeReminder")
            case 62..<67:
                guard let task = someTask() else { continue }
                if record(await send(port, "mutation($id: UUID!) { deleteTask(id: $id) { id } }", ["id": task], token: person.token), "deleteTask") != nil {
                    deleted(task)
                }
            case 67..<72:  // a label by a name others may be creating too
                guard let name = pick(labelNames) else { continue }
                let answer = await send(port, "mutation($h: UUID!, $n: String!) { createLabel(householdId: $h, name: $n) { id } }",
                                        ["h": household, "n": name + (chance(50) ? "" : " \(random.next() % 6)")], token: person.token)
                if let data = record(answer, "createLabel"), let id = (data["createLabel"] as? [String: Any])?["id"] as? String {
                    pool.withLock { $0.labels.append(id) }
                }
            case 72..<75:
                guard let label = someLabel(), let name = pick(labelNames) else { continue }
                _ = record(await send(port, "mutation($id: UUID!, $n: String) { updateLabel(id: $id, name: $n) { id } }",
                                      ["id": label, "n": name + " \(random.next() % 6)"], token: person.token), "updateLabel")
            case 75..<77:
                guard let label = someLabel() else { continue }
                if record(await send(port, "mutation($id: UUID!) { deleteLabel(id: $id) { id } }", ["id": label], token: person.token), "deleteLabel") != nil {
                    pool.withLock { $0.labels.removeAll { $0 == label } }
                }
            case 77..<80:
                _ = record(await send(port, "mutation($h: UUID!) { markAllEventsRead(householdId: $h) }", ["h": household], token: person.token),
                           "markAllEventsRead")
            case 80..<96:  // a device's batch: or the last one again (its answer lost)
                if chance(25), let last = lastBatch {
                    await push(last.first, last.mutations)
                    continue
                }
                var mutations: [[String: Any]] = []
                for _ in 0..<(1 + Int(random.next() % 5)) {
                    let task = someTask()
                    switch random.next() % 6 {
                    case 0, 1:
                        mutations.append(["createTask": ["householdId": household,
                                                         "input": ["id": UUID().uuidString.lowercased(), "title": "Pushed \(index)", "labels": labels()]]])
                    case 2:
                        guard let task else { continue }
                        // Sometimes based on an old version: a CONFLICT when a named field moved since.
                        var op: [String: Any] = ["id": task, "input": ["notes": "Offline note \(index)"]]
                        if chance(40) { op["expectedVersion"] = 1 }
                        mutations.append(["updateTask": op])
                    case 3:
                        guard let task else { continue }
                        mutations.append(["completeTask": ["id": task]])
                    case 4:
                        guard let task else { continue }
                        mutations.append(["addSubtask": ["taskId": task, "id": UUID().uuidString.lowercased(), "title": "Pushed step"]])
                    default:
                        guard let task, chance(40) else { continue }
                        mutations.append(["deleteTask": ["id": task]])
                    }
                }
                guard !mutations.isEmpty else { continue }
                lastBatch = (nextMutation, mutations)
                await push(nextMutation, mutations)
                nextMutation += mutations.count
            case 96..<99:  // the household's description (its row locked FOR NO KEY UPDATE while others add its tasks) and the person's own preferences
                _ = record(await send(port, "mutation($h: UUID!, $d: String) { updateHousehold(id: $h, input: {description: $d}) { version } }",
                                      ["h": household, "d": "Written by \(person.id) (\(index))"], token: person.token), "updateHousehold")
                _ = record(await send(port, "mutation($t: Theme) { updatePreferences(input: {theme: $t}) { theme } }",
                                      ["t": chance(50) ? "DARK" : "LIGHT"], token: person.token), "updatePreferences")
            default:  // the owner moves a member between MEMBER and VIEWER
                guard role == "OWNER", let other = others.last else { continue }
                _ = record(await send(port, "mutation($h: UUID!, $u: UUID!, $r: HouseholdRole!) { changeMemberRole(householdId: $h, userId: $u, role: $r) { role } }",
                                      ["h": household, "u": other.id, "r": chance(50) ? "VIEWER" : "MEMBER"], token: person.token), "changeMemberRole")
            }
        }
        return tally
    }

    /// The value of one counter in `/metrics` text (0 when absent).
    static func counter(_ metrics: String, _ name: String) -> Int {
        for line in metrics.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Int(Double(line.split(separator: " ").last ?? "") ?? 0)
        }
        return 0
    }

    static func metrics(_ server: Server) async throws -> String {
        let response = try await server.execute(uri: "/metrics", method: .get, headers: [:], body: nil)
        return String(buffer: response.body)
    }

    /// The run of `plan` on two instances, checked; returns the tally for the report.
    static func run(_ plan: Plan) async throws {
        print("concurrency torture: \(plan) (HEARTH_TORTURE_SEED=\(plan.seed) replays it)")
        // The test clients' own connections, used for the checks afterwards, idle through the run: they
        // must outlast it, however long a loaded machine makes it (a count-bound run too).
        var connections = HTTPConnectionLimits()
        connections.idleTimeout = (plan.duration ?? .zero) + .seconds(600)
        try await UsersOverHTTPTests.withServers(count: 2, connections: connections) { servers in
            let (a, b) = (servers[0], servers[1])
            let olive = try await HouseholdsOverHTTPTests.person(a, "Olive")
            let ada = try await HouseholdsOverHTTPTests.person(a, "Ada")
            let max = try await HouseholdsOverHTTPTests.person(b, "Max")
            let home = try await HouseholdsOverHTTPTests.createHousehold(a, olive)
            try await HouseholdsOverHTTPTests.add(a, olive, home, ada, "ADMIN")
            try await HouseholdsOverHTTPTests.add(a, olive, home, max, "MEMBER")
            let people = [(olive, "OWNER"), (ada, "ADMIN"), (max, "MEMBER")]
            let ports = [try #require(a.client.port), try #require(b.client.port)]
            let before = try await metrics(a)
            let pool = Pool()
            let started = ContinuousClock.now
            let deadline = plan.duration.map { started + $0 }
            var tally = Tally()
            await withTaskGroup(of: Tally.self) { group in
                for index in 0..<plan.writers {
                    let (person, role) = people[index % people.count]
                    let others = people.map(\.0).filter { $0.id != person.id }
                    group.addTask {
                        await write(index, person: person, role: role, port: ports[index % 2], household: home, others: others, plan: plan,
                                    deadline: deadline, pool: pool)
                    }
                }
                for await one in group { tally.merge(one) }
            }
            let elapsed = ContinuousClock.now - started
            let after = try await metrics(a)

            // Every answer was data or a typed refusal.
            let internalErrors = a.log.lines.withLock { $0.filter { $0.contains("resolver failed") } }
            #expect(tally.failures.isEmpty, "\(plan): \(tally.failures.count) failures, first: \(tally.failures.prefix(5)); the server said: \(internalErrors.prefix(3))")

            // Every acknowledged create is there unless an acknowledged delete removed it; refused pushed creates are not.
            let database = a.database
            let everyID = Array(tally.created.union(tally.refusedCreates).compactMap(UUID.init(uuidString:)))
            var present = Set<String>()
            for try await id in try await database.client.query("SELECT id FROM task_items WHERE id = ANY(\(everyID))").decode(UUID.self) {
                present.insert(id.uuidString.lowercased())
            }
            let expected = tally.created.subtracting(tally.deleted)
            #expect(present == expected, "\(plan): missing \(expected.subtracting(present).prefix(5)), unexpected \(present.subtracting(expected).prefix(5))")

            // Label names are unique case aside, and every item's labels are its household's.
            var duplicated: [String] = []
            for try await name in try await database.client.query(
                "SELECT lower(name) FROM labels WHERE household_id = \(UUID(uuidString: home)) GROUP BY 1 HAVING count(*) > 1").decode(String.self) {
                duplicated.append(name)
            }
            #expect(duplicated.isEmpty, "\(plan): duplicated label names \(duplicated)")
            var foreign = 0
            for try await count in try await database.client.query("""
                SELECT count(*) FROM task_labels tl JOIN task_items t ON t.id = tl.task_id JOIN labels l ON l.id = tl.label_id
                WHERE t.household_id <> l.household_id
                """).decode(Int.self) { foreign = count }
            #expect(foreign == 0)

            // Every device's last processed mutation is at least what it was told, at most what it sent.
            for (client, ids) in tally.clients {
                var last = -1
                for try await value in try await database.client.query(
                    "SELECT last_mutation_id FROM sync_clients WHERE id = \(UUID(uuidString: client))").decode(Int.self) { last = value }
                #expect(last >= ids.answered && last <= ids.sent, "\(plan): client \(client) at \(last), told \(ids.answered), sent \(ids.sent)")
            }

            // A snapshot pulled from scratch is what the database and the queries hold.
            var snapshot: SyncOverHTTPTests.Copy = [:]
            try await SyncOverHTTPTests.pullAll(b, olive, home, into: &snapshot, after: nil)
            var tasks: [String: Int] = [:]
            for try await (id, version) in try await database.client.query(
                "SELECT id, version FROM task_items WHERE household_id = \(UUID(uuidString: home))").decode((UUID, Int).self) {
                tasks["TASK/" + id.uuidString.lowercased()] = version
            }
            let pulledTasks = snapshot.filter { $0.key.hasPrefix("TASK/") }.mapValues { $0["version"] as? Int ?? -1 }
            #expect(pulledTasks == tasks, "\(plan): the snapshot's items differ from the database's")
            let listed = try await a.data("query($h: UUID!) { labels(householdId: $h) { id } }", ["h": home], token: olive.token)
            let labelIDs = Set((listed["labels"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }.map { "LABEL/\($0)" })
            #expect(labelIDs == Set(snapshot.keys.filter { $0.hasPrefix("LABEL/") }), "\(plan): the snapshot's labels differ from the query's")

            let retries = ["deadlock", "serialization"].map { reason in
                let name = #"hearth_db_transaction_retries_total{reason="\#(reason)"}"#
                return "\(reason) \(counter(after, name) - counter(before, name))"
            }
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            print("""
                concurrency torture (\(plan)): \(tally.operations) operations in \(String(format: "%.1f", seconds)) s \
                (\(String(format: "%.0f", Double(tally.operations) / seconds))/s on two instances), \(tally.applied) answered with data; \
                refusals \(tally.refusals.sorted { $0.key < $1.key }); push results \(tally.pushStatuses.sorted { $0.key < $1.key }); \
                retries (both instances' process) \(retries.joined(separator: ", ")); failures \(tally.failures.count)
                """)
        }
    }

    @Test func writersOnTwoInstancesNeverFailAndAgreeAfterwards() async throws {
        try await Self.run(Plan.fromEnvironment())
    }

    /// The case from the report: 16 creates at once, each naming a label nobody made yet, on one
    /// instance (as reported: 14 of 16 failed) and spread over two.
    @Test(arguments: [1, 2])
    func concurrentCreatesWithNewLabelNamesAllSucceedWithOneLabelEach(instances: Int) async throws {
        try await UsersOverHTTPTests.withServers(count: instances) { servers in
            let olive = try await HouseholdsOverHTTPTests.person(servers[0], "Olive")
            let home = try await HouseholdsOverHTTPTests.createHousehold(servers[0], olive)
            let ports = try servers.map { try #require($0.client.port) }
            let answers = await withTaskGroup(of: [String].self) { group in
                for index in 0..<16 {
                    group.addTask {
                        let answer = await Self.send(ports[index % ports.count], "mutation($h: UUID!, $i: TaskInput!) { createTask(householdId: $h, input: $i) { labels { id name } } }",
                                                ["h": home, "i": ["title": "Chore \(index)", "labels": [index % 2 == 0 ? "N3" : "n3", "Shared"]]],
                                                token: olive.token)
                        guard case .data(let data) = answer else { return ["\(answer)"] }
                        let labels = (data["createTask"] as? [String: Any])?["labels"] as? [[String: Any]] ?? []
                        return labels.compactMap { $0["id"] as? String }
                    }
                }
                var all: [[String]] = []
                for await labels in group { all.append(labels) }
                return all
            }
            #expect(answers.allSatisfy { $0.count == 2 }, "\(answers)")
            #expect(Set(answers.flatMap { $0 }).count == 2, "every create uses the same two labels: \(answers)")
            let labels = try await servers[servers.count - 1].data("query($h: UUID!) { labels(householdId: $h) { name } }", ["h": home], token: olive.token)
            #expect(Set((labels["labels"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }) == ["N3", "Shared"]
                    || Set((labels["labels"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }) == ["n3", "Shared"])
        }
    }
}
