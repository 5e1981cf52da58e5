import Synchronization
import Testing

@testable import GraphQLEngine

/// DataLoader batching per level (batch calls counted), caching, per-key errors and batch size.
@Suite struct DataLoaderTests {
    static let sdl = """
        type Query { households: [Household!]! }
        type Household { id: Int!, members: [Member!]! }
        type Member { id: Int!, user: User }
        type User { id: Int!, name: String }
        """

    /// Calls of each batch function, and the keys each got.
    final class Calls: Sendable {
        let log = Mutex<[String: [[Int]]]>([:])
        func record(_ name: String, _ keys: [Int]) { log.withLock { $0[name, default: []].append(keys) } }
        func count(_ name: String) -> Int { log.withLock { $0[name]?.count ?? 0 } }
        func keys(_ name: String) -> [[Int]] { log.withLock { $0[name] ?? [] } }
    }

    static func resolvers(_ calls: Calls, households: Int, maxBatchSize: Int = 100) -> Resolvers {
        var resolvers = Resolvers(defaultResolution: .everywhere)
        resolvers.field("Query.households") { _ in
            await Task.yield()
            return .list((0..<households).map { .value(["id": .int($0)]) })
        }
        resolvers.field("Household.members") { input in
            guard case .int(let id)? = input.source.value?["id"] else { return .null }
            let loader = input.request.loader("members", maxBatchSize: maxBatchSize) { (keys: [Int]) -> [Result<[Int], any Error>] in
                calls.record("members", keys)
                return keys.map { .success([$0 * 10, $0 * 10 + 1]) }
            }
            let members = try await loader.load(id)
            return .list(members.map { .value(["id": .int($0)]) })
        }
        resolvers.field("Member.user") { input in
            guard case .int(let id)? = input.source.value?["id"] else { return .null }
            let loader = input.request.loader("users", maxBatchSize: maxBatchSize) { (keys: [Int]) -> [Result<String, any Error>] in
                calls.record("users", keys)
                try await Task.sleep(for: .milliseconds(1))
                return keys.map { $0 % 7 == 3 ? .failure(FieldError("user \($0) is gone", code: "NOT_FOUND")) : .success("user \($0)") }
            }
            // Two members share each user: the cache answers the second load.
            let name = try await loader.load(id / 2)
            return .value(["id": .int(id / 2), "name": .string(name)])
        }
        return resolvers
    }

    @Test func oneBatchPerLevelForFiftyHouseholds() async throws {
        let calls = Calls()
        let harness = try ExecutionHarness(Self.sdl, resolvers: Self.resolvers(calls, households: 50))
        let response = try await harness.run("{ households { id members { id user { id name } } } }")
        #expect(calls.count("members") == 1)
        #expect(calls.count("users") == 1)
        // Every household's key once (the resolvers run concurrently: their order in the batch is theirs).
        #expect(calls.keys("members").first?.sorted() == Array(0..<50))
        // 100 members, 50 distinct users (each loaded once).
        #expect(calls.keys("users").first?.count == 50)
        guard case .list(let households)? = response["data"]?["households"] else {
            Issue.record("no households: \(response.json)")
            return
        }
        #expect(households.count == 50)
        #expect(households[1]["members"] == [["id": 10, "user": ["id": 5, "name": "user 5"]], ["id": 11, "user": ["id": 5, "name": "user 5"]]])
        // Users 10, 45, 80 … fail (id % 7 == 3): both members of each get the key's own error, at their paths.
        #expect(ExecutionHarness.messages(response).filter { $0 == "user 10 is gone" }.count == 2)
        let failingUsers: [Int] = (0..<50).map { $0 * 5 }.filter { $0 % 7 == 3 }
        #expect(ExecutionHarness.messages(response).count == 2 * failingUsers.count)
        #expect(Set(ExecutionHarness.codes(response)) == ["NOT_FOUND"])
        #expect(households[2]["members"] == [["id": 20, "user": nil], ["id": 21, "user": nil]])
        // Each failing user's two members, at their own paths (in the order their resolvers
        // finished, which concurrency decides: compared as a set).
        guard case .list(let errors)? = response["errors"] else { return }
        let failingHouseholds = (0..<50).filter { ($0 * 5) % 7 == 3 }
        let expected: Set<String> = Set(failingHouseholds.flatMap { household in
            (0...1).map { member in GraphQLValue.list(["households", .int(household), "members", .int(member), "user"]).json }
        })
        #expect(Set(errors.compactMap { $0["path"]?.json }) == expected)
        #expect(failingHouseholds.first == 2)
    }

