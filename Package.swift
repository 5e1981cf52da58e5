// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Hearth",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "hearth", targets: ["hearth"]),
        // For the Benchmarks package (and anyone who wants the engine alone).
        .library(name: "GraphQLEngine", targets: ["GraphQLEngine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),  // HummingbirdBcrypt
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),  // Hummingbird's header types
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),  // NIOThreadPool for bcrypt
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),  // HTTPS (--tls-cert-file)
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),  // store feeds
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),  // the assistants' tools (MCP)
    ],
    targets: [
        // The GraphQL implementation: imports nothing but the standard library.
        .target(name: "GraphQLEngine"),
        // An embedded PostgreSQL cluster (initdb, start, supervise, stop) and the child processes
        // it runs: only the CLI and HearthCore's backups import it.
        .target(
            name: "HearthPostgres",
            dependencies: [
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Domain and services: knows PostgreSQL, knows nothing of HTTP or GraphQL.
        .target(
            name: "HearthCore",
            dependencies: [
                "HearthPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Metrics", package: "swift-metrics"),  // delivery counters
            ]
        ),
        // A Shopify-shaped shop on loopback (generated catalog, controls, failure modes): for tests,
        // benchmarks and `hearth dev fixture-shop`. Never part of a serving Hearth.
        .target(
            name: "FixtureShop",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // HTTP + WebSocket, auth, GraphQL wiring, admin endpoints.
        .target(
            name: "HearthServer",
            dependencies: [
                "HearthCore",
                "GraphQLEngine",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),  // SIGHUP reloads the TLS pair
            ]
        ),
        .executableTarget(
            name: "hearth",
            dependencies: [
                "HearthServer",
                "HearthCore",
                "HearthPostgres",
                "GraphQLEngine",
                "FixtureShop",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),  // hearth dev post-rate, hearth mcp
                .product(name: "MCP", package: "swift-sdk"),  // hearth mcp's stdio
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // The test fixture shared by the test targets: one throwaway cluster per test process.
        .target(
            name: "HearthTestSupport",
            dependencies: [
                "HearthCore",
                "HearthPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/HearthTestSupport"
        ),
        .testTarget(name: "GraphQLEngineTests", dependencies: ["GraphQLEngine"]),
        .testTarget(
            name: "HearthCoreTests",
            dependencies: [
                "HearthCore",
                "HearthPostgres",
                "HearthTestSupport",
                "FixtureShop",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "HearthServerTests",
            dependencies: [
                "HearthServer",
                "HearthCore",
                "HearthPostgres",
                "HearthTestSupport",
                "FixtureShop",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),  // streaming SSE reads
                .product(name: "NIOPosix", package: "swift-nio"),  // raw connections for malformed HTTP
                .product(name: "NIOSSL", package: "swift-nio-ssl"),  // HTTPS clients trusting a test certificate
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
