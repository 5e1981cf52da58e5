// swift-tools-version: 6.1
// Benchmarks for Hearth, kept out of the main build. Run with `make bench` from the repository
// root. Compares Hearth's GraphQL parser, schema builder, validator and executor with GraphQLSwift's
// (graphql-js is measured by scripts/bench/graphql-js*.js on the same inputs).
import Foundation
import PackageDescription

// A path dependency is named after its folder, which differs between checkouts.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
let rootIdentity = root.lastPathComponent.lowercased()

let package = Package(
    name: "HearthBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/GraphQLSwift/GraphQL", from: "4.3.0"),
    ],
    targets: [
        // What the benchmark executables share: input locations, the nested-lists case.
        .target(
            name: "BenchSupport", dependencies: [.product(name: "GraphQLEngine", package: rootIdentity)],
            path: "Benchmarks/BenchSupport"),
        benchmark("ParserBenchmarks"),
        benchmark("ValidationBenchmarks"),
        benchmark("ExecutionBenchmarks"),
        // Instructions per parse under callgrind (scripts/bench/instructions.sh): no harness around it,
        // and outside Benchmarks/ so that the benchmark plugin does not take it for one.
        .executableTarget(
            name: "ParseInstructions",
            dependencies: ["BenchSupport", .product(name: "GraphQLEngine", package: rootIdentity)],
            path: "Tools/ParseInstructions"
        ),
        .executableTarget(
            name: "ExecutionProfile",
            dependencies: ["BenchSupport", .product(name: "GraphQLEngine", package: rootIdentity)],
            path: "Tools/ExecutionProfile"
        ),
    ],
    swiftLanguageModes: [.v6]
)

/// A benchmark executable of Benchmarks/NAME, comparing Hearth's engine with GraphQLSwift's.
func benchmark(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            "BenchSupport",
            .product(name: "Benchmark", package: "benchmark"),
            .product(name: "GraphQLEngine", package: rootIdentity),
            .product(name: "GraphQL", package: "GraphQL"),
        ],
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}
