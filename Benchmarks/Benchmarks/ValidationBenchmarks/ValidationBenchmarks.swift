import BenchSupport
import Benchmark
import Foundation
import GraphQL
import GraphQLEngine

/// Schema building and validation: Hearth's engine against GraphQLSwift's, on the cases
/// graphql-js is measured on by scripts/bench/graphql-js-validation.js: building GitHub's schema
/// from SDL (with schema validation), validating the introspection query and a query with about
/// twenty errors against it, and 250 repeated fields (OverlappingFieldsCanBeMerged's worst case).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 5,
        maxDuration: .seconds(3),
        maxIterations: 100_000
    )
    let inputs = ValidationInputs.load()
    for note in inputs.notes { print("ValidationBenchmarks: \(note)") }

    // 250 repeated fields.
    let repeatedText = "{ " + String(repeating: "hello ", count: 250) + "}"
    if let helloSchema = try? SchemaBuilder.build(sdl: "type Query { hello: String }"),
        let repeated = try? GraphQLEngine.Parser.parse(repeatedText)
    {
        Benchmark("Hearth repeated-fields") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(Validator.validate(repeated, against: helloSchema)) }
        }
    }
    if let helloSchema = try? GraphQL.buildSchema(source: "type Query { hello: String }"),
        let repeated = try? GraphQL.parse(source: repeatedText)
    {
        Benchmark("GraphQLSwift repeated-fields") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(GraphQL.validate(schema: helloSchema, ast: repeated)) }
        }
    }

    guard let sdl = inputs.githubSchema else { return }
    Benchmark("Hearth build-github-schema") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try SchemaBuilder.build(sdl: sdl)) }
    }
    Benchmark("GraphQLSwift build-github-schema") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try GraphQL.buildSchema(source: sdl)) }
    }

    let queries = [("validate-introspection", inputs.introspection), ("validate-invalid-query", inputs.invalidQuery)]
    if let schema = try? SchemaBuilder.build(sdl: sdl) {
        for case (let name, let text?) in queries {
            guard let document = try? GraphQLEngine.Parser.parse(text) else { continue }
            Benchmark("Hearth \(name)") { benchmark in
                for _ in benchmark.scaledIterations { blackHole(Validator.validate(document, against: schema)) }
            }
        }
    }
    if let schema = try? GraphQL.buildSchema(source: sdl) {
        for case (let name, let text?) in queries {
            guard let document = try? GraphQL.parse(source: text) else { continue }
            Benchmark("GraphQLSwift \(name)") { benchmark in
                for _ in benchmark.scaledIterations { blackHole(GraphQL.validate(schema: schema, ast: document)) }
            }
        }
    }
}

enum ValidationInputs {
    static func load() -> (githubSchema: String?, introspection: String?, invalidQuery: String?, notes: [String]) {
        var notes: [String] = []
        let github = BenchInputs.input("github-schema.graphql")
        if github == nil { notes.append("skipping the GitHub schema cases: not found in \(BenchInputs.directory.path) (set HEARTH_BENCH_INPUTS)") }
        let introspection = BenchInputs.introspection
        if introspection == nil { notes.append("skipping validate-introspection: set HEARTH_BENCH_INTROSPECTION") }
        let invalid = BenchInputs.read(BenchInputs.repository.appendingPathComponent("scripts/bench/invalid-query.graphql").path)
        return (github, introspection, invalid, notes)
    }
}
