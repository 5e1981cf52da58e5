import BenchSupport
import Benchmark
import Foundation
import GraphQL
import GraphQLEngine

/// Parse speed and allocations per parse: Hearth's parser against GraphQLSwift's, on the
/// inputs graphql-js's own benchmarks use (kitchen-sink query, introspection query, GitHub's
/// schema). The inputs come from `../shared/bench` or `HEARTH_BENCH_INPUTS`.
let benchmarks: @Sendable () -> Void = {
    let inputs = BenchmarkInputs.load()
    if inputs.missing.isEmpty == false {
        print("ParserBenchmarks: skipping \(inputs.missing.joined(separator: ", ")): not found in \(BenchmarkInputs.directory.path) (set HEARTH_BENCH_INPUTS)")
    }
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 20,
        maxDuration: .seconds(3),
        maxIterations: 100_000
    )

    for input in inputs.available {
        let source = GraphQLEngine.Source(input.text, name: input.name)
        let options = ParseOptions.trusted
        Benchmark("Hearth parse \(input.name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try GraphQLEngine.Parser.parse(source, options: options))
            }
        }
        let graphQLSwiftSource = GraphQL.Source(body: input.text, name: input.name)
        Benchmark("GraphQLSwift parse \(input.name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try GraphQL.parse(source: graphQLSwiftSource))
            }
        }
    }
}

enum BenchmarkInputs {
    struct Input {
        var name: String
        var text: String
    }

    static var directory: URL { BenchInputs.directory }

    static func load() -> (available: [Input], missing: [String]) {
        var available: [Input] = []
        var missing: [String] = []
        // graphql-js's getIntrospectionQuery(), written out by scripts/bench/parse.sh.
        if let text = BenchInputs.introspection {
            available.append(Input(name: "introspection", text: text))
        } else {
            missing.append("the introspection query (HEARTH_BENCH_INTROSPECTION)")
        }
        for name in ["kitchen-sink.graphql", "github-schema.graphql"] {
            if let text = BenchInputs.input(name) {
                available.append(Input(name: name.replacingOccurrences(of: ".graphql", with: ""), text: text))
            } else {
                missing.append(name)
            }
        }
        return (available, missing)
    }
}
