import AsyncHTTPClient
import FixtureShop
import Foundation
import GraphQLEngine
import HearthCore
import HearthServer
import HearthTestSupport
import NIOCore
import Testing

/// Two Hearth instances on one database, as a scaled-out deployment runs them: what one instance
/// writes reaches the other's caches and subscribers over PostgreSQL's LISTEN/NOTIFY.
@Suite struct ScaleOutTests {
    typealias Server = UsersOverHTTPTests.Server
    typealias Person = HouseholdsOverHTTPTests.Person


    /// The other instance caches the session (TTL 300 s, and the manual clock stands still), so
    /// only the bus can make it refuse the token.
    @Test func aSessionEndedOnOneInstanceIsRefusedByTheOther() async throws {
        try await UsersOverHTTPTests.withServers(count: 2) { servers in
            let (a, b) = (servers[0], servers[1])
            let token = try await a.signUp("ada@example.org")
            let kept = try #require((try await a.data(#"mutation { signIn(email: "ada@example.org", password: "correct horse") { token } }"#)["signIn"]
                as? [String: Any])?["token"] as? String)
            #expect(try await b.graphQL("{ me { id } }", token: token).status == .ok)
            #expect(try await b.graphQL("{ me { id } }", token: kept).status == .ok)
            #expect(try await a.data("mutation { signOut }", token: token)["signOut"] as? Bool == true)
            #expect(try await eventually { try await b.graphQL("{ me { id } }", token: token).status == .unauthorized },
                    "instance B still accepts the token signed out on A")
            #expect(try await b.graphQL("{ me { id } }", token: kept).status == .ok, "the other session is untouched")
            #expect(b.database.bus.isListening)
        }
    }

    /// Signing out everywhere on one instance revokes access tokens and calendar feed links too,
    /// and the other instance (its cache never expiring: the manual clock stands still) refuses them
    /// through the bus; changing the password does the same unless asked not to, and so does an
    /// operator's reset.
    @Test func signingOutEverywhereRevokesAccessTokensAndFeedsOnEveryInstance() async throws {
        try await UsersOverHTTPTests.withServers(count: 2) { servers in
            let (a, b) = (servers[0], servers[1])
            var session = try await a.signUp("ada@example.org")
            /// A new access token and feed path, each used once on B (so B caches the token).
            func credentials() async throws -> (token: String, feed: String) {
                let token = try #require((try await a.data(#"mutation { createAccessToken(input: {name: "Calendar", scopes: [READ]}) { token } }"#,
                                                            token: session)["createAccessToken"] as? [String: Any])?["token"] as? String)
                let url = try #require((try await a.data(#"mutation { createCalendarFeed(input: {name: "Phone"}) { url } }"#,
                                                          token: session)["createCalendarFeed"] as? [String: Any])?["url"] as? String)
                let feed = "/feeds/" + (url.components(separatedBy: "/feeds/").last ?? "")
                #expect(try await b.graphQL("{ me { id } }", token: token).status == .ok)
                #expect(try await b.execute(uri: feed, method: .get, headers: [:], body: nil).status == .ok)
                return (token, feed)
            }
            func refusedOnB(_ credential: (token: String, feed: String)) async throws -> Bool {
                let refused = try await eventually { try await b.graphQL("{ me { id } }", token: credential.token).status == .unauthorized }
                let feed = try await b.execute(uri: credential.feed, method: .get, headers: [:], body: nil).status
                return refused && feed == .notFound
            }
            var credential = try await credentials()
            #expect(try await a.data("mutation { signOutEverywhere }", token: session)["signOutEverywhere"] as? Int == 1)
            #expect(try await refusedOnB(credential), "B still accepts what signing out everywhere on A revoked")

            session = try #require((try await a.data(#"mutation { signIn(email: "ada@example.org", password: "correct horse") { token } }"#)["signIn"]
                as? [String: Any])?["token"] as? String)
            credential = try await credentials()
            // Asked to keep them, a password change keeps them; by default it revokes them.
            _ = try await a.data(#"mutation { changePassword(currentPassword: "correct horse", newPassword: "battery staple", revokeAccessTokens: false) }"#,
                                 token: session)
            #expect(try await b.graphQL("{ me { id } }", token: credential.token).status == .ok)
            _ = try await a.data(#"mutation { changePassword(currentPassword: "battery staple", newPassword: "correct horse") }"#, token: session)
            #expect(try await refusedOnB(credential), "B still accepts what the password change on A revoked")

            credential = try await credentials()
            _ = try await a.services.users.resetPassword(email: "ada@example.org", password: "a new one entirely")
            #expect(try await refusedOnB(credential), "B still accepts what the operator's reset on A revoked")
        }
    }

    /// A member removed on one instance loses access on the other at once, not after the
    /// ability cache's TTL.
    @Test func aMembershipChangeOnOneInstanceReachesTheOthersCache() async throws {
        try await UsersOverHTTPTests.withServers(count: 2) { servers in
            let (a, b) = (servers[0], servers[1])
            let owner = try await HouseholdsOverHTTPTests.person(a, "Olive")
            let member = try await HouseholdsOverHTTPTests.person(a, "Max")
            let home = try await HouseholdsOverHTTPTests.createHousehold(a, owner)
            try await HouseholdsOverHTTPTests.add(a, owner, home, member, "MEMBER")
            let read = "query($h: UUID!) { household(id: $h) { name myRole } }"
            // B caches Max's ability as a MEMBER and the household row.
            #expect((try await b.data(read, ["h": home], token: member.token)["household"] as? [String: Any])?["myRole"] as? String == "MEMBER")
            _ = try await a.data("mutation($h: UUID!) { updateHousehold(id: $h, input: {name: \"Renamed\"}) { name } }", ["h": home], token: owner.token)
            #expect(try await eventually {
                (try await b.data(read, ["h": home], token: member.token)["household"] as? [String: Any])?["name"] as? String == "Renamed"
            }, "the renamed household reaches B's household cache")
            // Labels are cached per household: one made on A shows on B at once.
            let labels = "query($h: UUID!) { labels(householdId: $h) { name } }"
            #expect((try await b.data(labels, ["h": home], token: member.token)["labels"] as? [Any])?.isEmpty == true)
            _ = try await a.data("mutation($h: UUID!) { createLabel(householdId: $h, name: \"Garden\") { id } }", ["h": home], token: owner.token)
            #expect(try await eventually {
                (try await b.data(labels, ["h": home], token: member.token)["labels"] as? [[String: Any]])?.first?["name"] as? String == "Garden"
            }, "B's label cache dropped the household")
            _ = try await a.data("mutation($h: UUID!, $u: UUID!) { removeMember(householdId: $h, userId: $u) }",
                                 ["h": home, "u": member.id], token: owner.token)
            #expect(try await eventually { try await b.error(read, ["h": home], token: member.token).code == "NOT_FOUND" },
                    "B still lets a removed member read the household")
        }
    }

    /// Two instances on one database whose store clients may fetch `alpha.test` (20 products) from the fixture shop.
    static func withTwoServersAndAShop(_ body: @escaping @Sendable (Server, Server, FixtureShop) async throws -> Void) async throws {
        let shop = FixtureShop()
        try await shop.withRunning { port in
            let allowed = [ShopifyClientConfiguration.AllowedHost(host: "alpha.test", origin: FixtureShop.origin(port: port, shop: "alpha"))]
            try await UsersOverHTTPTests.withServers(count: 2, shopify: ShopifyClientConfiguration(requestTimeout: .seconds(20), allowedHosts: allowed)) { servers in
                shop.addShop("alpha", products: 20)
                try await body(servers[0], servers[1], shop)
            }
        }
    }

    /// A sync on instance A reaches `storeEvents` over WebSocket and `notificationReceived` over
    /// SSE on instance B.
    @Test func storeChangesReachSubscribersOnAnotherInstance() async throws {
        try await Self.withTwoServersAndAShop { a, b, shop in
            let owner = try await HouseholdsOverHTTPTests.person(a, "Olive")
            let home = try await HouseholdsOverHTTPTests.createHousehold(a, owner)
            let storeID = try #require(try await StoresOverHTTPTests.add(a, owner, home, "alpha.test", name: "Alpha")["id"] as? String)
            let catalog = try #require(shop.catalog("alpha"))
            let bPort = try #require(b.client.port)

            let http = HTTPClient(eventLoopGroupProvider: .singleton)
            try await withCleanup {
                // notificationReceived over SSE on B, read as a stream (the response head
                // may wait for the first event, so the request runs beside the rest).
                let (texts, textSink) = AsyncStream.makeStream(of: (UInt, String).self)
                let sse = Task {
                    defer { textSink.finish() }
                    var request = HTTPClientRequest(url: "http://127.0.0.1:\(bPort)/graphql")
                    request.method = .POST
                    request.headers.add(name: "Content-Type", value: "application/json")
                    request.headers.add(name: "Accept", value: "text/event-stream")
                    request.headers.add(name: "Authorization", value: "Bearer \(owner.token)")
                    request.body = .bytes(ByteBuffer(string: #"{"query":"subscription { notificationReceived { title body priority } }"}"#))
                    let response = try await http.execute(request, timeout: .seconds(30))
                    var text = ""
                    // Read on until cancelled: leaving the body unread would hold the request open.
                    for try await chunk in response.body {
                        text += String(buffer: chunk)
                        if text.contains("\n\n") { textSink.yield((response.status.code, text)) }
                    }
                }

                try await GraphQLWebSocketTests.connect(bPort) { reader, outbound in
                    try await GraphQLWebSocketTests.send(outbound, #"{"type":"connection_init","payload":{"authorization":"Bearer \#(owner.token)"}}"#)
                    #expect(try await reader.next() == #"{"type":"connection_ack"}"#)
                    try await GraphQLWebSocketTests.send(outbound, #"{"id":"e","type":"subscribe","payload":{"query":"subscription { storeEvents(householdId: \"\#(home)\") { type productTitle } }"}}"#)
                    let listening = try await eventually { b.services.stores.changes.subscriberCount == 2 }
                    #expect(listening, "both subscriptions on B are listening")
                    #expect(a.services.stores.changes.subscriberCount == 0, "nobody listens on A")

                    _ = shop.update("alpha") { c in
                        c.setPrice(product: 0, to: catalog.products[0].variants[0].price / 2)
                        c.setPrice(product: 1, to: catalog.products[1].variants[0].price * 2)
                    }
                    _ = try await StoresOverHTTPTests.sync(a, owner, storeID)

                    let events = try await withTimeout(.seconds(20)) { [try await reader.next() ?? "", try await reader.next() ?? ""] }
                    #expect(events.contains { $0.contains("PRICE_DROPPED") && $0.contains(catalog.products[0].title) }, "\(events)")
                    #expect(events.contains { $0.contains("PRICE_INCREASED") && $0.contains(catalog.products[1].title) }, "\(events)")
                    try await outbound.close(.normalClosure, reason: nil)
                }

                let first = try await withTimeout(.seconds(20)) { await texts.first { _ in true } }
                sse.cancel()
                _ = await sse.result
                let (status, text) = try #require(first)
                #expect(status == 200)
                #expect(text == """
                    event: next
                    data: {"data":{"notificationReceived":{"title":"Alpha","body":"1 price drop, 1 price increase","priority":"HIGH"}}}


                    """)
            } cleanup: {
                try await http.shutdown()
            }
        }
    }

    /// Task changes made on A and a reminder A's loop sends reach `taskChanged`, `reminderDue`
    /// and `notificationReceived` subscribers on B over WebSocket.
    @Test func taskChangesAndRemindersReachSubscribersOnAnotherInstance() async throws {
        try await UsersOverHTTPTests.withServers(count: 2) { servers in
            let (a, b) = (servers[0], servers[1])
            let owner = try await HouseholdsOverHTTPTests.person(a, "Olive")
            let home = try await HouseholdsOverHTTPTests.createHousehold(a, owner)
            let bPort = try #require(b.client.port)
            try await GraphQLWebSocketTests.connect(bPort) { reader, outbound in
                try await GraphQLWebSocketTests.send(outbound, #"{"type":"connection_init","payload":{"authorization":"Bearer \#(owner.token)"}}"#)
                #expect(try await reader.next() == #"{"type":"connection_ack"}"#)
                try await GraphQLWebSocketTests.send(outbound, #"{"id":"t","type":"subscribe","payload":{"query":"subscription { taskChanged(householdId: \"\#(home)\") { change task { title completed } } }"}}"#)
                try await GraphQLWebSocketTests.send(outbound, #"{"id":"r","type":"subscribe","payload":{"query":"subscription { reminderDue { title } }"}}"#)
                try await GraphQLWebSocketTests.send(outbound, #"{"id":"n","type":"subscribe","payload":{"query":"subscription { notificationReceived { title body } }"}}"#)
                let listening = try await eventually { b.services.tasks.changes.subscriberCount == 3 }
                #expect(listening)

                let deadline = DateTimeScalar.string(from: a.clock.now.addingTimeInterval(60))
                let created = try await a.data("mutation($h: UUID!, $d: DateTime) { createTask(householdId: $h, input: {title: \"Feed the cat\", deadline: $d}) { id } }",
                                               ["h": home, "d": deadline], token: owner.token)
                let id = try #require((created["createTask"] as? [String: Any])?["id"] as? String)
                a.clock.advance(by: 61)
                #expect(try await TaskReminderLoop(tasks: a.services.tasks).runRound() == 1)
                _ = try await a.data("mutation($id: UUID!) { completeTask(id: $id) { id } }", ["id": id], token: owner.token)
                _ = try await a.data("mutation($id: UUID!) { deleteTask(id: $id) { id } }", ["id": id], token: owner.token)

                var messages: [String] = []
                for _ in 0..<5 { messages.append(try await withTimeout(.seconds(20)) { try await reader.next() ?? "" }) }
                let changes = messages.filter { $0.hasPrefix(#"{"id":"t""#) }
                #expect(changes == [
                    #"{"id":"t","type":"next","payload":{"data":{"taskChanged":{"change":"CREATED","task":{"title":"Feed the cat","completed":false}}}}}"#,
                    #"{"id":"t","type":"next","payload":{"data":{"taskChanged":{"change":"COMPLETED","task":{"title":"Feed the cat","completed":true}}}}}"#,
                    #"{"id":"t","type":"next","payload":{"data":{"taskChanged":{"change":"DELETED","task":null}}}}"#,
                ], "\(messages)")
                #expect(messages.contains(#"{"id":"r","type":"next","payload":{"data":{"reminderDue":{"title":"Feed the cat"}}}}"#), "\(messages)")
                #expect(messages.contains { $0.hasPrefix(#"{"id":"n","type":"next","payload":{"data":{"notificationReceived":{"title":"Feed the cat","body":"Due "#) },
                        "\(messages)")
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
    }
}
