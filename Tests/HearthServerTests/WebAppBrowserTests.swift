import FixtureShop
import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// The household app in a real browser: Debian's Chromium driven by Playwright (PyPI, in
/// `.build/python-web`) against a real Hearth on loopback, as a family uses it
/// (`scripts/web/family.py`), with axe-core on every screen and the sync engine's unit tests run in
/// the page. And the app's JavaScript type-checked by TypeScript (`tsc --checkJs --strict`).
/// `make test` installs all three; outside CI a missing one skips with a message, under `CI=true` it fails.
@Suite(.serialized) struct WebAppBrowserTests {
    static let root = GQLClientTests.root
    static let python = ProcessInfo.processInfo.environment["HEARTH_WEB_PYTHON"]
        ?? root.appendingPathComponent(".build/python-web/bin/python").path
    static let chromium = "/usr/bin/chromium"
    static let tsc = ["/usr/bin/tsc", "/usr/local/bin/tsc"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let isCI = GQLClientTests.isCI
    static let hasBrowser = FileManager.default.isExecutableFile(atPath: chromium)
        && ChildProcess.succeeds(python, ["-c", "import playwright, axe_playwright_python"])
    /// Where the run leaves the README's screenshot.
    static let screenshot = root.appendingPathComponent(".build/web/household-app.png")

    @Test(
        "tsc --checkJs --strict passes over web/",
        .enabled(if: tsc != nil || isCI, "SKIPPED: needs TypeScript's tsc (Debian: node-typescript; make test installs it)"))
    func theAppsJavaScriptTypeChecks() async throws {
        let tsc = try #require(Self.tsc, "tsc is missing (Debian: apt-get install node-typescript)")
        for project in ["web/tsconfig.json", "web/tsconfig.sw.json"] {
            let result = try await ChildProcess.run(tsc, ["-p", Self.root.appendingPathComponent(project).path])
            #expect(result.status == 0, "tsc -p \(project):\n\(result.text.prefix(4000))")
        }
    }

    @Test(
        "a family uses the app: sign up, invite, sync, offline, conflicts, tabs, viewer, sign out",
        .enabled(if: hasBrowser || isCI, "SKIPPED: needs Chromium (/usr/bin/chromium) and Playwright with axe in .build/python-web (make test installs them)"))
    func aFamilyUsesTheApp() async throws {
        try #require(Self.hasBrowser, "Chromium or Playwright is missing (make test installs them: chromium, .build/python-web)")
        let webApp = try WebApp(directory: WebAppServingTests.directory)
        try FileManager.default.createDirectory(at: Self.screenshot.deletingLastPathComponent(), withIntermediateDirectories: true)
        try await withTestDatabase { database, _ throws in
            let runtime = try HearthRuntime.testing(on: database)
            let app = buildApplication(
                configuration: .init(host: "127.0.0.1", port: 0, webApp: webApp), dependencies: runtime.dependencies, logger: TestPostgres.logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                // Pokes travel through the event bus, as with several instances.
                group.addTask { await database.bus.run() }
                defer { group.cancelAll() }
                try await app.test(.live) { client throws in
                    let port = try #require(client.port)
                    let result = try await ChildProcess.run(
                        Self.python, [Self.root.appendingPathComponent("scripts/web/family.py").path, "http://127.0.0.1:\(port)", Self.screenshot.path])
                    let report = (try? JSONSerialization.jsonObject(with: result.stdout)) as? [String: Any]
                    try #require(result.status == 0, "the family's run failed \(report?["failed"] ?? ""):\n\(result.text.suffix(6000))")
                    let steps = report?["steps"] as? [String] ?? []
                    #expect(steps.last == "over plain HTTP on the network the app works and says once what it cannot do", "steps done: \(steps)")
                    let axe = report?["axe"] as? [String: Int] ?? [:]
                    #expect(axe.count >= 11 && axe.values.allSatisfy { $0 == 0 }, "axe: \(axe)")
                    #expect((report?["unit"] as? String)?.hasSuffix("passed") == true, "\(report?["unit"] ?? "no unit result")")
                }
            }
        }
    }

    @Test(
        "a weekly chore on Tuesdays for two people: completed by Ann it is Ben's, due next Tuesday, on both screens; offline on two phones it moves on once",
        .enabled(if: hasBrowser || isCI, "SKIPPED: needs Chromium (/usr/bin/chromium) and Playwright with axe in .build/python-web (make test installs them)"))
    func aChoreComesBackAndRotates() async throws {
        try #require(Self.hasBrowser, "Chromium or Playwright is missing (make test installs them: chromium, .build/python-web)")
        let webApp = try WebApp(directory: WebAppServingTests.directory)
        try await withTestDatabase { database, _ throws in
            let runtime = try HearthRuntime.testing(on: database)
            let app = buildApplication(
                configuration: .init(host: "127.0.0.1", port: 0, webApp: webApp), dependencies: runtime.dependencies, logger: TestPostgres.logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await database.bus.run() }
                defer { group.cancelAll() }
                try await app.test(.live) { client throws in
                    let port = try #require(client.port)
                    let result = try await ChildProcess.run(Self.python, [Self.root.appendingPathComponent("scripts/web/chores.py").path, "http://127.0.0.1:\(port)"])
                    let report = (try? JSONSerialization.jsonObject(with: result.stdout)) as? [String: Any]
                    try #require(result.status == 0, "the chores run failed \(report?["failed"] ?? ""):\n\(result.text.suffix(6000))")
                    let steps = report?["steps"] as? [String] ?? []
                    #expect(steps.last == "skip this time, away until, and who did what", "steps done: \(steps)")
                    let axe = report?["axe"] as? [String: Int] ?? [:]
                    #expect(axe.count == 3 && axe.values.allSatisfy { $0 == 0 }, "axe: \(axe)")
                }
            }
        }
    }

