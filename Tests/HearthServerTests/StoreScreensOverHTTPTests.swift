import FixtureShop
import Foundation
import HearthCore
import Testing

/// What the household app's store screens read beyond the store list (issue 36): a store's
/// currency from the shop's `/meta.json`, products that left the feed, each product's newest price
/// change, and how many of a household's stores failed to sync. GraphQL over real HTTP, a real
/// PostgreSQL and the fixture shop on loopback.
@Suite struct StoreScreensOverHTTPTests {
    typealias Server = UsersOverHTTPTests.Server
    typealias Person = HouseholdsOverHTTPTests.Person

    static func store(_ server: Server, _ person: Person, _ id: Any?, includeRemoved: Bool = false) async throws -> [String: Any] {
        let query = """
            query($s: UUID!, $r: Boolean!) { store(id: $s) { currency
              products(includeRemoved: $r, sort: TITLE, first: 100) { totalCount
                edges { node { title removedAt recentPriceChange { type oldPrice newPrice productTitle read } } } } } }
            """
        let data = try await server.data(query, ["s": id ?? "", "r": includeRemoved], token: person.token)
        return try #require(data["store"] as? [String: Any])
    }

    /// A person and the household they just made.
    static func household(_ server: Server, _ name: String) async throws -> (Person, String) {
        let owner = try await HouseholdsOverHTTPTests.person(server, name)
        return (owner, try await HouseholdsOverHTTPTests.createHousehold(server, owner))
    }

    static func nodes(_ store: [String: Any]) -> [[String: Any]] {
        ((store["products"] as? [String: Any])?["edges"] as? [[String: Any]] ?? []).compactMap { $0["node"] as? [String: Any] }
    }

    static func storesInError(_ server: Server, _ person: Person, _ household: String) async throws -> Int? {
        let data = try await server.data("query($h: UUID!) { household(id: $h) { storesInError } }", ["h": household], token: person.token)
        return (data["household"] as? [String: Any])?["storesInError"] as? Int
    }

    @Test func currencyComesFromTheShopAndStaysWhenItsFactsCannotBeRead() async throws {
        try await StoresOverHTTPTests.withShops { server, shop in
            shop.addShop("alpha", products: 3)
            shop.addShop("beta", products: 3)
            _ = shop.update("beta") { $0.currency = nil }
            let (owner, home) = try await Self.household(server, "Cora")
            let alpha = try await StoresOverHTTPTests.add(server, owner, home, "alpha.test")
            let beta = try await StoresOverHTTPTests.add(server, owner, home, "beta.test")
            #expect(try await Self.store(server, owner, alpha["id"])["currency"] as? String == "EUR")
            #expect(try await Self.store(server, owner, beta["id"])["currency"] is NSNull, "a shop that names no currency has none")

            _ = shop.update("alpha") { $0.currency = "CHF" }
            _ = shop.update("beta") { $0.currency = "usd" }
            _ = try await StoresOverHTTPTests.sync(server, owner, alpha["id"])
            _ = try await StoresOverHTTPTests.sync(server, owner, beta["id"])
            #expect(try await Self.store(server, owner, alpha["id"])["currency"] as? String == "CHF", "each sync reads it again")
            #expect(try await Self.store(server, owner, beta["id"])["currency"] is NSNull, "usd is not an ISO 4217 code")
        }
    }