    @Test func theBatchSizeLimitSplitsABatch() async throws {
        let calls = Calls()
        let harness = try ExecutionHarness(Self.sdl, resolvers: Self.resolvers(calls, households: 25, maxBatchSize: 10))
        _ = try await harness.run("{ households { members { id } } }")
        #expect(calls.keys("members").map(\.count) == [10, 10, 5])
    }

    @Test func aFailingBatchFailsEveryKeyAndAWrongCountIsReported() async throws {
        let loader = DataLoader<Int, Int> { keys in
            if keys.contains(0) { throw FieldError("database down", code: "UNAVAILABLE") }
            return [.success(1)]
        }
        await #expect(throws: FieldError.self) { try await loader.load(0) }
        do {
            _ = try await loader.loadMany([1, 2])
            Issue.record("a short batch must fail")
        } catch let error as DataLoaderError {
            #expect(error.description == "DataLoader batch returned 1 values for 2 keys")
        }
        let byKey = DataLoader<Int, String>.results(for: [1, 2], from: [1: "one"])
        #expect((try? byKey[0].get()) == "one")
        #expect(throws: DataLoaderError.self) { try byKey[1].get() }
    }

    @Test func loadsAreCachedForTheRequest() async throws {
        let calls = Calls()
        let loader = DataLoader<Int, Int> { keys in
            calls.record("square", keys)
            return keys.map { .success($0 * $0) }
        }
        #expect(try await loader.load(3) == 9)
        #expect(try await loader.load(3) == 9)
        loader.prime(4, 99)
        #expect(try await loader.loadMany([3, 4, 5]) == [9, 99, 25])
        #expect(calls.keys("square") == [[3], [5]])
    }

    /// A name a struct makes, as a field and its arguments do.
    struct BatchName: Hashable, Sendable {
        var field: String
        var limit: Int
    }

    @Test func aNameFindsTheSameLoaderForTheRequest() {
        let scope = RequestScope()
        let batch: DataLoader<Int, Int>.Batch = { keys in keys.map { .success($0) } }
        let users = scope.loader("users", batch: batch)
        #expect(scope.loader("users", batch: batch) === users)
        #expect(scope.loader("members", batch: batch) !== users)
        // Text of another type is another name, as AnyHashable compares them.
        #expect(scope.loader(Substring("users"), batch: batch) !== users)
        let firstTen = scope.loader(BatchName(field: "users", limit: 10), batch: batch)
        #expect(scope.loader(BatchName(field: "users", limit: 10), batch: batch) === firstTen)
        #expect(scope.loader(BatchName(field: "users", limit: 20), batch: batch) !== firstTen)
        // A name asked for with other key or value types gets a loader of those types.
        let texts = scope.loader("users") { (keys: [String]) -> [Result<Int, any Error>] in keys.map { .success($0.count) } }
        #expect(type(of: texts) == DataLoader<String, Int>.self)
        #expect(scope.loader("users", batch: batch) !== users)
        let another = RequestScope()
        #expect(another.loader("users", batch: batch) !== users)
    }
}

extension Resolved {
    /// The plain data this holds, if any (for tests).
    var value: GraphQLValue? {
        if case .value(let value) = self { return value }
        return nil
    }
}
