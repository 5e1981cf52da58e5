import FixtureShop
import Foundation
import HearthCore
import HearthServer
import Testing

/// Sync under disorder: devices working offline and re-sending at random converge on what the
/// server holds, and pullers racing concurrent writers (some holding their transactions open)
/// miss nothing.
@Suite struct SyncConvergenceTests {
    typealias Server = UsersOverHTTPTests.Server
    typealias Person = HouseholdsOverHTTPTests.Person
    typealias Copy = SyncOverHTTPTests.Copy

    /// One simulated device: its person, client id, queue of unsent mutations, copy and cursor.
    struct Device {
        var name: String
        var person: Person
        var client = UUID().uuidString.lowercased()
        var nextID = 1
        var queue: [[String: Any]] = []
        var copy: Copy = [:]
        var cursor: String?
    }

    @Test(arguments: [UInt64(20261124), 7, 42])
    func devicesOfflineThenSyncedConverge(seed: UInt64) async throws {
        try await UsersOverHTTPTests.withServer { server in
            var random = SplitMix(seed: seed)  // seeded: a failing run repeats (its seed is in the failure)
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let ben = try await HouseholdsOverHTTPTests.person(server, "Ben")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann)
            try await HouseholdsOverHTTPTests.add(server, ann, home, ben, "MEMBER")
            var devices = [Device(name: "ann-phone", person: ann), Device(name: "ann-tablet", person: ann),
                           Device(name: "ben-phone", person: ben), Device(name: "ben-laptop", person: ben)]
            // Every create and subtask a device made, and how many times the server applied each.
            var creates: [String: Int] = [:]
            var subtasks: [String: (task: String, applied: Int)] = [:]
            var statuses: [String: Int] = [:]

            func op(for device: Device, _ random: inout SplitMix) -> [String: Any] {
                let tasks = device.copy.filter { $0.key.hasPrefix("TASK/") }
                let known = tasks.keys.sorted().map { String($0.dropFirst(5)) }
                let choice = known.isEmpty ? 0 : Int.random(in: 0..<9, using: &random)
                let target = known.isEmpty ? "" : known[Int.random(in: 0..<known.count, using: &random)]
                let version = tasks["TASK/\(target)"]?["version"] as? Int
                switch choice {
                case 0, 1:
                    let id = UUID().uuidString.lowercased()
                    creates[id] = 0
                    return ["createTask": ["householdId": home, "input": ["id": id, "title": "\(device.name) \(device.nextID)"]]]
                case 2:
                    return ["updateTask": ["id": target, "input": ["title": "Title from \(device.name) \(device.nextID)"]]]
                case 3:
                    var update: [String: Any] = ["id": target, "input": ["notes": "Notes from \(device.name) \(device.nextID)"]]
                    if let version { update["expectedVersion"] = version }
                    return ["updateTask": update]
                case 4: return ["completeTask": ["id": target]]
                case 5: return ["reopenTask": ["id": target]]
                case 6:
                    let id = UUID().uuidString.lowercased()
                    subtasks[id] = (target, 0)
                    return ["addSubtask": ["taskId": target, "id": id, "title": "Step by \(device.name)"]]
                case 7: return ["updateTask": ["id": target, "input": ["priority": ["LOW", "HIGH"][Int.random(in: 0...1, using: &random)]]]]
                default:
                    var delete: [String: Any] = ["id": target]
                    if let version { delete["expectedVersion"] = version }
                    return ["deleteTask": delete]
                }
            }

            /// Sends the queue; with `lost`, the answer never reaches the device (it keeps the queue).
            func push(_ index: Int, lost: Bool) async throws {
                guard !devices[index].queue.isEmpty else { return }
                let device = devices[index]
                let result = try await SyncOverHTTPTests.push(server, device.person, client: device.client, device.queue)
                for (mutation, outcome) in zip(device.queue, result.results) {
                    let status = outcome["status"] as? String ?? "?"
                    statuses[status, default: 0] += 1
                    guard status == "APPLIED", let op = mutation["op"] as? [String: [String: Any]] else { continue }
                    if let create = op["createTask"], let id = (create["input"] as? [String: Any])?["id"] as? String { creates[id, default: 0] += 1 }
                    if let add = op["addSubtask"], let id = add["id"] as? String { subtasks[id]?.applied += 1 }
                }
                if !lost { devices[index].queue.removeAll { ($0["id"] as? Int ?? 0) <= result.last } }
            }

            func pull(_ index: Int, all: Bool, first: Int) async throws {
                let device = devices[index]
                if all {
                    var copy = device.copy
                    devices[index].cursor = try await SyncOverHTTPTests.pullAll(server, device.person, home, into: &copy, after: device.cursor, first: first)
                    devices[index].copy = copy
                    return
                }
                let page = try await SyncOverHTTPTests.pull(server, device.person, home, after: device.cursor, first: first)
                for change in page.changes {
                    let key = "\(change["type"] ?? "")/\(change["id"] ?? "")"
                    if change["deleted"] as? Bool == true {
                        devices[index].copy[key] = nil
                    } else {
                        var record = change["record"] as? [String: Any] ?? [:]
                        record["version"] = change["version"]
                        devices[index].copy[key] = record
                    }
                }
                devices[index].cursor = page.cursor
            }

            for index in devices.indices { try await pull(index, all: true, first: 50) }
            for _ in 0..<120 {
                let index = Int.random(in: 0..<devices.count, using: &random)
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<5:
                    devices[index].queue.append(["id": devices[index].nextID, "op": op(for: devices[index], &random)])
                    devices[index].nextID += 1
                case 5, 6: try await push(index, lost: Int.random(in: 0..<3, using: &random) == 0)
                default: try await pull(index, all: Bool.random(using: &random), first: Int.random(in: 1...5, using: &random))
                }
            }
            // All online: every device sends what it has (twice: the first answer is lost), then pulls.
            for index in devices.indices {
                try await push(index, lost: true)
                try await push(index, lost: false)
                #expect(devices[index].queue.isEmpty)
            }
            for index in devices.indices { try await pull(index, all: true, first: Int.random(in: 1...20, using: &random)) }

