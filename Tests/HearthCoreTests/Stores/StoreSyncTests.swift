import FixtureShop
import Foundation
import HearthCore
import HearthTestSupport
import PostgresNIO
import Testing

/// The stores service against a real PostgreSQL and the fixture shop on loopback: import,
/// change detection, snapshots, removals, failures and leases.
@Suite struct StoreSyncTests {
    struct Fixture: Sendable {
        let shop: FixtureShop
        let port: Int
        let database: Database
        let clock: ManualClock
        let users: UserService
        let households: HouseholdService
        let stores: StoreService
        let owner: UUID
        let household: UUID

        func user(_ name: String, role: HouseholdRole) async throws -> UUID {
            let id = try await users.signUp(email: "\(name)@example.org", password: "correct horse", displayName: name, deviceName: nil).user.id
            _ = try await households.addMember(try await households.caller(for: owner), householdID: household, userID: id, role: role)
            return id
        }

        func count(_ query: PostgresQuery) async throws -> Int {
            let rows = try await database.client.query(query, logger: database.logger)
            for try await value in rows.decode(Int.self) { return value }
            return 0
        }

        /// Advances the clock past the minimum spacing and syncs as the owner.
        func sync(_ store: UUID) async throws -> (store: Store, report: StoreSyncReport) {
            clock.advance(by: 61)
            return try await stores.syncStore(try await households.caller(for: owner), id: store)
        }
    }

    static let shops = ["alpha", "beta", "gamma"] + (1...20).map { "shop\($0)" }

    static func withFixture(configuration: StoresConfiguration = StoresConfiguration(), requestTimeout: Duration = .seconds(5),
                            pageSize: Int = 250, maximumProducts: Int = 25_000, _ body: @escaping @Sendable (Fixture) async throws -> Void) async throws {
        let shop = FixtureShop()
        try await shop.withRunning { port in
            try await withTestDatabase { database, _ in
                let clock = ManualClock(Date())
                let allowed = shops.map { ShopifyClientConfiguration.AllowedHost(host: "\($0).test", origin: FixtureShop.origin(port: port, shop: $0)) }
                let services = HearthServices(database: database, configuration: .init(
                    users: UsersConfiguration(bcryptCost: 4), stores: configuration,
                    shopify: ShopifyClientConfiguration(requestTimeout: requestTimeout, pageSize: pageSize, maximumProducts: maximumProducts, allowedHosts: allowed),
                    clock: clock))
                let (users, households, stores) = (services.users, services.households, services.stores)
                try await withCleanup {
                    let owner = try await users.signUp(email: "olive@example.org", password: "correct horse", displayName: "Olive", deviceName: nil).user.id
                    let household = try await households.createHousehold(try await households.caller(for: owner), name: "Home", description: nil, timeZone: "UTC").id
                    try await body(Fixture(shop: shop, port: port, database: database, clock: clock, users: users, households: households,
                                           stores: stores, owner: owner, household: household))
                } cleanup: {
                    try await services.shutdown()
                }
            }
        }
    }

