// swift-tools-version: 6.1
// Benchmarks for Hearth, kept out of the main build. Run with `make bench` from the repository
// root. Compares Hearth's GraphQL parser, schema builder and validator with GraphQLSwift's
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
        .executableTarget(
            name: "ParserBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "GraphQLEngine", package: rootIdentity),
                .product(name: "GraphQL", package: "GraphQL"),
            ],
            path: "Benchmarks/ParserBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ValidationBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "GraphQLEngine", package: rootIdentity),
                .product(name: "GraphQL", package: "GraphQL"),
            ],
            path: "Benchmarks/ValidationBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ExecutionBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "GraphQLEngine", package: rootIdentity),
                .product(name: "GraphQL", package: "GraphQL"),
            ],
            path: "Benchmarks/ExecutionBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
