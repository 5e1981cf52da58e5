import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import Synchronization
import Testing

/// A member's dashboard in one query, its SQL counted by PostgreSQL itself (pg_stat_statements):
/// the count must not grow with the number of stores, products or tasks. With
/// `HEARTH_SHOW_STATEMENTS=1` the test prints every statement the database ran, by calls.
@Suite struct DashboardQueryTests {
    static let dashboard = """
        query Dashboard($from: DateTime!, $to: DateTime!) {
          households {
            edges {
              node {
                name
                stores(first: 20) {
                  edges {
                    node {
                      name productCount unreadEventCount syncStatus { state }
                      products(first: 10, sort: PRICE_ASC) { edges { node { title minPrice variants { price available } } } }
                    }
                  }
                }
                tasks(first: 50) { edges { node { title labels { name } subtasks { title done } } } }
                agenda(from: $from, to: $to) { title }
                unreadEventCount
              }
            }
          }
          notifications(first: 10) { edges { node { title } } }
        }
        """

    /// `stores` stores of 12 products (two variants each; every third out of stock) and `tasks` tasks with a label and two
    /// subtasks, due over the next week, in the owner's one household.
    static func seed(_ server: UsersOverHTTPTests.Server, owner: UUID, household: UUID, stores: Int, tasks: Int) async throws {
        let now = server.clock.now
        // Three statements for all the stores, products and variants (the seed is not what is measured).
        try await server.database.client.query("""
            INSERT INTO stores (id, household_id, domain, name, created_at, next_sync_at)
            SELECT gen_random_uuid(), \(household), 'shop' || s || '.example', 'Shop ' || s, \(now) + s * interval '1 second', \(now)
            FROM generate_series(1, \(stores)) AS s
            """, logger: TestPostgres.logger)
        try await server.database.client.query("""
            INSERT INTO products (id, store_id, household_id, shopify_id, title, handle, vendor, product_type, tags, images,
                                  image_signature, min_price, max_price, available, search_key, first_seen_at, last_changed_at, content_hash)
            SELECT gen_random_uuid(), s.id, s.household_id, p, 'Product ' || p, 'product-' || p, 'Acme', 'Thing', '{}', '[]', '',
                   1000 + (p * 7 % 12) * 100, 1500 + (p * 7 % 12) * 100, p % 3 <> 0, 'product ' || p, \(now), \(now), 'x'
            FROM stores s, generate_series(0, 11) AS p WHERE s.household_id = \(household)
            """, logger: TestPostgres.logger)
        try await server.database.client.query("""
            INSERT INTO variants (id, product_id, store_id, shopify_id, title, position, price, available)
            SELECT gen_random_uuid(), p.id, p.store_id, p.shopify_id * 10 + v, 'Size ' || v, v + 1, p.min_price + 500 * v, v = 0
            FROM products p, generate_series(0, 1) AS v WHERE p.household_id = \(household)
            """, logger: TestPostgres.logger)
        for index in 0..<tasks {
            _ = try await server.services.tasks.createItem(
                try await server.services.households.caller(for: owner), householdID: household,
                draft: TaskDraft(title: "Task \(index)", deadline: now.addingTimeInterval(Double(3_600 + index * 10_000)),
                                 labelNames: ["Label \(index % 4)"], subtasks: ["First step", "Second step"]))
        }
    }