    @Test func importThenDetectEveryChangeType() async throws {
        try await Self.withFixture { f in
            f.shop.addShop("alpha", products: 600)
            let added = try await f.stores.addStore(try await f.households.caller(for: f.owner), householdID: f.household, domain: "HTTPS://Alpha.test:443/collections/all", name: "")
            #expect(added.domain == "alpha.test")
            #expect(added.name == "alpha")
            #expect(added.productCount == 600)
            #expect(added.previewImages.count == 4)
            #expect(added.syncStatus.state == .synced)
            #expect(try await f.count("SELECT count(*) FROM variants") == 2400)
            #expect(try await f.count("SELECT count(*) FROM store_events") == 0, "an import records no events")

            let catalog = try #require(f.shop.catalog("alpha"))
            let old0 = catalog.products[0].variants[0].price
            let old1 = catalog.products[1].variants[0].price
            _ = f.shop.update("alpha") { c in
                c.setPrice(product: 0, to: old0 / 2)              // large drop
                c.setPrice(product: 1, to: old1 + old1 / 20)      // small increase (5 %)
                c.setAvailable(product: 2, variant: 1, !c.products[2].variants[1].available)
                c.changeImages(product: 3)
                c.remove(product: 599)
                c.addProduct(title: "Merino Beanie New")
            }
            let (synced, report) = try await f.sync(added.id)
            #expect(report.error == nil)
            #expect(synced.productCount == 600)
            #expect(report.productsWritten == 4 + 1, "only changed and new products are written")
            #expect(report.statements <= 7 * report.pages + 8, "a page costs a bounded number of statements: \(report.statements) for \(report.pages) pages")
            let rows = try await f.database.client.query(
                "SELECT type, old_price, new_price, magnitude FROM store_events ORDER BY id", logger: f.database.logger)
            var events: [String: (Int64?, Int64?, String?)] = [:]
            for try await (type, old, new, magnitude) in rows.decode((String, Int64?, Int64?, String?).self) { events[type] = (old, new, magnitude) }
            #expect(events["PRICE_DROPPED"]?.0 == old0 && events["PRICE_DROPPED"]?.1 == old0 / 2 && events["PRICE_DROPPED"]?.2 == "LARGE")
            #expect(events["PRICE_INCREASED"]?.0 == old1 && events["PRICE_INCREASED"]?.2 == "SMALL")
            #expect(events["BACK_IN_STOCK"] != nil || events["OUT_OF_STOCK"] != nil)
            #expect(events["IMAGES_CHANGED"] != nil)
            #expect(events["NEW_PRODUCT"] != nil)
            #expect(events["PRODUCT_REMOVED"] != nil)
            #expect(events.count == 6)
            #expect(try await f.count("SELECT count(*) FROM variant_snapshots") == 3, "a snapshot before each variant change")
            #expect(try await f.count("SELECT count(*) FROM products WHERE removed_at IS NOT NULL") == 1)

            // Unchanged feed: nothing written, no events.
            let (_, quiet) = try await f.sync(added.id)
            #expect(quiet.productsWritten == 0 && quiet.events == 0)
        }
    }

    /// Two instances' loops (two services on one database) race over 20 due stores: leases with
    /// `FOR UPDATE SKIP LOCKED` let each store be synced exactly once per round.
    @Test func twoLoopsSyncEveryStoreExactlyOncePerRound() async throws {
        let configuration = StoresConfiguration(syncInterval: .seconds(3600), concurrency: 3)
        try await Self.withFixture(configuration: configuration) { f in
            for index in 1...20 {
                f.shop.addShop("shop\(index)", products: 30, seed: UInt64(index))
                _ = try await f.stores.addStore(try await f.households.caller(for: f.owner), householdID: f.household, domain: "shop\(index).test", name: nil)
            }
            // A second instance: its own services and feed client, the same database and clock.
            var second = configuration
            second.instanceID = "second-instance"
            let services = HearthServices(database: f.database, configuration: .init(stores: second, shopify: f.stores.client.configuration, clock: f.clock))
            let other = services.stores
            try await withCleanup {
                for round in 1...2 {
                    for index in 1...20 { _ = f.shop.update("shop\(index)") { $0.setPrice(product: 0, to: Int64(1000 + round * 10 + index)) } }
                    f.clock.advance(by: 3601)
                    async let a = StoreSyncLoop(stores: f.stores).runRound()
                    async let b = StoreSyncLoop(stores: other).runRound()
                    let (first, secondCount) = try await (a, b)
                    #expect(first + secondCount == 20, "round \(round): \(first) + \(secondCount) syncs")
                    let rows = try await f.database.client.query("SELECT sync_count FROM stores ORDER BY id", logger: f.database.logger)
                    var counts: [Int] = []
                    for try await count in rows.decode(Int.self) { counts.append(count) }
                    #expect(counts == Array(repeating: 1 + round, count: 20), "the import, then one sync per round")
                    #expect(try await f.count("SELECT count(*) FROM stores WHERE lease_owner IS NOT NULL") == 0, "leases are released")
                    #expect(try await f.count("SELECT count(*) FROM store_events WHERE type = 'PRICE_DROPPED' OR type = 'PRICE_INCREASED'") == 20 * round)
                }
            } cleanup: {
                try await services.shutdown()
            }
        }
    }

