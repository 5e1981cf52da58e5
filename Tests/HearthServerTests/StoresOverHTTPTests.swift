import FixtureShop
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HearthCore
import HearthServer
import Testing

/// Watched stores end to end: GraphQL over real HTTP, a real PostgreSQL, and the fixture shop on
/// loopback (the outside world Hearth cannot reach in tests), named in the client's allow-list.
@Suite struct StoresOverHTTPTests {
    typealias Server = UsersOverHTTPTests.Server
    typealias Person = HouseholdsOverHTTPTests.Person

    static let shopNames = ["alpha", "beta", "gamma", "delta"]

    /// A server whose store client may fetch `<shop>.test` from the fixture shop.
    static func withShops(_ body: @escaping @Sendable (Server, FixtureShop) async throws -> Void) async throws {
        let shop = FixtureShop()
        try await shop.withRunning { port in
            // closed.test points at a loopback port nothing listens on (connection refused).
            let closedPort = try #require(Self.unusedLoopbackPort())
            let allowed = shopNames.map { ShopifyClientConfiguration.AllowedHost(host: "\($0).test", origin: FixtureShop.origin(port: port, shop: $0)) }
                + [ShopifyClientConfiguration.AllowedHost(host: "closed.test", origin: "http://127.0.0.1:\(closedPort)/shops/closed")]
            // Every person in these tests signs up from 127.0.0.1: one test has 21 of them. The shops answer
            // at once, but the whole suite in parallel can hold a page for seconds: 5 s before a time-out.
            try await UsersOverHTTPTests.withServer(
                shopify: ShopifyClientConfiguration(requestTimeout: .seconds(5), allowedHosts: allowed), signUpsPerAddress: 50
            ) { server in
                try await body(server, shop)
            }
        }
    }

    /// A loopback port that was free a moment ago (bound, read, closed): connecting is refused.
    static func unusedLoopbackPort() -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    static let addStore = "mutation($h: UUID!, $d: String!, $n: String) { addStore(householdId: $h, domain: $d, name: $n) { id name domain productCount previewImages syncStatus { state lastError { code } } } }"
    static let syncStore = "mutation($s: UUID!) { syncStore(id: $s) { syncStatus { state lastSyncedAt lastError { code message suggestion status retryAfter } } } }"
    /// The store changes, asked under both names: `storeChanges` and its deprecated alias `events`.
    static let events = """
        query($h: UUID!, $t: [StoreEventType!]) {
          storeChanges(householdId: $h, types: $t, first: 100) { ...changes }
          events(householdId: $h, types: $t, first: 100) { ...changes } }
        fragment changes on StoreEventConnection { totalCount
          edges { node { id type productTitle variantTitle oldPrice newPrice priceDelta magnitude read } } }
        """

    static func add(_ server: Server, _ person: Person, _ household: String, _ domain: String, name: String? = nil) async throws -> [String: Any] {
        var variables: [String: Any] = ["h": household, "d": domain]
        if let name { variables["n"] = name }
        return try #require(try await server.data(addStore, variables, token: person.token)["addStore"] as? [String: Any])
    }

    static func sync(_ server: Server, _ person: Person, _ store: Any?) async throws -> [String: Any] {
        server.clock.advance(by: 61)
        let data = try await server.data(syncStore, ["s": store ?? ""], token: person.token)
        return try #require((data["syncStore"] as? [String: Any])?["syncStatus"] as? [String: Any])
    }

    static func eventNodes(_ server: Server, _ person: Person, _ household: String, types: [String]? = nil) async throws -> [[String: Any]] {
        var variables: [String: Any] = ["h": household]
        if let types { variables["t"] = types }
        let data = try await server.data(events, variables, token: person.token)
        #expect((data["storeChanges"] as? NSDictionary) == (data["events"] as? NSDictionary), "events is storeChanges under its old name")
        return ((data["storeChanges"] as? [String: Any])?["edges"] as? [[String: Any]] ?? []).compactMap { $0["node"] as? [String: Any] }
    }