    /// Olive and her household, seeded with `stores` stores and `tasks` tasks: the owner and the household's id.
    static func seededHome(_ server: UsersOverHTTPTests.Server, stores: Int, tasks: Int) async throws -> (owner: HouseholdsOverHTTPTests.Person, home: UUID) {
        let owner = try await HouseholdsOverHTTPTests.person(server, "Olive")
        let home = try #require(UUID(uuidString: try await HouseholdsOverHTTPTests.createHousehold(server, owner)))
        try await seed(server, owner: try #require(UUID(uuidString: owner.id)), household: home, stores: stores, tasks: tasks)
        return (owner, home)
    }

    /// Runs the dashboard as `token`; returns the statements it cost and the households it saw.
    static func measure(
        _ server: UsersOverHTTPTests.Server, token: String, query: String = dashboard
    ) async throws -> (statements: Int, data: [String: Any]) {
        let now = server.clock.now
        let variables: [String: Any] = [
            "from": DateTimeScalar.string(from: now), "to": DateTimeScalar.string(from: now.addingTimeInterval(7 * 86_400)),
        ]
        // Once to warm the caches a running server has warm (the session, abilities, households).
        _ = try await server.data(query, variables, token: token)
        let before = try await server.database.statementCount()
        let data = try await server.data(query, variables, token: token)
        let after = try await server.database.statementCount()
        if ProcessInfo.processInfo.environment["HEARTH_SHOW_STATEMENTS"] != nil {
            for line in try await server.database.strings(
                "SELECT calls || ' ' || left(regexp_replace(query, '\\s+', ' ', 'g'), 150) FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY calls DESC")
            { print(line) }
        }
        return (after - before - 1, data)
    }

    /// JSON text with sorted keys, to compare two answers.
    static func canonical(_ value: Any?) -> String {
        guard let value, let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]) else { return "none" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The household's graph answers what the root fields answer (they share services and loaders),
    /// totals included when asked for.
    @Test func householdFieldsAnswerAsTheRootFieldsDo() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let (owner, homeID) = try await Self.seededHome(server, stores: 3, tasks: 7)
            let home = homeID.lowercasedString
            let data = try await server.data("""
                query($h: UUID!) {
                  household(id: $h) {
                    stores(first: 2) { totalCount edges { node { name } } }
                    tasks(first: 3) { totalCount edges { node { title } } }
                    labels { name }
                    storeChanges { totalCount }
                    unreadEventCount
                  }
                  stores(householdId: $h, first: 2) { totalCount edges { node { name } } }
                  tasks(householdId: $h, first: 3) { totalCount edges { node { title } } }
                  labels(householdId: $h) { name }
                  events(householdId: $h) { totalCount }
                  unreadEventCount(householdId: $h)
                }
                """, ["h": home], token: owner.token)
            let household = try #require(data["household"] as? [String: Any])
            #expect((household["stores"] as? [String: Any])?["totalCount"] as? Int == 3)
            #expect((household["tasks"] as? [String: Any])?["totalCount"] as? Int == 7)
            #expect((household["labels"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Label 0", "Label 1", "Label 2", "Label 3"])
            for (nested, root) in [("stores", "stores"), ("tasks", "tasks"), ("labels", "labels"), ("storeChanges", "events"),
                                   ("unreadEventCount", "unreadEventCount")] {
                #expect(Self.canonical(household[nested]) == Self.canonical(data[root]), "Household.\(nested) and Query.\(root)")
            }
        }
    }

    /// Variants asked for their prices and stock alone (read with fewer columns) come in the same
    /// order with the same values as variants asked for everything, in the same request.
    @Test func variantsReadForPricesAloneAnswerAsFullOnesDo() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let (owner, home) = try await Self.seededHome(server, stores: 2, tasks: 0)
            let data = try await server.data("""
                query($h: UUID!) {
                  prices: stores(householdId: $h, first: 2) { edges { node { products(first: 12, sort: PRICE_ASC) {
                    edges { node { variants { id price compareAtPrice available } } } } } } }
                  full: stores(householdId: $h, first: 2) { edges { node { products(first: 12, sort: PRICE_ASC) {
                    edges { node { variants { id title options price compareAtPrice available } } } } } } }
                }
                """, ["h": home.lowercasedString], token: owner.token)
            func variants(_ key: String) -> [[String: Any]] {
                let stores = (data[key] as? [String: Any])?["edges"] as? [[String: Any]] ?? []
                return stores.flatMap { store in
                    let products = ((store["node"] as? [String: Any])?["products"] as? [String: Any])?["edges"] as? [[String: Any]] ?? []
                    return products.flatMap { ($0["node"] as? [String: Any])?["variants"] as? [[String: Any]] ?? [] }
                }
            }
            let (prices, full) = (variants("prices"), variants("full"))
            #expect(prices.count == 2 * 12 * 2)
            #expect(full.map { $0["title"] as? String }.prefix(2) == ["Size 0", "Size 1"])
            let keys = ["id", "price", "compareAtPrice", "available"]
            #expect(Self.canonical(prices) == Self.canonical(full.map { $0.filter { keys.contains($0.key) } }))
            #expect(prices.first?["price"] as? String == "10.00" && prices.first?["available"] as? Bool == true, "\(prices.prefix(2))")
        }
    }

    /// Products listed for what a list shows (read with fewer columns; a first page by one prepared
    /// statement per sort) answer as products asked for every field do, cursors included, whatever
    /// the stock filter; a field beyond a list's is read for real.
    @Test(arguments: ["PRICE_ASC", "PRICE_DESC", "NEWEST", "RECENTLY_CHANGED", "TITLE"])
    func productsReadForAListAnswerAsFullOnesDo(sort: String) async throws {
        try await UsersOverHTTPTests.withServer { server in
            let (owner, home) = try await Self.seededHome(server, stores: 2, tasks: 0)
            let listed = "id version storeId title minPrice maxPrice available removedAt"
            for stock in ["IN_STOCK", "OUT_OF_STOCK"] {
                let data = try await server.data("""
                    query($h: UUID!) {
                      listed: stores(householdId: $h, first: 2) { edges { node { products(first: 5, sort: \(sort), stock: \(stock)) {
                        edges { cursor node { \(listed) } } } } } }
                      full: stores(householdId: $h, first: 2) { edges { node { products(first: 5, sort: \(sort), stock: \(stock)) {
                        edges { cursor node { \(listed) url } } } } } }
                    }
                    """, ["h": home.lowercasedString], token: owner.token)
                func nodes(_ key: String) -> [[String: Any]] {
                    let stores = (data[key] as? [String: Any])?["edges"] as? [[String: Any]] ?? []
                    return stores.flatMap { (((($0["node"] as? [String: Any])?["products"]) as? [String: Any])?["edges"] as? [[String: Any]]) ?? [] }
                        .map { edge in edge.mapValues { value in (value as? [String: Any])?.filter { $0.key != "url" } ?? value } }
                }
                let listedNodes = nodes("listed")
                #expect(!listedNodes.isEmpty && Self.canonical(listedNodes) == Self.canonical(nodes("full")), "\(stock)")
                #expect(listedNodes.allSatisfy { ($0["node"] as? [String: Any])?["available"] as? Bool == (stock == "IN_STOCK") }, "\(stock)")
            }
            let data = try await server.data("""
                query($h: UUID!) {
                  listed: stores(householdId: $h, first: 2) { edges { node { products(first: 5, sort: \(sort)) {
                    edges { cursor node { \(listed) } } } } } }
                  full: stores(householdId: $h, first: 2) { edges { node { products(first: 5, sort: \(sort)) {
                    edges { cursor node { \(listed) url vendor firstSeenAt } } } } } }
                }
                """, ["h": home.lowercasedString], token: owner.token)
            func edges(_ key: String) -> [[String: Any]] {
                let stores = (data[key] as? [String: Any])?["edges"] as? [[String: Any]] ?? []
                return stores.flatMap { (((($0["node"] as? [String: Any])?["products"]) as? [String: Any])?["edges"] as? [[String: Any]]) ?? [] }
            }
            let (short, full) = (edges("listed"), edges("full"))
            #expect(full.count == 10)
            let beyond: Set = ["url", "vendor", "firstSeenAt"]
            let stripped = full.map { edge in edge.mapValues { value in (value as? [String: Any])?.filter { !beyond.contains($0.key) } ?? value } }
            #expect(Self.canonical(short) == Self.canonical(stripped))
            let nodes = full.compactMap { $0["node"] as? [String: Any] }
            #expect(nodes.allSatisfy { ($0["url"] as? String)?.hasPrefix("https://shop") == true && $0["vendor"] as? String == "Acme" }, "\(nodes.prefix(1))")
            #expect(nodes.allSatisfy { ($0["firstSeenAt"] as? String)?.hasPrefix("1970") == false })
        }
    }

    /// Tasks listed for what a list shows (read with fewer columns) answer as tasks asked for every
    /// field do, in the agenda and in a page; a field beyond a list's is read for real.
    @Test func tasksReadForAListAnswerAsFullOnesDo() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let (owner, home) = try await Self.seededHome(server, stores: 0, tasks: 6)
            let now = server.clock.now
            let data = try await server.data("""
                query($h: UUID!, $from: DateTime!, $to: DateTime!) {
                  listed: household(id: $h) {
                    agenda(from: $from, to: $to) { id version kind title priority deadline startsAt endsAt occursAt completed completedAt }
                    tasks(first: 4) { edges { cursor node { id title deadline labels { name } } } }
                  }
                  full: household(id: $h) {
                    agenda(from: $from, to: $to) { id version kind title priority deadline startsAt endsAt occursAt completed completedAt createdAt }
                    tasks(first: 4) { edges { cursor node { id title deadline labels { name } createdBy } } }
                  }
                }
                """, ["h": home.lowercasedString, "from": DateTimeScalar.string(from: now),
                      "to": DateTimeScalar.string(from: now.addingTimeInterval(7 * 86_400))], token: owner.token)
            let (listed, full) = (try #require(data["listed"] as? [String: Any]), try #require(data["full"] as? [String: Any]))
            let fullAgenda = try #require(full["agenda"] as? [[String: Any]])
            #expect(fullAgenda.count == 6)
            #expect(Self.canonical(listed["agenda"]) == Self.canonical(fullAgenda.map { $0.filter { $0.key != "createdAt" } }))
            #expect(fullAgenda.allSatisfy { ($0["createdAt"] as? String)?.hasPrefix("1970") == false }, "\(fullAgenda.prefix(1))")
            let fullPage = try #require((full["tasks"] as? [String: Any])?["edges"] as? [[String: Any]])
            let stripped = fullPage.map { edge in
                edge.mapValues { value in (value as? [String: Any])?.filter { $0.key != "createdBy" } ?? value }
            }
            #expect(fullPage.count == 4)
            #expect(Self.canonical((listed["tasks"] as? [String: Any])?["edges"]) == Self.canonical(stripped))
            #expect(fullPage.allSatisfy { ($0["node"] as? [String: Any])?["createdBy"] as? String == owner.id }, "\(fullPage.prefix(1))")
        }
    }

    @Test func theDashboardCostsAFixedNumberOfStatements() async throws {
        let measured = Mutex<[Int]>([])
        for (stores, tasks) in [(2, 5), (20, 50)] {
            try await UsersOverHTTPTests.withServer { server in
                let owner = try await Self.seededHome(server, stores: stores, tasks: tasks).owner
                let (statements, data) = try await Self.measure(server, token: owner.token)
                let household = try #require(
                    ((data["households"] as? [String: Any])?["edges"] as? [[String: Any]])?.first?["node"] as? [String: Any])
                let storeEdges = try #require((household["stores"] as? [String: Any])?["edges"] as? [[String: Any]])
                #expect(storeEdges.count == stores)
                let firstProducts = try #require(
                    ((storeEdges.first?["node"] as? [String: Any])?["products"] as? [String: Any])?["edges"] as? [[String: Any]])
                #expect(firstProducts.count == 10)
                #expect(((household["tasks"] as? [String: Any])?["edges"] as? [[String: Any]])?.count == tasks)
                #expect((household["agenda"] as? [Any])?.count == tasks)
                measured.withLock { $0.append(statements) }
            }
        }
        let counts = measured.withLock { $0 }
        try #require(counts.count == 2)
        print("dashboard statements: \(counts[0]) for 2 stores / 5 tasks, \(counts[1]) for 20 stores / 50 tasks")
        #expect(counts[0] == counts[1], "the count grows with the data: \(counts)")
        #expect(counts[1] <= 15, "\(counts)")
    }

    /// Lists and counts below a list of households (members, activity, stores, tasks, agenda,
    /// labels, store changes, unread count) and below a list of products (price history) are loaded for all their
    /// parents at once: three households cost what one does.
    @Test func householdListsAndPriceHistoriesAreBatched() async throws {
        let query = """
            query($from: DateTime!, $to: DateTime!) {
              households {
                edges {
                  node {
                    members { totalCount edges { node { role user { displayName } } } }
                    activity(first: 5) { edges { node { kind } } }
                    stores { edges { node { products(first: 5) { edges { node { title priceHistory(first: 3) { price } } } } } } }
                    agenda(from: $from, to: $to) { title }
                    tasks(first: 5) { totalCount edges { node { title } } }
                    unreadEventCount
                    labels { name }
                    storeChanges(first: 5) { totalCount edges { node { type } } }
                  }
                }
              }
            }
            """
        let measured = Mutex<[Int]>([])
        for count in [1, 3] {
            try await UsersOverHTTPTests.withServer { server in
                let owner = try await HouseholdsOverHTTPTests.person(server, "Olive")
                let ownerID = try #require(UUID(uuidString: owner.id))
                for _ in 0..<count {
                    let home = try await HouseholdsOverHTTPTests.createHousehold(server, owner)
                    try await Self.seed(server, owner: ownerID, household: try #require(UUID(uuidString: home)), stores: 1, tasks: 2)
                }
                let (statements, data) = try await Self.measure(server, token: owner.token, query: query)
                let households = try #require((data["households"] as? [String: Any])?["edges"] as? [[String: Any]])
                #expect(households.count == count)
                for household in households.compactMap({ $0["node"] as? [String: Any] }) {
                    #expect((household["members"] as? [String: Any])?["totalCount"] as? Int == 1)
                    let kinds = ((household["activity"] as? [String: Any])?["edges"] as? [[String: Any]])?
                        .compactMap { ($0["node"] as? [String: Any])?["kind"] as? String }
                    #expect(kinds == ["HOUSEHOLD_CREATED"])
                    let stores = try #require((household["stores"] as? [String: Any])?["edges"] as? [[String: Any]])
                    let products = try #require(((stores.first?["node"] as? [String: Any])?["products"] as? [String: Any])?["edges"] as? [[String: Any]])
                    #expect(products.count == 5)
                    #expect(products.allSatisfy { (($0["node"] as? [String: Any])?["priceHistory"] as? [Any])?.isEmpty == true })
                    #expect((household["tasks"] as? [String: Any])?["totalCount"] as? Int == 2)
                    #expect(household["unreadEventCount"] as? Int == 0)
                    #expect((household["labels"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Label 0", "Label 1"])
                    #expect((household["storeChanges"] as? [String: Any])?["totalCount"] as? Int == 0)
                }
                measured.withLock { $0.append(statements) }
            }
        }
        let counts = measured.withLock { $0 }
        #expect(counts.count == 2 && counts[0] == counts[1], "statements for 1 and 3 households: \(counts)")
    }

    /// A task's labels and subtasks are read only when the selection shows them (a statement each
    /// for a whole list), and a product's link comes from its store without reading the store again;
    /// its images come when asked for.
    @Test func listsNobodySelectedAreNotRead() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let (owner, homeID) = try await Self.seededHome(server, stores: 2, tasks: 3)
            func cost(_ tasks: String, _ agenda: String) async throws -> (statements: Int, household: [String: Any]) {
                let (statements, data) = try await Self.measure(server, token: owner.token, query: """
                    query($from: DateTime!, $to: DateTime!) { households { edges { node {
                      tasks(first: 5) { edges { node { \(tasks) } } } agenda(from: $from, to: $to) { \(agenda) } } } } }
                    """)
                let household = try #require(((data["households"] as? [String: Any])?["edges"] as? [[String: Any]])?.first?["node"] as? [String: Any])
                return (statements, household)
            }
            let bare = try await cost("title", "title")
            let labelled = try await cost("title labels { name }", "title")
            let full = try await cost("title labels { name } subtasks { title }", "title labels { name } subtasks { title }")
            #expect(labelled.statements == bare.statements + 1, "labels of the tasks: \(bare.statements) → \(labelled.statements)")
            #expect(full.statements == bare.statements + 4, "labels and subtasks of both lists: \(bare.statements) → \(full.statements)")
            let tasks = try #require(((full.household["tasks"] as? [String: Any])?["edges"] as? [[String: Any]])?.compactMap { $0["node"] as? [String: Any] })
            #expect(tasks.map { ($0["labels"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? [] } == [["Label 0"], ["Label 1"], ["Label 2"]])
            let agenda = try #require(full.household["agenda"] as? [[String: Any]])
            #expect(agenda.map { ($0["subtasks"] as? [[String: Any]])?.compactMap { $0["title"] as? String } ?? [] }
                    == Array(repeating: ["First step", "Second step"], count: 3))

            try await server.database.client.query("""
                UPDATE products SET images = '[{"src": "https://cdn.example/oat.jpg", "width": 800, "height": null}]'::jsonb
                WHERE household_id = \(homeID) AND title = 'Product 0'
                """, logger: TestPostgres.logger)
            let products = try await server.data("""
                { households { edges { node { stores(first: 2) { edges { node { products(first: 1, sort: PRICE_ASC) { edges { node { url images { src width height } } } } } } } } } } }
                """, token: owner.token)
            let urls = ((((products["households"] as? [String: Any])?["edges"] as? [[String: Any]])?.first?["node"] as? [String: Any])?["stores"]
                        as? [String: Any])?["edges"] as? [[String: Any]]
            let links = (urls ?? []).compactMap { ((($0["node"] as? [String: Any])?["products"] as? [String: Any])?["edges"] as? [[String: Any]])?.first }
                .compactMap { ($0["node"] as? [String: Any])?["url"] as? String }
            #expect(links == ["https://shop1.example/products/product-0", "https://shop2.example/products/product-0"])
            let images = (urls ?? []).compactMap { ((($0["node"] as? [String: Any])?["products"] as? [String: Any])?["edges"] as? [[String: Any]])?.first }
                .map { Self.canonical(($0["node"] as? [String: Any])?["images"]) }
            #expect(images == Array(repeating: #"[{"height":null,"src":"https:\/\/cdn.example\/oat.jpg","width":800}]"#, count: 2))
        }
    }
}