    /// An imported household's store (watched, never synced) gets its catalog from its first
    /// background sync as adding a store does: every product, and no change to report.
    @Test func anImportedStoresFirstSyncBringsTheCatalogWithoutChanges() async throws {
        try await Self.withFixture { f in
            f.shop.addShop("alpha", products: 12)
            let owner = try await f.households.caller(for: f.owner)
            let document = HouseholdExport(exportedAt: f.clock.now, household: .init(name: "Moved", description: "", timeZone: "UTC"), members: [],
                                           labels: [], items: [], stores: [.init(domain: "alpha.test", name: "Alpha")])
            let services = HearthServices(database: f.database, configuration: .init(clock: f.clock))
            let imported = try await services.transfers.importHousehold(owner, document)
            #expect(try await StoreSyncLoop(stores: f.stores).runRound() == 1)
            #expect(try await f.count("SELECT count(*) FROM products WHERE household_id = \(imported.household.id)") == 12)
            #expect(try await f.count("SELECT count(*) FROM store_events") == 0)
            #expect(try await f.count("SELECT count(*) FROM notifications") == 0)
            // The next sync reports what changed, as any sync does.
            _ = f.shop.update("alpha") { $0.setPrice(product: 0, to: 1) }
            f.clock.advance(by: 3601)
            #expect(try await StoreSyncLoop(stores: f.stores).runRound() == 1)
            #expect(try await f.count("SELECT count(*) FROM store_events WHERE type = 'PRICE_DROPPED'") == 1)
        }
    }

    /// A sync that writes many products vacuums and analyzes products and variants right away
    /// (the planner's statistics, and the visibility map that lets a list's prices come from the
    /// covering index alone); a small one leaves them to autovacuum.
    @Test func aLargeImportIsVacuumedAndAnalyzedAtOnce() async throws {
        try await Self.withFixture { f in
            func maintained(_ table: String) async throws -> Int {
                try await f.count("SELECT (vacuum_count + analyze_count)::int8 FROM pg_stat_user_tables WHERE relname = \(table)")
            }
            let caller = try await f.households.caller(for: f.owner)
            f.shop.addShop("alpha", products: 20, variantsPerProduct: 1)
            _ = try await f.stores.addStore(caller, householdID: f.household, domain: "alpha.test", name: nil)
            #expect(try await maintained("variants") == 0, "20 products are below the threshold")
            f.shop.addShop("beta", products: 1_000, variantsPerProduct: 1)  // the threshold
            _ = try await f.stores.addStore(caller, householdID: f.household, domain: "beta.test", name: nil)
            #expect(try await maintained("variants") == 2, "one VACUUM and one ANALYZE of variants")
            #expect(try await maintained("products") == 2)
        }
    }

    /// A crashed instance's lease runs out and another takes the store over.
    @Test func anExpiredLeaseIsTakenOver() async throws {
        try await Self.withFixture(configuration: StoresConfiguration(leaseDuration: .seconds(600))) { f in
            f.shop.addShop("alpha", products: 5)
            let store = try await f.stores.addStore(try await f.households.caller(for: f.owner), householdID: f.household, domain: "alpha.test", name: nil)
            f.clock.advance(by: 3601)
            try await f.database.client.query("""
                UPDATE stores SET lease_owner = 'crashed', lease_expires_at = \(f.clock.now.addingTimeInterval(600)) WHERE id = \(store.id)
                """, logger: f.database.logger)
            #expect(try await StoreSyncLoop(stores: f.stores).runRound() == 0, "a live lease is respected")
            f.clock.advance(by: 601)
            #expect(try await StoreSyncLoop(stores: f.stores).runRound() == 1, "an expired lease is taken over")
        }
    }

    @Test func oldSnapshotsArePruned() async throws {
        try await Self.withFixture(configuration: StoresConfiguration(snapshotRetention: .seconds(90 * 86_400))) { f in
            f.shop.addShop("alpha", products: 5)
            let store = try await f.stores.addStore(try await f.households.caller(for: f.owner), householdID: f.household, domain: "alpha.test", name: nil)
            _ = f.shop.update("alpha") { $0.setPrice(product: 0, to: 1) }
            _ = try await f.sync(store.id)
            #expect(try await f.count("SELECT count(*) FROM variant_snapshots") == 1)
            f.clock.advance(by: 89 * 86_400)
            _ = try await StoreSyncLoop(stores: f.stores).runRound()
            #expect(try await f.stores.pruneSnapshots() == 0)
            f.clock.advance(by: 2 * 86_400)
            #expect(try await f.stores.pruneSnapshots() == 1)
        }
    }

