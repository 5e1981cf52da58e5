/// The 10 × 10 × 10 nested-lists request of the execution benchmarks (synchronous, suspending or
/// DataLoader resolvers) run N times in one process, outside the benchmark harness: p25 and p50 per
/// request, and a process to put under `perf record`. Usage: ExecutionProfile sync|async|dataloader [N]
import BenchSupport
import Foundation
import GraphQLEngine

guard CommandLine.arguments.count > 1, let resolution = NestedLists.Resolution(rawValue: CommandLine.arguments[1]) else {
    print("usage: ExecutionProfile sync|async|dataloader [N]")
    exit(2)
}
let count = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 1000 : 1000
let schema = try SchemaBuilder.build(sdl: NestedLists.sdl)
let executor = Executor(
    try ExecutableSchema(schema, resolvers: NestedLists.resolvers(resolution)),
    configuration: ExecutorConfiguration(limits: .unlimited, documentCacheCapacity: 0))
let request = GraphQLRequest(query: NestedLists.query)
// In a task of its own, as the benchmark harness runs requests (top-level code is on the main actor).
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
print(resolution.rawValue, "p25", Int(times[times.count / 4]), "p50", Int(times[times.count / 2]), "µs")