    @Test func removedProductsAreListedOnlyWhenAskedFor() async throws {
        try await StoresOverHTTPTests.withShops { server, shop in
            shop.addShop("alpha", products: 5)
            let (owner, home) = try await Self.household(server, "Remy")
            let store = try await StoresOverHTTPTests.add(server, owner, home, "alpha.test")
            let gone = try #require(shop.update("alpha") { $0.remove(product: 2) })
            _ = try await StoresOverHTTPTests.sync(server, owner, store["id"])

            let current = try await Self.store(server, owner, store["id"])
            #expect((current["products"] as? [String: Any])?["totalCount"] as? Int == 4)
            #expect(!Self.nodes(current).contains { $0["title"] as? String == gone.title })
            #expect(Self.nodes(current).allSatisfy { $0["removedAt"] is NSNull })

            let all = try await Self.store(server, owner, store["id"], includeRemoved: true)
            #expect((all["products"] as? [String: Any])?["totalCount"] as? Int == 5)
            let removed = try #require(Self.nodes(all).first { $0["title"] as? String == gone.title })
            #expect(removed["removedAt"] is String, "a product that left carries when it left")
            #expect(Self.nodes(all).filter { $0["removedAt"] is String }.count == 1)
        }
    }

    @Test func eachProductShowsItsNewestPriceChange() async throws {
        try await StoresOverHTTPTests.withShops { server, shop in
            shop.addShop("alpha", products: 3)
            let (owner, home) = try await Self.household(server, "Pia")
            let store = try await StoresOverHTTPTests.add(server, owner, home, "alpha.test")
            let catalog = try #require(shop.catalog("alpha"))
            let first = catalog.products[0].variants[0].price
            let (dropped, raised) = (first * 80 / 100, first * 90 / 100)
            _ = shop.update("alpha") { $0.setPrice(product: 0, to: dropped) }
            _ = try await StoresOverHTTPTests.sync(server, owner, store["id"])
            _ = shop.update("alpha") {
                $0.setPrice(product: 0, to: raised)
                $0.setAvailable(product: 1, variant: 0, !catalog.products[1].variants[0].available)
            }
            _ = try await StoresOverHTTPTests.sync(server, owner, store["id"])

            let nodes = Self.nodes(try await Self.store(server, owner, store["id"]))
            let changed = try #require(nodes.first { $0["title"] as? String == catalog.products[0].title })
            let change = try #require(changed["recentPriceChange"] as? [String: Any])
            #expect(change["type"] as? String == "PRICE_INCREASED", "the newest of its two price changes")
            #expect(change["oldPrice"] as? String == FixtureMoney.text(dropped))
            #expect(change["newPrice"] as? String == FixtureMoney.text(raised))
            #expect(change["productTitle"] as? String == catalog.products[0].title && change["read"] as? Bool == false)
            let stockOnly = try #require(nodes.first { $0["title"] as? String == catalog.products[1].title })
            #expect(stockOnly["recentPriceChange"] is NSNull, "a stock change is not a price change")
            let untouched = try #require(nodes.first { $0["title"] as? String == catalog.products[2].title })
            #expect(untouched["recentPriceChange"] is NSNull)
        }
    }

    @Test func storesInErrorCountsTheStoresWhoseLastSyncFailed() async throws {
        try await StoresOverHTTPTests.withShops { server, shop in
            for name in ["alpha", "beta", "gamma"] { shop.addShop(name, products: 2) }
            let (owner, home) = try await Self.household(server, "Eda")
            var stores: [String: Any] = [:]
            for name in ["alpha", "beta", "gamma"] { stores[name] = try await StoresOverHTTPTests.add(server, owner, home, "\(name).test")["id"] }
            #expect(try await Self.storesInError(server, owner, home) == 0)

            shop.fail("alpha", .status(500))
            shop.fail("beta", .htmlPage)
            #expect(try await StoresOverHTTPTests.sync(server, owner, stores["alpha"])["state"] as? String == "FAILED")
            #expect(try await StoresOverHTTPTests.sync(server, owner, stores["beta"])["state"] as? String == "FAILED")
            #expect(try await StoresOverHTTPTests.sync(server, owner, stores["gamma"])["state"] as? String == "SYNCED")
            #expect(try await Self.storesInError(server, owner, home) == 2)

            shop.fail("alpha", nil)
            #expect(try await StoresOverHTTPTests.sync(server, owner, stores["alpha"])["state"] as? String == "SYNCED")
            #expect(try await Self.storesInError(server, owner, home) == 1, "a store that syncs again is no longer in error")
        }
    }
}