    /// Shopify's page-limit `errors` answer (400 or 200) and the product cap end a sync early
    /// with what was read; an incomplete read flags no product removed.
    @Test func thePageLimitAndTheProductCapEndTheFeedWithoutRemovals() async throws {
        try await Self.withFixture(pageSize: 50, maximumProducts: 120) { f in
            f.shop.addShop("alpha", products: 130, variantsPerProduct: 1)
            f.shop.fail("alpha", .pageLimit(products: 100, status: 400))
            let store = try await f.stores.addStore(try await f.households.caller(for: f.owner), householdID: f.household, domain: "alpha.test", name: "Alpha")
            #expect(store.productCount == 100, "pages 1 and 2 of 50; page 3 answers errors")
            #expect(store.syncStatus.lastError == nil)

            // The window moves: product 0 leaves it, product 100 enters. Not seen ≠ removed.
            let first = try #require(f.shop.catalog("alpha")?.products[0])
            _ = f.shop.update("alpha") { $0.remove(product: 0) }
            f.shop.fail("alpha", .pageLimit(products: 100, status: 200))
            let (after, report) = try await f.sync(store.id)
            #expect(report.error == nil && report.products == 100)
            #expect(after.productCount == 101)
            #expect(try await f.count("SELECT count(*) FROM store_events WHERE type = 'PRODUCT_REMOVED'") == 0)
            #expect(try await f.count("SELECT count(*) FROM store_events WHERE type = 'NEW_PRODUCT'") == 1)

            // The cap: 120 products at most, from three pages (the third cut to 20).
            f.shop.fail("alpha", nil)
            _ = f.shop.update("alpha") { $0.restore(first) }
            let (capped, cappedReport) = try await f.sync(store.id)
            #expect(cappedReport.products == 120 && cappedReport.pages == 3)
            #expect(capped.productCount == 121, "the 101 seen before stay; 20 more read; none removed")
            #expect(try await f.count("SELECT count(*) FROM store_events WHERE type = 'PRODUCT_REMOVED'") == 0)
        }
    }

    /// A page over the size limit (20 MiB) is refused, whatever its JSON.
    @Test func anOversizedPageIsRefused() async throws {
        try await Self.withFixture(requestTimeout: .seconds(30)) { f in
            f.shop.addShop("alpha", products: 10)
            let store = try await f.stores.addStore(try await f.households.caller(for: f.owner), householdID: f.household, domain: "alpha.test", name: "Alpha")
            f.shop.fail("alpha", .oversized(bytes: 21 << 20))
            let (synced, report) = try await f.sync(store.id)
            #expect(report.error?.code == .invalidResponse, "\(String(describing: report.error))")
            #expect(report.error?.message == "A page of the feed is larger than 20 MiB.")
            #expect(synced.syncStatus.lastError?.code == .invalidResponse)
            f.shop.fail("alpha", .oversized(bytes: 19 << 20))
            #expect(try await f.sync(store.id).report.error == nil, "a 19 MiB page (no products) is read")
        }
    }

    /// A redirect is followed only from http to https on the same host (and the fixture speaks
    /// no TLS, so following it fails to connect or times out).
    @Test func onlyASameHostUpgradeRedirectIsFollowed() async throws {
        try await Self.withFixture(requestTimeout: .seconds(3)) { f in
            f.shop.addShop("alpha", products: 10)
            let store = try await f.stores.addStore(try await f.households.caller(for: f.owner), householdID: f.household, domain: "alpha.test", name: "Alpha")
            let base = "127.0.0.1:\(f.port)/shops/alpha/products.json?limit=250&page=1"
            // Following the upgrade reaches a server that speaks no TLS: the handshake stalls or fails.
            let cases: [(FixtureFailure, Set<StoreSyncError.Code>, Int?, String)] = [
                (.redirect(to: "https://" + base), [.timeout, .networkUnavailable], nil, ""),
                (.redirect(to: "http://127.0.0.1:\(f.port)/elsewhere/products.json"), [.storeNotFound], 301, "moves elsewhere"),
                (.redirect(to: "https://other.example/products.json"), [.storeNotFound], 301, "moves elsewhere"),
            ]
            for (failure, codes, status, words) in cases {
                f.shop.fail("alpha", failure)
                let before = f.shop.requests("alpha")
                let (synced, report) = try await f.sync(store.id)
                #expect(report.error.map { codes.contains($0.code) } == true, "\(failure): \(String(describing: report.error))")
                #expect(report.error?.status == status, "\(failure)")
                #expect(words.isEmpty || report.error?.message.contains(words) == true, "\(failure): \(String(describing: report.error?.message))")
                #expect(synced.syncStatus.lastError?.code == report.error?.code)
                #expect(f.shop.requests("alpha") == before + 1, "\(failure): one plain request; nothing else reached the shop")
            }
            f.shop.fail("alpha", nil)
            #expect(try await f.sync(store.id).report.error == nil)
        }
    }
}
