import BenchSupport
import Benchmark
import Foundation
import GraphQLEngine

/// Full requests (parse + validate + execute + serialize to JSON bytes, no document cache unless
/// the name says so), on the cases scripts/bench/graphql-js-execution.js measures graphql-js on.

/// Requests of a few microseconds run a thousand to a sample (reported per request), so that the
/// harness's own cost per sample (a task started on another thread) does not swamp them.
func scaling(of name: String) -> BenchmarkScalingFactor {
    name.hasPrefix("typename") ? .kilo : .one
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 5,
        maxDuration: .seconds(3),
        maxIterations: 100_000
    )
    let uncached = ExecutorConfiguration(limits: .unlimited, documentCacheCapacity: 0)

    func executor(_ sdl: String, _ resolvers: Resolvers, _ configuration: ExecutorConfiguration = uncached) -> Executor? {
        guard let schema = try? SchemaBuilder.build(sdl: sdl), let executable = try? ExecutableSchema(schema, resolvers: resolvers) else {
            print("ExecutionBenchmarks: cannot build a schema")
            return nil
        }
        return Executor(executable, configuration: configuration)
    }

    func measure(_ name: String, _ executor: Executor?, _ query: String, root: Resolved = .null) {
        guard let executor else { return }
        let request = GraphQLRequest(query: query)
        Benchmark("Hearth \(name)", configuration: .init(scalingFactor: scaling(of: name))) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(await executor.execute(request, rootValue: root).json.count) }
        }
    }

    // { __typename }
    let tiny = executor("type Query { a: Int }", Resolvers(defaultResolution: .everywhere))
    measure("typename", tiny, "{ __typename }")
    measure(
        "typename-cached",
        executor("type Query { a: Int }", Resolvers(defaultResolution: .everywhere), ExecutorConfiguration()), "{ __typename }")

    // Rows of plain data read by the default resolver.
    let rowsSDL = "type Query { rows: [Row] } type Row { a: Int, b: String, c: Boolean }"
    func rows(_ count: Int) -> Resolved {
        .value(["rows": .list((0..<count).map { ["a": .int($0), "b": .string("row \($0)"), "c": .bool($0 % 2 == 0)] })])
    }
    let rowsExecutor = executor(rowsSDL, Resolvers(defaultResolution: .everywhere))
    measure("rows-100x3", rowsExecutor, "{ rows { a b c } }", root: rows(100))
    measure("rows-10000x2", rowsExecutor, "{ rows { a b } }", root: rows(10_000))

    // The introspection query on GitHub's schema.
    if let sdl = BenchInputs.input("github-schema.graphql"), let query = BenchInputs.introspection {
        let github = executor(sdl, Resolvers(defaultResolution: .everywhere))
        measure("github-introspection", github, query)
        // Repeated with the document cached: with plans rebuilt per request, then shared (planned once).
        var documentOnly = ExecutorConfiguration(limits: .unlimited)
        documentOnly.sharesPlans = false
        measure("github-introspection-document-cached", executor(sdl, Resolvers(defaultResolution: .everywhere), documentOnly), query)
        measure("github-introspection-cached", executor(sdl, Resolvers(defaultResolution: .everywhere), ExecutorConfiguration(limits: .unlimited)), query)
        // A small request on a large schema costs what it costs on a small one.
        measure("typename-github-schema", github, "{ __typename }")
    } else {
        print("ExecutionBenchmarks: skipping github-introspection (set HEARTH_BENCH_INPUTS and HEARTH_BENCH_INTROSPECTION)")
    }

    // 10 × 10 × 10 nested lists.
    let nestedSDL = NestedLists.sdl
    let nestedQuery = NestedLists.query
    let sync = NestedLists.resolvers(.sync)
    measure("nested-10x10x10-sync", executor(nestedSDL, sync), nestedQuery)
    var nestedDocumentOnly = ExecutorConfiguration(limits: .unlimited)
    nestedDocumentOnly.sharesPlans = false
    measure("nested-10x10x10-sync-document-cached", executor(nestedSDL, sync, nestedDocumentOnly), nestedQuery)
    measure("nested-10x10x10-sync-cached", executor(nestedSDL, sync, ExecutorConfiguration(limits: .unlimited)), nestedQuery)
    measure("nested-10x10x10-async", executor(nestedSDL, NestedLists.resolvers(.async)), nestedQuery)
    measure("nested-10x10x10-dataloader", executor(nestedSDL, NestedLists.resolvers(.dataloader)), nestedQuery)

    registerGraphQLSwiftCases(introspectionQuery: BenchInputs.introspection, githubSDL: BenchInputs.input("github-schema.graphql"))
}