    @Test func addImportsThenEachChangeIsAnEventWithSnapshots() async throws {
        try await Self.withShops { server, shop in
            shop.addShop("alpha", products: 300)
            let owner = try await HouseholdsOverHTTPTests.person(server, "Olive")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, owner)
            let store = try await Self.add(server, owner, home, " https://ALPHA.test/collections/all?page=2 ")
            #expect(store["domain"] as? String == "alpha.test")
            #expect(store["name"] as? String == "alpha")
            #expect(store["productCount"] as? Int == 300)
            #expect((store["previewImages"] as? [String])?.count == 4)
            #expect((store["syncStatus"] as? [String: Any])?["state"] as? String == "SYNCED")
            #expect(try await Self.eventNodes(server, owner, home).isEmpty, "the import creates no events")
            let duplicate = try await server.error(Self.addStore, ["h": home, "d": "alpha.test"], token: owner.token)
            #expect(duplicate.code == "CONFLICT")

            let catalog = try #require(shop.catalog("alpha"))
            let (p0, p1, p2) = (catalog.products[0], catalog.products[1], catalog.products[2])
            let removed = shop.update("alpha") { c -> FixtureCatalog.Product in
                c.setPrice(product: 0, to: p0.variants[0].price * 70 / 100)   // 30 % drop: LARGE
                c.setPrice(product: 1, to: p1.variants[0].price * 115 / 100)  // 15 % increase: MEDIUM
                c.setAvailable(product: 2, variant: 0, !p2.variants[0].available)
                c.changeImages(product: 3)
                c.addProduct(title: "Wool Beanie Fresh", price: 1999)
                return c.remove(product: 10)
            }
            let status = try await Self.sync(server, owner, store["id"])
            #expect(status["state"] as? String == "SYNCED" && status["lastError"] is NSNull)
            let nodes = try await Self.eventNodes(server, owner, home)
            let byType = Dictionary(grouping: nodes) { $0["type"] as? String ?? "" }
            let drop = try #require(byType["PRICE_DROPPED"]?.first)
            #expect(drop["productTitle"] as? String == p0.title)
            #expect(drop["oldPrice"] as? String == FixtureMoney.text(p0.variants[0].price))
            #expect(drop["newPrice"] as? String == FixtureMoney.text(p0.variants[0].price * 70 / 100))
            #expect(drop["magnitude"] as? String == "LARGE")
            #expect((drop["priceDelta"] as? String)?.hasPrefix("-") == true)
            let increase = try #require(byType["PRICE_INCREASED"]?.first)
            #expect(increase["magnitude"] as? String == "MEDIUM" && increase["variantTitle"] as? String == p1.variants[0].title)
            #expect(byType[p2.variants[0].available ? "OUT_OF_STOCK" : "BACK_IN_STOCK"]?.count == 1)
            #expect(byType["IMAGES_CHANGED"]?.count == 1 && byType["NEW_PRODUCT"]?.count == 1 && byType["PRODUCT_REMOVED"]?.count == 1)
            #expect(nodes.count == 6)
            #expect(nodes.allSatisfy { $0["read"] as? Bool == false })

            // The old values were kept before the change: the product's price history.
            let productID = try await Self.productID(server, owner, store["id"], search: p0.title)
            let product = try await server.data(
                "query($p: UUID!) { product(id: $p) { title url minPrice removedAt variants { price available } priceHistory { price available } } }",
                ["p": productID], token: owner.token)
            let history = ((product["product"] as? [String: Any])?["priceHistory"] as? [[String: Any]]) ?? []
            #expect(history.map { $0["price"] as? String } == [FixtureMoney.text(p0.variants[0].price)])
            #expect(((product["product"] as? [String: Any])?["url"] as? String)?.hasPrefix("https://alpha.test/products/") == true)

            // The removed product is kept, flagged; when it reappears the flag clears, and it is
            // new to the members again: a NEW_PRODUCT event and a notification like any new product.
            let removedID = try await Self.productID(server, owner, store["id"], search: removed?.title ?? "", includeFlagged: true)
            #expect(try await Self.removedAt(server, owner, removedID) != nil)
            let returning = try #require(removed)
            _ = shop.update("alpha") { $0.restore(returning) }
            _ = try await Self.sync(server, owner, store["id"])
            #expect(try await Self.removedAt(server, owner, removedID) == nil)
            let newProducts = try await Self.eventNodes(server, owner, home, types: ["NEW_PRODUCT"])
            #expect(newProducts.map { $0["productTitle"] as? String }.sorted { ($0 ?? "") < ($1 ?? "") }
                    == ["Wool Beanie Fresh", returning.title].sorted())
            #expect(try await Self.eventNodes(server, owner, home).count == 7, "the return is one event, nothing else")
            let latest = try await server.data("{ notifications(first: 1) { edges { node { body } } } }", token: owner.token)
            let bodies = ((latest["notifications"] as? [String: Any])?["edges"] as? [[String: Any]] ?? [])
                .compactMap { ($0["node"] as? [String: Any])?["body"] as? String }
            #expect(bodies == ["1 new product"])
        }
    }

    /// The id of the product whose title is `title` (listed, or — removed — found by its events).
    static func productID(_ server: Server, _ person: Person, _ store: Any?, search: String, includeFlagged: Bool = false) async throws -> String {
        if includeFlagged {
            let data = try await server.data(
                "query($s: UUID!) { store(id: $s) { householdId } }", ["s": store ?? ""], token: person.token)
            let household = try #require((data["store"] as? [String: Any])?["householdId"] as? String)
            let events = try await server.data(
                "query($h: UUID!) { events(householdId: $h, types: [PRODUCT_REMOVED]) { edges { node { productId productTitle } } } }",
                ["h": household], token: person.token)
            let nodes = ((events["events"] as? [String: Any])?["edges"] as? [[String: Any]] ?? []).compactMap { $0["node"] as? [String: Any] }
            return try #require(nodes.first { $0["productTitle"] as? String == search }?["productId"] as? String)
        }
        let data = try await server.data(
            "query($s: UUID!, $q: String) { store(id: $s) { products(search: $q) { edges { node { id title } } } } }",
            ["s": store ?? "", "q": search], token: person.token)
        let edges = ((data["store"] as? [String: Any])?["products"] as? [String: Any])?["edges"] as? [[String: Any]] ?? []
        return try #require(edges.compactMap { $0["node"] as? [String: Any] }.first { $0["title"] as? String == search }?["id"] as? String)
    }

    static func removedAt(_ server: Server, _ person: Person, _ product: String) async throws -> String? {
        let data = try await server.data("query($p: UUID!) { product(id: $p) { removedAt } }", ["p": product], token: person.token)
        return (data["product"] as? [String: Any])?["removedAt"] as? String
    }

    @Test func productsAreSearchedFilteredSortedAndPaged() async throws {
        try await Self.withShops { server, shop in
            shop.addShop("beta", products: 120)
            let owner = try await HouseholdsOverHTTPTests.person(server, "Olive")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, owner)
            let store = try await Self.add(server, owner, home, "beta.test", name: "Beta Shop")
            let catalog = try #require(shop.catalog("beta"))
            let query = """
                query($s: UUID!, $q: String, $k: StockFilter, $o: ProductSort, $a: String) { store(id: $s) {
                  products(search: $q, stock: $k, sort: $o, first: 7, after: $a) { totalCount pageInfo { hasNextPage endCursor }
                    edges { node { title minPrice available } } } } }
                """
            // Every page of PRICE_ASC + IN_STOCK + "wool", walked with cursors, is the expected list.
            var seen: [(String, Int64)] = []
            var after: String?
            repeat {
                var variables: [String: Any] = ["s": store["id"] ?? "", "q": "WOOL", "k": "IN_STOCK", "o": "PRICE_ASC"]
                if let after { variables["a"] = after }
                let data = try await server.data(query, variables, token: owner.token)
                let products = try #require((data["store"] as? [String: Any])?["products"] as? [String: Any])
                for edge in products["edges"] as? [[String: Any]] ?? [] {
                    let node = edge["node"] as? [String: Any] ?? [:]
                    #expect(node["available"] as? Bool == true)
                    seen.append((node["title"] as? String ?? "", FixtureMoney.cents(node["minPrice"] as? String ?? "") ?? -1))
                }
                let info = products["pageInfo"] as? [String: Any] ?? [:]
                after = info["hasNextPage"] as? Bool == true ? info["endCursor"] as? String : nil
            } while after != nil
            let expected = catalog.products
                .filter { p in p.variants.contains(where: \.available) && ([p.title, p.vendor, p.productType] + p.tags).joined(separator: " ").lowercased().contains("wool") }
                .map { ($0.title, $0.variants.map(\.price).min() ?? 0) }
                .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : false }
            #expect(seen.count == expected.count && !seen.isEmpty)
            #expect(seen.map(\.1) == expected.map(\.1), "ordered by the cheapest variant's price")
            #expect(Set(seen.map(\.0)) == Set(expected.map(\.0)))

            // A cursor from another sort is refused, naming `after`.
            let titlePage = try await server.data(query, ["s": store["id"] ?? "", "o": "TITLE"], token: owner.token)
            let cursor = (((titlePage["store"] as? [String: Any])?["products"] as? [String: Any])?["pageInfo"] as? [String: Any])?["endCursor"] as? String
            let refused = try await server.error(query, ["s": store["id"] ?? "", "o": "PRICE_DESC", "a": cursor ?? ""], token: owner.token)
            #expect(refused.code == "BAD_USER_INPUT" && refused.extensions["field"] as? String == "after")
            let long = try await server.error(query, ["s": store["id"] ?? "", "q": String(repeating: "w", count: 101)], token: owner.token)
            #expect(long.code == "BAD_USER_INPUT" && long.extensions["field"] as? String == "search")
        }
    }

    @Test func eachFailureModeIsKeptAsTheStoresSyncError() async throws {
        try await Self.withShops { server, shop in
            shop.addShop("gamma", products: 40)
            let owner = try await HouseholdsOverHTTPTests.person(server, "Olive")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, owner)
            let store = try await Self.add(server, owner, home, "gamma.test")
            let cases: [(FixtureFailure, String, Int?)] = [
                (.status(404), "NOT_A_SHOPIFY_STORE", 404),
                (.htmlPage, "NOT_A_SHOPIFY_STORE", 200),
                (.passwordProtected, "PASSWORD_PROTECTED", 302),
                (.status(403), "FEED_DISABLED", 403),
                (.status(503), "SERVER_ERROR", 503),
                (.truncatedJSON, "INVALID_RESPONSE", nil),
                (.fromPage(1, .noProducts), "NOT_A_SHOPIFY_STORE", 200),
                (.slow(.seconds(10)), "TIMEOUT", nil),
            ]
            for (failure, code, status) in cases {
                shop.fail("gamma", failure)
                let result = try await Self.sync(server, owner, store["id"])
                #expect(result["state"] as? String == "FAILED", "\(failure)")
                let error = try #require(result["lastError"] as? [String: Any], "\(failure)")
                #expect(error["code"] as? String == code, "\(failure)")
                #expect((error["suggestion"] as? String)?.isEmpty == false)
                if let status { #expect(error["status"] as? Int == status, "\(failure)") }
            }
            // Rate limiting is a pause, not an error shown to members; a success clears errors.
            shop.fail("gamma", nil)
            #expect(try await Self.sync(server, owner, store["id"])["lastError"] is NSNull)
            shop.fail("gamma", .status(429, retryAfter: "2.5"))
            let limited = try await Self.sync(server, owner, store["id"])
            #expect(limited["state"] as? String == "WAITING" && limited["lastError"] is NSNull)
            shop.fail("gamma", .status(430))
            #expect(try await Self.sync(server, owner, store["id"])["state"] as? String == "WAITING")
            let next = try await server.data("query($s: UUID!) { store(id: $s) { syncStatus { nextSyncAt } } }", ["s": store["id"] ?? ""], token: owner.token)
            let nextAt = DateTimeScalar.date(from: ((next["store"] as? [String: Any])?["syncStatus"] as? [String: Any])?["nextSyncAt"] as? String ?? "")
            #expect(nextAt.map { $0.timeIntervalSince(server.clock.now) >= 3599.999 } == true, "430 backs off at least an hour")

            // A sync within a minute of the last is refused with the seconds to wait.
            shop.fail("gamma", nil)
            _ = try await Self.sync(server, owner, store["id"])
            let tooSoon = try await server.error(Self.syncStore, ["s": store["id"] ?? ""], token: owner.token)
            #expect(tooSoon.code == "RATE_LIMITED")
            #expect((tooSoon.extensions["retryAfter"] as? Int).map { (1...60).contains($0) } == true)

            // Adding a store whose feed fails stores nothing and says why.
            shop.addShop("delta", products: 5)
            shop.fail("delta", .passwordProtected)
            let refused = try await server.error(Self.addStore, ["h": home, "d": "delta.test"], token: owner.token)
            #expect(refused.code == "BAD_USER_INPUT" && refused.extensions["syncError"] as? String == "PASSWORD_PROTECTED")
            let unreachable = try await server.error(Self.addStore, ["h": home, "d": "closed.test"], token: owner.token)
            #expect(unreachable.code == "BAD_USER_INPUT" && unreachable.extensions["syncError"] as? String == "NETWORK_UNAVAILABLE", "\(unreachable)")
            // Hosts on private or loopback addresses are refused unless allow-listed.
            for domain in ["localhost", "127.0.0.1", "http://10.0.0.7:8080/x"] {
                let guarded = try await server.error(Self.addStore, ["h": home, "d": domain], token: owner.token)
                #expect(guarded.code == "BAD_USER_INPUT" && guarded.extensions["syncError"] as? String == "STORE_NOT_FOUND", "\(domain)")
            }
            let bad = try await server.error(Self.addStore, ["h": home, "d": "exa mple.com"], token: owner.token)
            #expect(bad.code == "BAD_USER_INPUT" && bad.extensions["field"] as? String == "domain")
            let stores = try await server.data("query($h: UUID!) { stores(householdId: $h) { totalCount } }", ["h": home], token: owner.token)
            #expect((stores["stores"] as? [String: Any])?["totalCount"] as? Int == 1)
        }
    }

    @Test func readStateAndNotificationsArePerMember() async throws {
        try await Self.withShops { server, shop in
            shop.addShop("alpha", products: 30)
            let (owner, member, viewer, home) = try await HouseholdsOverHTTPTests.householdOfThree(server, ("Olive", "Mia", "Vic"))
            // Mia: drops of at least 25 % only, no stock news. Vic: notifications off.
            _ = try await server.data(
                "mutation { updatePreferences(input: {priceDropThreshold: AT_LEAST_25_PERCENT, notifications: {backInStock: false, outOfStock: false, priceIncreased: false}}) { theme } }",
                token: member.token)
            _ = try await server.data("mutation { updatePreferences(input: {notifications: {enabled: false}}) { theme } }", token: viewer.token)
            let store = try await Self.add(server, owner, home, "alpha.test", name: "Alpha")
            let catalog = try #require(shop.catalog("alpha"))
            _ = shop.update("alpha") { c in
                c.setPrice(product: 0, to: catalog.products[0].variants[0].price / 2)          // LARGE drop
                c.setPrice(product: 1, to: catalog.products[1].variants[0].price * 95 / 100)   // small drop
                c.setAvailable(product: 2, variant: 0, !catalog.products[2].variants[0].available)
            }
            let notificationsQuery = "{ notifications(unreadOnly: true, kinds: [STORE_CHANGES]) { totalCount edges { node { id title body priority counts read } } } }"
            // Mia listens live over SSE-free polling here; the subscription is covered by the WebSocket test.
            _ = try await Self.sync(server, member, store["id"])
            let olive = try await server.data(notificationsQuery, token: owner.token)
            let oliveNodes = ((olive["notifications"] as? [String: Any])?["edges"] as? [[String: Any]] ?? []).compactMap { $0["node"] as? [String: Any] }
            #expect(oliveNodes.count == 1)
            let stockWord = catalog.products[2].variants[0].available ? "out of stock" : "back in stock"
            #expect(oliveNodes.first?["title"] as? String == "Alpha")
            #expect(oliveNodes.first?["body"] as? String == "2 price drops, 1 \(stockWord)")
            #expect(oliveNodes.first?["priority"] as? String == "HIGH")
            let mia = try await server.data(notificationsQuery, token: member.token)
            let miaNodes = ((mia["notifications"] as? [String: Any])?["edges"] as? [[String: Any]] ?? []).compactMap { $0["node"] as? [String: Any] }
            #expect(miaNodes.map { $0["body"] as? String } == ["1 price drop"])
            let vic = try await server.data(notificationsQuery, token: viewer.token)
            #expect((vic["notifications"] as? [String: Any])?["totalCount"] as? Int == 0)

            // Read state is per member.
            let events = try await Self.eventNodes(server, member, home)
            #expect(events.count == 3)
            let first = try #require(events.first?["id"] as? String)
            _ = try await server.data("mutation($e: ID!) { markEventRead(id: $e) { read } }", ["e": first], token: member.token)
            let unread = "query($h: UUID!) { unreadEventCount(householdId: $h) }"
            #expect(try await server.data(unread, ["h": home], token: member.token)["unreadEventCount"] as? Int == 2)
            #expect(try await server.data(unread, ["h": home], token: owner.token)["unreadEventCount"] as? Int == 3)
            // Viewers read: they mark their own events read like everyone, touching nobody else's.
            let viewerRead = try await server.data("mutation($e: ID!) { markEventRead(id: $e) { read } }", ["e": first], token: viewer.token)
            #expect((viewerRead["markEventRead"] as? [String: Any])?["read"] as? Bool == true)
            #expect(try await server.data(unread, ["h": home], token: viewer.token)["unreadEventCount"] as? Int == 2)
            #expect(try await server.data("mutation($h: UUID!) { markAllEventsRead(householdId: $h) }", ["h": home], token: viewer.token)["markAllEventsRead"] as? Int == 2)
            #expect(try await server.data(unread, ["h": home], token: viewer.token)["unreadEventCount"] as? Int == 0)
            let marked = try await server.data("mutation($h: UUID!) { markAllEventsRead(householdId: $h) }", ["h": home], token: owner.token)
            #expect(marked["markAllEventsRead"] as? Int == 3)
            #expect(try await server.data(unread, ["h": home], token: owner.token)["unreadEventCount"] as? Int == 0)
            #expect(try await server.data(unread, ["h": home], token: member.token)["unreadEventCount"] as? Int == 2)
            let notificationID = try #require(oliveNodes.first?["id"] as? String)
            _ = try await server.data("mutation($n: UUID!) { markNotificationRead(id: $n) { read } }", ["n": notificationID], token: owner.token)
            #expect(((try await server.data(notificationsQuery, token: owner.token))["notifications"] as? [String: Any])?["totalCount"] as? Int == 0)
            #expect(try await server.error("mutation($n: UUID!) { markNotificationRead(id: $n) { read } }", ["n": notificationID], token: member.token).code == "NOT_FOUND")
        }
    }

    /// A household's stores page oldest first: the first page comes from the prepared statement a
    /// member's household-wide rules allow, the next from the rules' own SQL (a keyset after the
    /// cursor); both agree, for the household's viewer as for its owner.
    @Test func storesPageOldestFirstFromEitherStatement() async throws {
        try await Self.withShops { server, shop in
            for name in ["alpha", "beta", "gamma"] { shop.addShop(name, products: 1) }
            let owner = try await HouseholdsOverHTTPTests.person(server, "Pia")
            let viewer = try await HouseholdsOverHTTPTests.person(server, "Vera")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, owner)
            try await HouseholdsOverHTTPTests.add(server, owner, home, viewer, "VIEWER")
            for name in ["alpha", "beta", "gamma"] {
                _ = try await Self.add(server, owner, home, "\(name).test")
                server.clock.advance(by: 1)
            }
            let query = """
                query($h: UUID!, $after: String) { household(id: $h) { stores(first: 2, after: $after) {
                  totalCount pageInfo { hasNextPage endCursor } edges { node { name } } } } }
                """
            for person in [owner, viewer] {
                let first = try #require((try await server.data(query, ["h": home], token: person.token)["household"] as? [String: Any])?["stores"] as? [String: Any])
                let info = try #require(first["pageInfo"] as? [String: Any])
                #expect((first["edges"] as? [[String: Any]])?.compactMap { ($0["node"] as? [String: Any])?["name"] as? String } == ["alpha", "beta"])
                #expect(info["hasNextPage"] as? Bool == true)
                #expect(first["totalCount"] as? Int == 3)
                let next = try #require((try await server.data(query, ["h": home, "after": info["endCursor"] ?? ""], token: person.token)["household"] as? [String: Any])?["stores"] as? [String: Any])
                #expect((next["edges"] as? [[String: Any]])?.compactMap { ($0["node"] as? [String: Any])?["name"] as? String } == ["gamma"])
                #expect((next["pageInfo"] as? [String: Any])?["hasNextPage"] as? Bool == false)
            }
        }
    }

    @Test func viewersCannotAddOrSyncAndOtherHouseholdsSeeNothing() async throws {
        try await Self.withShops { server, shop in
            shop.addShop("alpha", products: 10)
            let owner = try await HouseholdsOverHTTPTests.person(server, "Olive")
            let admin = try await HouseholdsOverHTTPTests.person(server, "Adam")
            let member = try await HouseholdsOverHTTPTests.person(server, "Mia")
            let viewer = try await HouseholdsOverHTTPTests.person(server, "Vic")
            let stranger = try await HouseholdsOverHTTPTests.person(server, "Eve")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, owner)
            let elsewhere = try await HouseholdsOverHTTPTests.createHousehold(server, stranger, name: "Elsewhere")
            try await HouseholdsOverHTTPTests.add(server, owner, home, admin, "ADMIN")
            try await HouseholdsOverHTTPTests.add(server, owner, home, member, "MEMBER")
            try await HouseholdsOverHTTPTests.add(server, owner, home, viewer, "VIEWER")
            #expect(try await server.error(Self.addStore, ["h": home, "d": "alpha.test"], token: viewer.token).code == "FORBIDDEN")
            #expect(try await server.error(Self.addStore, ["h": home, "d": "alpha.test"], token: member.token).code == "FORBIDDEN")
            let store = try await Self.add(server, admin, home, "alpha.test")
            let id = store["id"] ?? ""
            server.clock.advance(by: 61)
            #expect(try await server.error(Self.syncStore, ["s": id], token: viewer.token).code == "FORBIDDEN")
            #expect(try await server.data(Self.syncStore, ["s": id], token: member.token)["syncStore"] != nil)
            let rename = "mutation($s: UUID!) { renameStore(id: $s, name: \"Alpha!\") { name } }"
            #expect(try await server.error(rename, ["s": id], token: member.token).code == "FORBIDDEN")
            #expect((try await server.data(rename, ["s": id], token: admin.token)["renameStore"] as? [String: Any])?["name"] as? String == "Alpha!")
            // Another household's member: everything answers NOT_FOUND and nothing changes.
            #expect(try await server.error("query($s: UUID!) { store(id: $s) { name } }", ["s": id], token: stranger.token).code == "NOT_FOUND")
            #expect(try await server.error(Self.syncStore, ["s": id], token: stranger.token).code == "NOT_FOUND")
            #expect(try await server.error("mutation($s: UUID!) { removeStore(id: $s) }", ["s": id], token: stranger.token).code == "NOT_FOUND")
            #expect(try await server.error("query($h: UUID!) { stores(householdId: $h) { totalCount } }", ["h": home], token: stranger.token).code == "NOT_FOUND")
            #expect(try await server.error(Self.addStore, ["h": home, "d": "beta.test"], token: stranger.token).code == "NOT_FOUND")
            let theirs = try await server.data("query($h: UUID!) { stores(householdId: $h) { totalCount } }", ["h": elsewhere], token: stranger.token)
            #expect((theirs["stores"] as? [String: Any])?["totalCount"] as? Int == 0)
            // Removing cascades to products.
            #expect(try await server.error("mutation($s: UUID!) { removeStore(id: $s) }", ["s": id], token: member.token).code == "FORBIDDEN")
            _ = try await server.data("mutation($s: UUID!) { removeStore(id: $s) }", ["s": id], token: admin.token)
            let rows = try await server.database.client.query("SELECT count(*) FROM products", logger: server.database.logger)
            for try await count in rows.decode(Int.self) { #expect(count == 0) }
        }
    }
}

