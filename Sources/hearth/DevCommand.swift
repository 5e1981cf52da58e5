import ArgumentParser
import AsyncHTTPClient
import FixtureShop
import Foundation
import Logging
import NIOCore

/// `hearth dev …`: helpers for developing and benchmarking Hearth, never for serving.
struct DevCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev", abstract: "Development helpers (the fixture shop, a POST-rate probe).",
        subcommands: [FixtureShopCommand.self, PostRateCommand.self])
}

/// `hearth dev fixture-shop`: Shopify-shaped shops on loopback for trying Hearth without the
/// internet, and for `make bench`.
struct FixtureShopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixture-shop",
        abstract: "Serve generated Shopify-shaped shops on 127.0.0.1.",
        discussion: """
            Each shop's feed is at http://127.0.0.1:<port>/shops/<name>/products.json. Let Hearth fetch one with
            --store-allow-host <name>.test=http://127.0.0.1:<port>/shops/<name> and add the store as <name>.test.
            Control a running shop with POST /_control/shops/<name>?products=N (create), ?changePercent=P (change
            P % of its variants' prices), ?product=I&price=C (product I's first variant at C cents), ?remove=I
            (product I leaves the feed) or ?fail=<status>|password|html|truncated|none.
            """)

    @Option(help: "Port on 127.0.0.1 (0: any free port, printed at start).")
    var port: Int = 8090

    @Option(name: .customLong("shop"), help: "A shop to create at start, as name=products (repeatable), e.g. allbirds=2000.")
    var shops: [String] = []

    func run() async throws {
        let shop = FixtureShop()
        for entry in shops {
            let parts = entry.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let count = Int(parts[1]), (0...1_000_000).contains(count) else {
                throw ValidationError("--shop \(entry): write name=products, e.g. allbirds=2000")
            }
            shop.addShop(String(parts[0]), products: count)
        }
        var logger = Logger(label: "fixture-shop")
        logger.logLevel = .warning
        try await shop.withRunning(port: port, logger: logger) { port in
            FileHandle.standardOutput.write(Data("fixture shop listening on http://127.0.0.1:\(port)\n".utf8))
            // Until interrupted.
            while !Task.isCancelled { try await Task.sleep(for: .seconds(3600)) }
        }
    }
}

/// `hearth dev post-rate`: how many POSTs per second the HTTP client Hearth delivers
/// notifications with can make to one receiver: the limit `scripts/bench/delivery.sh` compares
/// the outbox's drain rate with.
struct PostRateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "post-rate", abstract: "Measure raw POSTs per second to a URL.")

    @Option(help: "Where to POST.")
    var url: String

    @Option(help: "How many POSTs.")
    var count: Int = 3000

    @Option(help: "How many at once.")
    var concurrency: Int = 16

    func run() async throws {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5)))
        configuration.connectionPool = .init(idleTimeout: .seconds(30))
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let body = Data(#"{"id":"00000000-0000-0000-0000-000000000000","kind":"REMINDER","title":"Bench","body":"A message of usual size."}"#.utf8)
        let started = ContinuousClock.now
        var failures = 0
        do {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                var sent = 0
                func post() {
                    group.addTask {
                        var request = HTTPClientRequest(url: url)
                        request.method = .POST
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.body = .bytes(ByteBuffer(bytes: body))
                        let response = try await client.execute(request, timeout: .seconds(30))
                        _ = try await response.body.collect(upTo: 64 << 10)
                        return (200..<300).contains(Int(response.status.code))
                    }
                    sent += 1
                }
                while sent < min(concurrency, count) { post() }
                for try await ok in group {
                    if !ok { failures += 1 }
                    if sent < count { post() }
                }
            }
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(String(format: "%d POSTs in %.2f s: %.0f per second (%d not 2xx)", count, seconds, Double(count) / seconds, failures))
    }
}
