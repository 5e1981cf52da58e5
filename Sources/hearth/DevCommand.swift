import ArgumentParser
import FixtureShop
import Foundation
import Logging

/// `hearth dev …`: helpers for developing and benchmarking Hearth, never for serving.
struct DevCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev", abstract: "Development helpers (the fixture shop).", subcommands: [FixtureShopCommand.self])
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
            P % of its variants' prices) or ?fail=<status>|password|html|truncated|none.
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