            // Each device's copy is its person's snapshot, and the snapshot is what the queries show.
            for person in [ann, ben] {
                var snapshot: Copy = [:]
                try await SyncOverHTTPTests.pullAll(server, person, home, into: &snapshot, after: nil, first: 7)
                for device in devices where device.person.id == person.id {
                    #expect(Set(device.copy.keys) == Set(snapshot.keys), "seed \(seed): \(device.name)")
                    for (key, record) in snapshot {
                        #expect(device.copy[key]?["version"] as? Int == record["version"] as? Int, "seed \(seed): \(device.name) \(key)")
                        #expect(device.copy[key]?["title"] as? String == record["title"] as? String, "seed \(seed): \(device.name) \(key)")
                    }
                }
                let listed = try await server.data("query($h: UUID!) { tasks(householdId: $h, first: 100) { totalCount edges { node { id version title subtasks { id } } } } }",
                                                   ["h": home], token: person.token)
                let nodes = ((listed["tasks"] as? [String: Any])?["edges"] as? [[String: Any]] ?? []).compactMap { $0["node"] as? [String: Any] }
                #expect(Set(nodes.compactMap { $0["id"] as? String }.map { "TASK/\($0)" }) == Set(snapshot.keys.filter { $0.hasPrefix("TASK/") }),
                        "seed \(seed)")
                for node in nodes {
                    #expect(snapshot["TASK/\(node["id"] as? String ?? "")"]?["version"] as? Int == node["version"] as? Int, "seed \(seed)")
                    // Nothing applied twice: a task's subtasks are the distinct ones applied to it.
                    let applied = subtasks.values.filter { $0.task == node["id"] as? String && $0.applied > 0 }.count
                    #expect((node["subtasks"] as? [[String: Any]])?.count == applied, "seed \(seed): \(node)")
                }
            }
            #expect(creates.values.allSatisfy { $0 <= 1 } && subtasks.values.allSatisfy { $0.applied <= 1 }, "seed \(seed)")
            #expect(statuses["APPLIED", default: 0] > 0 && statuses["DUPLICATE", default: 0] > 0, "seed \(seed): \(statuses)")
        }
    }

    /// A copy as "version notes" per record, to compare.
    static func summary(_ copy: Copy) -> [String: String] {
        copy.mapValues { "\($0["version"] as? Int ?? -1) \($0["notes"] as? String ?? "-")" }
    }

    /// Counts commits and lets a transaction wait until another writer committed after it began.
    actor Commits {
        private(set) var count = 0
        private var waiting: [(after: Int, continuation: CheckedContinuation<Void, Never>)] = []

        func committed() {
            count += 1
            let ready = waiting.filter { $0.after < count }
            waiting.removeAll { $0.after < count }
            for waiter in ready { waiter.continuation.resume() }
        }

        func next(after seen: Int) async {
            guard count <= seen else { return }
            await withCheckedContinuation { waiting.append((seen, $0)) }
        }
    }

    /// Which writers are done: the two holding transactions open, and all three.
    actor Finished {
        private(set) var holders = 0
        private(set) var writers = 0
        func holder() { holders += 1; writers += 1 }
        func steady() { writers += 1 }
    }

    @Test func concurrentWritersHoldingTransactionsOpenAreNeverSkipped() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann)
            var created: [String] = []
            for index in 0..<12 { created.append(try await SyncOverHTTPTests.createTask(server, ann, home, "Task \(index)").id) }
            let tasks = created
            let commits = Commits()
            let finished = Finished()
            let database = server.database
            let update = "mutation($id: UUID!, $i: TaskUpdateInput!) { updateTask(id: $id, input: $i) { id } }"

            // Writer 0 commits over HTTP until the others are done; writers 1 and 2 hold every
            // other transaction open until someone else committed after it began.
            @Sendable func steady() async throws {
                var round = 0
                while await finished.holders < 2, round < 2000 {
                    _ = try await server.data(update, ["id": tasks[round % 4], "i": ["notes": "steady \(round)"]], token: ann.token)
                    await commits.committed()
                    round += 1
                }
                await finished.steady()
            }
            @Sendable func holding(_ writer: Int) async throws {
                let mine = Array(tasks[(4 * writer)..<(4 * writer + 4)])
                for round in 0..<10 {
                    let id = mine[round % 4]
                    if round.isMultiple(of: 2) {
                        try await database.transaction(logger: database.logger) { connection in
                            let seen = await commits.count
                            try await connection.query(
                                "UPDATE task_items SET notes = \("held \(writer) \(round)") WHERE id = \(UUID(uuidString: id))", logger: database.logger)
                            await commits.next(after: seen)
                        }
                    } else {
                        _ = try await server.data(update, ["id": id, "i": ["title": "writer \(writer) round \(round)"]], token: ann.token)
                    }
                    await commits.committed()
                }
                await finished.holder()
            }
            @Sendable func puller(first: Int) async throws -> [String: String] {
                var copy: Copy = [:]
                var cursor = try await SyncOverHTTPTests.pullAll(server, ann, home, into: &copy, after: nil)
                while await finished.writers < 3 {
                    let page = try await SyncOverHTTPTests.pull(server, ann, home, after: cursor, first: first)
                    for change in page.changes {
                        var record = change["record"] as? [String: Any] ?? [:]
                        record["version"] = change["version"]
                        copy["\(change["type"] ?? "")/\(change["id"] ?? "")"] = record
                    }
                    cursor = page.cursor
                }
                try await SyncOverHTTPTests.pullAll(server, ann, home, into: &copy, after: cursor)
                return Self.summary(copy)
            }

            let copies = try await withThrowingTaskGroup(of: [String: String]?.self) { group in
                group.addTask { try await steady(); return nil }
                group.addTask { try await holding(1); return nil }
                group.addTask { try await holding(2); return nil }
                group.addTask { try await puller(first: 3) }
                group.addTask { try await puller(first: 1) }
                var copies: [[String: String]] = []
                for try await copy in group { if let copy { copies.append(copy) } }
                return copies
            }
            var snapshot: Copy = [:]
            try await SyncOverHTTPTests.pullAll(server, ann, home, into: &snapshot, after: nil)
            #expect(copies.count == 2)
            for copy in copies { #expect(copy == Self.summary(snapshot)) }
            // The held transactions' notes made it.
            #expect(Self.summary(snapshot).values.contains { $0.hasSuffix("held 1 8") } && Self.summary(snapshot).values.contains { $0.hasSuffix("held 2 8") })
        }
    }
}
