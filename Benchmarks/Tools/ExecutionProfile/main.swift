/// The 10 × 10 × 10 nested-lists request of the execution benchmarks (synchronous, suspending or
/// DataLoader resolvers) run N times in one process, outside the benchmark harness: p25 and p50 per
/// request, and a process to put under `perf record`. Usage: ExecutionProfile sync|async|dataloader [N]
import GraphQLEngine
import Foundation

let nestedSDL = "type Query { items: [A] } type A { id: Int, children: [B] } type B { id: Int, children: [C] } type C { id: Int, name: String }"
let nestedQuery = "{ items { id children { id children { id name } } } }"
@Sendable func children(of id: Int) -> Resolved { .list((0..<10).map { .value(["id": .int(id * 10 + $0), "name": "n"]) }) }
@Sendable func parentID(_ input: FieldInput) -> Int {
    if case .value(let data) = input.source, case .int(let id)? = data["id"] { return id }
    return 0
}
var sync = Resolvers(defaultResolution: .everywhere)
sync.field("Query.items") { _ in children(of: 0) }
sync.field("A.children") { input in children(of: parentID(input)) }
sync.field("B.children") { input in children(of: parentID(input)) }
var suspending = Resolvers(defaultResolution: .everywhere)
suspending.field("Query.items") { _ in await Task.yield(); return children(of: 0) }
suspending.field("A.children") { input in await Task.yield(); return children(of: parentID(input)) }
suspending.field("B.children") { input in await Task.yield(); return children(of: parentID(input)) }
var batched = Resolvers(defaultResolution: .everywhere)
@Sendable func load(_ input: FieldInput) async throws -> Resolved {
    let loader = input.request.loader("children") { (ids: [Int]) -> [Result<Resolved, any Error>] in
        ids.map { .success(children(of: $0)) }
    }
    return try await loader.load(parentID(input))
}
batched.field("Query.items") { input in try await load(input) }
batched.field("A.children") { input in try await load(input) }
batched.field("B.children") { input in try await load(input) }

let which = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "sync"
let count = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 1000 : 1000
let resolvers = which == "async" ? suspending : which == "dataloader" ? batched : sync
let schema = try SchemaBuilder.build(sdl: nestedSDL)
let executor = Executor(try ExecutableSchema(schema, resolvers: resolvers), configuration: ExecutorConfiguration(limits: .unlimited, documentCacheCapacity: 0))
let request = GraphQLRequest(query: nestedQuery)
let times = await Task.detached {
    var times: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<count {
        let start = clock.now
        let size = await executor.execute(request).json.count
        let elapsed = clock.now - start
        precondition(size > 0)
        times.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
    }
    return times.sorted()
}.value
print(which, "p25", Int(times[times.count / 4]), "p50", Int(times[times.count / 2]), "µs")