extension StoresOverHTTPTests {
    /// `storeEvents` and `notificationReceived` over WebSocket deliver a sync's changes as it commits.
    @Test func subscriptionsStreamEventsAndNotifications() async throws {
        try await Self.withShops { server, shop in
            shop.addShop("alpha", products: 20)
            let owner = try await HouseholdsOverHTTPTests.person(server, "Olive")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, owner)
            let storeID = try #require(try await Self.add(server, owner, home, "alpha.test", name: "Alpha")["id"] as? String)
            let catalog = try #require(shop.catalog("alpha"))
            let port = try #require(server.client.port)
            let stores = server.services.stores
            try await GraphQLWebSocketTests.connect(port) { reader, outbound in
                try await GraphQLWebSocketTests.send(outbound, #"{"type":"connection_init","payload":{"authorization":"Bearer \#(owner.token)"}}"#)
                #expect(try await reader.next() == #"{"type":"connection_ack"}"#)
                try await GraphQLWebSocketTests.send(outbound, #"{"id":"e","type":"subscribe","payload":{"query":"subscription { storeEvents(householdId: \"\#(home)\") { type productTitle newPrice } }"}}"#)
                try await GraphQLWebSocketTests.send(outbound, #"{"id":"n","type":"subscribe","payload":{"query":"subscription { notificationReceived { title body priority } }"}}"#)
                // Both subscriptions are listening before the sync commits.
                for _ in 0..<200 where stores.changes.subscriberCount < 2 { try await Task.sleep(for: .milliseconds(10)) }
                #expect(stores.changes.subscriberCount == 2)
                _ = shop.update("alpha") { c in
                    c.setPrice(product: 0, to: catalog.products[0].variants[0].price / 2)
                    c.setPrice(product: 1, to: catalog.products[1].variants[0].price * 2)
                }
                _ = try await Self.sync(server, owner, storeID)
                var messages: [String] = []
                for _ in 0..<3 { messages.append(try await reader.next() ?? "") }
                let events = messages.filter { $0.hasPrefix(#"{"id":"e","type":"next""#) }
                let notifications = messages.filter { $0.hasPrefix(#"{"id":"n","type":"next""#) }
                #expect(events.count == 2, "\(messages)")
                #expect(events.contains { $0.contains("PRICE_DROPPED") && $0.contains(catalog.products[0].title) })
                #expect(events.contains { $0.contains("PRICE_INCREASED") && $0.contains(catalog.products[1].title) })
                #expect(notifications == [#"{"id":"n","type":"next","payload":{"data":{"notificationReceived":{"title":"Alpha","body":"1 price drop, 1 price increase","priority":"HIGH"}}}}"#],
                        "\(messages)")
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
    }
}

/// Prices as the API writes them.
enum FixtureMoney {
    static func text(_ cents: Int64) -> String {
        "\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
    }

    static func cents(_ text: String) -> Int64? {
        let parts = text.split(separator: ".")
        guard parts.count == 2, let whole = Int64(parts[0]), let fraction = Int64(parts[1]) else { return nil }
        return whole * 100 + fraction
    }
}

extension StoresOverHTTPTests {
    /// One sync with every kind of change; each member's notification shows what their
    /// switches and thresholds let through (absolute thresholds in currency units, percentages
    /// of the old price), with the priority of the weightiest change they get.
    @Test func everySwitchAndThresholdFiltersTheNotification() async throws {
        try await Self.withShops { server, shop in
            shop.addShop("beta", products: 12)
            _ = shop.update("beta") { c in
                for product in [0, 1, 2, 3, 8, 9] { c.setPrice(product: product, to: 10_000) }
                c.setPrice(product: 7, to: 50_000)
                c.setAvailable(product: 4, true)
                c.setAvailable(product: 10, false)
            }
            let owner = try await HouseholdsOverHTTPTests.person(server, "Olive")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, owner)
            let onlyDrops = "notifications: {priceIncreased: false, backInStock: false, outOfStock: false, newProduct: false, productRemoved: false, imagesChanged: false}"
            let onlyIncreases = "notifications: {priceDropped: false, backInStock: false, outOfStock: false, newProduct: false, productRemoved: false, imagesChanged: false}"
            let all = "5 price drops, 2 price increases, 1 back in stock, 1 out of stock, 1 new product, 1 product removed, 1 with new images"
            // (name, preferences, expected body, expected priority)
            let members: [(String, String, String, String)] = [
                ("DropAny", onlyDrops, "5 price drops", "HIGH"),
                ("Drop5", "priceDropThreshold: AT_LEAST_5, \(onlyDrops)", "4 price drops", "HIGH"),
                ("Drop10", "priceDropThreshold: AT_LEAST_10, \(onlyDrops)", "3 price drops", "HIGH"),
                ("Drop25", "priceDropThreshold: AT_LEAST_25, \(onlyDrops)", "1 price drop", "HIGH"),
                ("Drop10pc", "priceDropThreshold: AT_LEAST_10_PERCENT, \(onlyDrops)", "2 price drops", "HIGH"),
                ("Drop25pc", "priceDropThreshold: AT_LEAST_25_PERCENT, \(onlyDrops)", "1 price drop", "HIGH"),
                ("RiseAny", onlyIncreases, "2 price increases", "NORMAL"),
                ("Rise5", "priceIncreaseThreshold: AT_LEAST_5, \(onlyIncreases)", "2 price increases", "NORMAL"),
                ("Rise10", "priceIncreaseThreshold: AT_LEAST_10, \(onlyIncreases)", "1 price increase", "NORMAL"),
                ("Rise25pc", "priceIncreaseThreshold: AT_LEAST_25_PERCENT, \(onlyIncreases)", "1 price increase", "NORMAL"),
                ("NoDrops", "notifications: {priceDropped: false}",
                 "2 price increases, 1 back in stock, 1 out of stock, 1 new product, 1 product removed, 1 with new images", "HIGH"),
                ("NoRises", "notifications: {priceIncreased: false}",
                 "5 price drops, 1 back in stock, 1 out of stock, 1 new product, 1 product removed, 1 with new images", "HIGH"),
                ("NoBack", "notifications: {backInStock: false}",
                 "5 price drops, 2 price increases, 1 out of stock, 1 new product, 1 product removed, 1 with new images", "HIGH"),
                ("NoOut", "notifications: {outOfStock: false}",
                 "5 price drops, 2 price increases, 1 back in stock, 1 new product, 1 product removed, 1 with new images", "HIGH"),
                ("NoNew", "notifications: {newProduct: false}",
                 "5 price drops, 2 price increases, 1 back in stock, 1 out of stock, 1 product removed, 1 with new images", "HIGH"),
                ("NoRemoved", "notifications: {productRemoved: false}",
                 "5 price drops, 2 price increases, 1 back in stock, 1 out of stock, 1 new product, 1 with new images", "HIGH"),
                ("NoImages", "notifications: {imagesChanged: false}",
                 "5 price drops, 2 price increases, 1 back in stock, 1 out of stock, 1 new product, 1 product removed", "HIGH"),
                ("OnlyImages", "notifications: {priceDropped: false, priceIncreased: false, backInStock: false, outOfStock: false, newProduct: false, productRemoved: false}",
                 "1 with new images", "LOW"),
                ("OnlyOut", "notifications: {priceDropped: false, priceIncreased: false, backInStock: false, newProduct: false, productRemoved: false, imagesChanged: false}",
                 "1 out of stock", "NORMAL"),
                ("OnlyNew", "notifications: {priceDropped: false, priceIncreased: false, backInStock: false, outOfStock: false, productRemoved: false, imagesChanged: false}",
                 "1 new product", "NORMAL"),
            ]
            var people: [(Person, String, String, String)] = [(owner, "Olive", all, "HIGH")]
            for (name, preferences, body, priority) in members {
                let person = try await HouseholdsOverHTTPTests.person(server, name)
                try await HouseholdsOverHTTPTests.add(server, owner, home, person, "MEMBER")
                _ = try await server.data("mutation { updatePreferences(input: {\(preferences)}) { theme } }", token: person.token)
                people.append((person, name, body, priority))
            }
            let store = try await Self.add(server, owner, home, "beta.test", name: "Beta")
            _ = shop.update("beta") { c in
                c.setPrice(product: 8, to: 9_800)    // −2.00, 2 %: small
                c.setPrice(product: 0, to: 9_300)    // −7.00, 7 %: small
                c.setPrice(product: 7, to: 48_500)   // −15.00, 3 %: small
                c.setPrice(product: 1, to: 8_800)    // −12.00, 12 %: medium
                c.setPrice(product: 2, to: 7_000)    // −30.00, 30 %: large
                c.setPrice(product: 3, to: 10_600)   // +6.00, 6 %: small
                c.setPrice(product: 9, to: 13_000)   // +30.00, 30 %: large
                c.setAvailable(product: 4, false)
                c.setAvailable(product: 10, true)
                c.changeImages(product: 5)
                c.addProduct(title: "Newcomer")
                c.remove(product: 11)
            }
            _ = try await Self.sync(server, owner, store["id"])
            #expect(try await Self.eventNodes(server, owner, home).count == 12)
            for (person, name, body, priority) in people {
                let data = try await server.data("{ notifications(kinds: [STORE_CHANGES]) { totalCount edges { node { title body priority } } } }", token: person.token)
                let nodes = ((data["notifications"] as? [String: Any])?["edges"] as? [[String: Any]] ?? []).compactMap { $0["node"] as? [String: Any] }
                #expect(nodes.count == 1, "\(name): \(nodes)")
                #expect(nodes.first?["title"] as? String == "Beta", "\(name)")
                #expect(nodes.first?["body"] as? String == body, "\(name)")
                #expect(nodes.first?["priority"] as? String == priority, "\(name)")
            }
        }
    }

    /// A resolver the test controls: one name the DNS says does not exist, one it cannot answer for.
    struct ScriptedResolver: HostResolver {
        func addresses(of host: String) async throws -> [[UInt8]] {
            switch host {
            case "offline-shop.com": throw HostResolutionError.resolverFailed("the DNS resolver could not be reached or did not answer in time")
            default: throw HostResolutionError.noSuchName
            }
        }
    }

    /// An offline server is not a misspelled store: only NXDOMAIN is STORE_NOT_FOUND; a resolver
    /// that cannot answer is NETWORK_UNAVAILABLE, a sync that meets it is retried, and the stores
    /// health entry shows the last outbound failure.
    @Test func anUnreachableResolverIsNotAMisspelledStore() async throws {
        let configuration = ShopifyClientConfiguration(requestTimeout: .seconds(2), resolver: ScriptedResolver())
        try await UsersOverHTTPTests.withServer(shopify: configuration) { server in
            let owner = try await HouseholdsOverHTTPTests.person(server, "Olive")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, owner)
            let missing = try await server.error(Self.addStore, ["h": home, "d": "no-such-shop.com"], token: owner.token)
            #expect(missing.code == "BAD_USER_INPUT" && missing.extensions["syncError"] as? String == "STORE_NOT_FOUND", "\(missing)")
            let offline = try await server.error(Self.addStore, ["h": home, "d": "offline-shop.com"], token: owner.token)
            #expect(offline.code == "BAD_USER_INPUT" && offline.extensions["syncError"] as? String == "NETWORK_UNAVAILABLE", "\(offline)")
            #expect(offline.message?.contains("could not look up offline-shop.com") == true, "\(offline)")
            #expect((offline.extensions["suggestion"] as? String)?.contains("network") == true)

            // A store added while the network worked: its sync fails as NETWORK_UNAVAILABLE and is
            // scheduled again; the store stays, with no "check the spelling".
            let storeID = UUID()
            let now = server.clock.now
            try await server.database.client.query(
                """
                INSERT INTO stores (id, household_id, domain, name, created_at, next_sync_at)
                VALUES (\(storeID), \(try #require(UUID(uuidString: home))), 'offline-shop.com', 'Offline', \(now), \(now))
                """, logger: server.database.logger)
            let status = try await Self.sync(server, owner, storeID.uuidString.lowercased())
            let lastError = try #require(status["lastError"] as? [String: Any], "\(status)")
            #expect(lastError["code"] as? String == "NETWORK_UNAVAILABLE", "\(status)")
            #expect((lastError["suggestion"] as? String)?.contains("spelling") == false)
            let next = try await server.data("query($s: UUID!) { store(id: $s) { syncStatus { nextSyncAt } } }", ["s": storeID.uuidString], token: owner.token)
            let nextSync = (((next["store"] as? [String: Any])?["syncStatus"] as? [String: Any])?["nextSyncAt"] as? String).flatMap(DateTimeScalar.date(from:))
            #expect(try #require(nextSync) > server.clock.now, "retried later")

            let health = await server.services.stores.performHealthCheck()
            #expect(health.details["lastOutboundFailureHost"] == .text("offline-shop.com"), "\(health.details)")
            guard case .text(let failure)? = health.details["lastOutboundFailure"] else {
                Issue.record("no last outbound failure in \(health.details)")
                return
            }
            #expect(failure.hasPrefix("NETWORK_UNAVAILABLE: Hearth could not look up offline-shop.com"))
            guard case .time? = health.details["lastOutboundFailureAt"] else {
                Issue.record("no time of the last outbound failure")
                return
            }
        }
    }
}