    @Test(
        "a pushed reminder shows Complete and Snooze, Complete works with the app closed, DISMISS closes it",
        .enabled(if: hasBrowser || isCI, "SKIPPED: needs Chromium (/usr/bin/chromium) and Playwright in .build/python-web (make test installs them)"))
    func aPushedReminderIsActedOnWithTheAppClosed() async throws {
        try #require(Self.hasBrowser, "Chromium or Playwright is missing (make test installs them: chromium, .build/python-web)")
        let webApp = try WebApp(directory: WebAppServingTests.directory)
        // The action links point at this server: its address is known before it starts.
        let port = try #require(StoresOverHTTPTests.unusedLoopbackPort())
        var delivery = HearthRuntime.testDelivery
        delivery.publicURL = URL(string: "http://127.0.0.1:\(port)")
        try await withTestDatabase { database, _ throws in
            let runtime = try HearthRuntime.testing(on: database, delivery: delivery)
            // Served on that port itself (the test framework's live server picks its own).
            let (listening, announce) = AsyncStream.makeStream(of: Int.self)
            let app = buildApplication(
                configuration: .init(host: "127.0.0.1", port: port, webApp: webApp), dependencies: runtime.dependencies, logger: TestPostgres.logger,
                onServerRunning: { announce.yield($0) })
            try await withCleanup { try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await app.run() }
                // The reminder and delivery loops, as `hearth serve` runs them (woken by the bus).
                group.addTask { await database.bus.run() }
                group.addTask { try await TaskReminderLoop(tasks: runtime.services.tasks, pollInterval: .milliseconds(250)).run() }
                group.addTask { try await DeliveryLoop(delivery: runtime.services.delivery, pollInterval: .milliseconds(250)).run() }
                defer { group.cancelAll() }
                var ready = listening.makeAsyncIterator()
                let bound = await ready.next()
                try #require(bound == port, "the server listens where its links point")
                let result = try await ChildProcess.run(
                    Self.python, [Self.root.appendingPathComponent("scripts/web/push.py").path, "http://127.0.0.1:\(port)"])
                let report = (try? JSONSerialization.jsonObject(with: result.stdout)) as? [String: Any]
                try #require(result.status == 0, "the push run failed \(report?["failed"] ?? ""):\n\(result.text.suffix(6000))")
                #expect(report?["steps"] as? [String] == [
                    "a pushed reminder shows with Complete and Snooze", "Complete works with the app closed", "DISMISS closes the reminder",
                ])
            } } cleanup: {
                try await runtime.shutdown()  // the delivery loop's HTTP client
            }
        }
    }

    @Test(
        "a household watches a store in the app: products offline, a price drop live, the chart, the instance page, the explorer",
        .enabled(if: hasBrowser || isCI, "SKIPPED: needs Chromium (/usr/bin/chromium) and Playwright with axe in .build/python-web (make test installs them)"))
    func aHouseholdWatchesAStoreInTheApp() async throws {
        try #require(Self.hasBrowser, "Chromium or Playwright is missing (make test installs them: chromium, .build/python-web)")
        let webApp = try WebApp(directory: WebAppServingTests.directory)
        let shop = FixtureShop()
        shop.addShop("alpha", products: 12)
        try await shop.withRunning { shopPort in
            try await withTestDatabase { database, _ throws in
                let allowed = [ShopifyClientConfiguration.AllowedHost(host: "alpha.test", origin: FixtureShop.origin(port: shopPort, shop: "alpha"))]
                // Sync now may follow a sync at once here: the browser waits on what it shows, not on the clock.
                let runtime = try HearthRuntime.testing(
                    on: database, shopify: ShopifyClientConfiguration(requestTimeout: .seconds(5), allowedHosts: allowed),
                    stores: StoresConfiguration(minimumSyncSpacing: .zero))
                let email = "ada-\(UUID().uuidString.prefix(8).lowercased())@example.org", password = "correct horse battery"
                _ = try await runtime.services.users.createUser(email: email, password: password, displayName: "Ada", isAdmin: true)
                let app = buildApplication(
                    configuration: .init(host: "127.0.0.1", port: 0, webApp: webApp), dependencies: runtime.dependencies, logger: TestPostgres.logger)
                try await withCleanup { try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { await database.bus.run() }
                    defer { group.cancelAll() }
                    try await app.test(.live) { client throws in
                        let port = try #require(client.port)
                        let result = try await ChildProcess.run(Self.python, [
                            Self.root.appendingPathComponent("scripts/web/stores.py").path, "http://127.0.0.1:\(port)",
                            "http://127.0.0.1:\(shopPort)", email, password,
                        ])
                        let report = (try? JSONSerialization.jsonObject(with: result.stdout)) as? [String: Any]
                        try #require(result.status == 0, "the stores run failed \(report?["failed"] ?? ""):\n\(result.text.suffix(6000))")
                        #expect(report?["steps"] as? [String] == [
                            "an admin adds a store and sees its products", "search works offline over the local copy",
                            "a price drop after a sync appears in the other member's feed and unread count without reload",
                            "the product page shows the price history chart", "a product that left is listed when asked for",
                            "mark all read clears the count", "notifications offer this device and say why not",
                            "settings: theme, a notification switch, a webhook, an access token made and revoked",
                            "the instance page shows every service to an administrator and nothing to others",
                            "the explorer runs a query and shows a type's documentation",
                        ])
                        let axe = report?["axe"] as? [String: Int] ?? [:]
                        #expect(axe.count >= 10 && axe.values.allSatisfy { $0 == 0 }, "axe: \(axe)")
                    }
                } } cleanup: {
                    try await runtime.shutdown()  // the shop client's HTTP client
                }
            }
        }
    }
}
