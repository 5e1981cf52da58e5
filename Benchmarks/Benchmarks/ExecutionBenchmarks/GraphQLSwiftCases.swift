import BenchSupport
import Benchmark
import Foundation
import GraphQL
import Synchronization

/// The same full requests with GraphQLSwift 4.3.0: `graphql(schema:request:)` (parse, validate,
/// execute) and `JSONEncoder` for the response, its documented way to serialise a `GraphQLResult`.
func registerGraphQLSwiftCases(introspectionQuery: String?, githubSDL: String?) {
    func measure(_ name: String, _ schema: GraphQLSchema?, _ query: String, root: any Sendable = [String: any Sendable](),
                 context: @escaping @Sendable () -> any Sendable = { () }) {
        guard let schema else {
            print("ExecutionBenchmarks: GraphQLSwift cannot build the schema of \(name)")
            return
        }
        Benchmark("GraphQLSwift \(name)", configuration: .init(scalingFactor: scaling(of: name))) { benchmark in
            let encoder = JSONEncoder()
            for _ in benchmark.scaledIterations {
                let result = try await graphql(schema: schema, request: query, rootValue: root, context: context())
                if !result.errors.isEmpty { fatalError("GraphQLSwift \(name): \(result.errors)") }
                blackHole(try encoder.encode(result).count)
            }
        }
    }

    measure("typename", try? buildSchema(source: "type Query { a: Int }"), "{ __typename }")

    let rowsSchema = try? buildSchema(source: "type Query { rows: [Row] } type Row { a: Int, b: String, c: Boolean }")
    func rows(_ count: Int) -> [String: any Sendable] {
        ["rows": (0..<count).map { ["a": $0, "b": "row \($0)", "c": $0 % 2 == 0] as [String: any Sendable] }]
    }
    measure("rows-100x3", rowsSchema, "{ rows { a b c } }", root: rows(100))
    measure("rows-10000x2", rowsSchema, "{ rows { a b } }", root: rows(10_000))

    if let githubSDL, let introspectionQuery {
        measure("github-introspection", try? buildSchema(source: githubSDL), introspectionQuery)
    }

    // 10 × 10 × 10 nested lists, with the resolvers set on the built schema as the graphql-js script does.
    let nestedSDL = "type Query { items: [A] } type A { id: Int, children: [B] } type B { id: Int, children: [C] } type C { id: Int, name: String }"
    let nestedQuery = "{ items { id children { id children { id name } } } }"
    @Sendable func children(of id: Int) -> [any Sendable] {
        (0..<10).map { ["id": id * 10 + $0, "name": "n"] as [String: any Sendable] }
    }
    @Sendable func parentID(_ source: any Sendable) -> Int { ((source as? [String: any Sendable])?["id"] as? Int) ?? 0 }
    func nestedSchema(_ resolve: @escaping @Sendable (Int, any Sendable) async throws -> any Sendable) -> GraphQLSchema? {
        guard let schema = try? buildSchema(source: nestedSDL) else { return nil }
        for (typeName, fieldName) in [("Query", "items"), ("A", "children"), ("B", "children")] {
            guard let type = schema.getType(name: typeName) as? GraphQLObjectType else { return nil }
            let fields = type.fields
            type.fields = {
                let map = try fields()
                map[fieldName]?.resolve = { source, _, context, _ in try await resolve(parentID(source), context) }
                return map
            }
        }
        return schema
    }
    measure("nested-10x10x10-sync", nestedSchema { id, _ in children(of: id) }, nestedQuery)
    measure("nested-10x10x10-async", nestedSchema { id, _ in await Task.yield(); return children(of: id) }, nestedQuery)
    measure(
        "nested-10x10x10-dataloader", nestedSchema { id, context in
            guard let loader = context as? MinimalLoader else { throw GraphQLError(message: "no loader in the context") }
            return try await loader.load(id)
        },
        nestedQuery, context: { MinimalLoader { ids in ids.map(children(of:)) } })
}

/// A minimal DataLoader for GraphQLSwift (its DataLoader package is not among this machine's
/// packages), scheduled like graphql-js's bench loader: loads queue up, the first schedules a
/// dispatch that runs after the loading tasks have had a turn.
final class MinimalLoader: Sendable {
    typealias Continuation = CheckedContinuation<any Sendable, any Error>
    private let batch: @Sendable ([Int]) -> [any Sendable]
    private let state = Mutex<(queue: [(Int, Continuation)], cache: [Int: Task<any Sendable, any Error>])>(([], [:]))

    init(batch: @escaping @Sendable ([Int]) -> [any Sendable]) { self.batch = batch }

    func load(_ key: Int) async throws -> any Sendable {
        let task: Task<any Sendable, any Error> = state.withLock { state in
            if let cached = state.cache[key] { return cached }
            let task = Task<any Sendable, any Error> { try await self.enqueue(key) }
            state.cache[key] = task
            return task
        }
        return try await task.value
    }

    private func enqueue(_ key: Int) async throws -> any Sendable {
        try await withCheckedThrowingContinuation { continuation in
            let first = state.withLock { state in
                state.queue.append((key, continuation))
                return state.queue.count == 1
            }
            if first { Task { await Task.yield(); self.dispatch() } }
        }
    }

    private func dispatch() {
        let queue = state.withLock { state in
            defer { state.queue = [] }
            return state.queue
        }
        let values = batch(queue.map(\.0))
        for (index, item) in queue.enumerated() { item.1.resume(returning: values[index]) }
    }
}
