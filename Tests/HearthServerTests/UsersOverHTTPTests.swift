import AsyncHTTPClient
import Foundation
import GraphQLEngine
import HearthCore
import HearthServer
import HearthTestSupport
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import Logging
import Testing

/// Accounts, sessions, profile and preferences end to end: GraphQL over real HTTP on 127.0.0.1,
/// a real PostgreSQL, a manual clock for expiry and rate-limit windows, and the server's log
/// captured to check that no password or token reaches it.
@Suite struct UsersOverHTTPTests {
    struct Server: Sendable {
        let client: any TestClientProtocol
        let clock: ManualClock
        let log: GraphQLHTTPLimitsTests.CapturedLog
        let services: HearthServices
        let database: Database

        /// Runs `query` with `variables`, as the holder of `token`; returns status and JSON.
        /// Sent with AsyncHTTPClient and a limit of two minutes, not through the live test client,
        /// whose read timeout is a fixed 20 s: with the whole suite on two cores, a request that
        /// takes 0.2 s alone (a sign-up, a push of twenty changes) took 10 to 16 s here. Each
        /// request in flight has a connection of its own (the client's pool), so requests sent
        /// together really run at the same time.
        func graphQL(_ query: String, _ variables: [String: Any] = [:], token: String? = nil, userAgent: String? = nil)
            async throws -> (status: HTTPResponse.Status, json: [String: Any])
        {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(try #require(client.port))/graphql")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "Accept", value: "application/graphql-response+json")
            if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
            if let userAgent { request.headers.add(name: "User-Agent", value: userAgent) }
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: ["query": query, "variables": variables])))
            let response = try await Self.http.execute(request, timeout: .seconds(120))
            let body = try await response.body.collect(upTo: 1 << 26)
            let json = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any] ?? [:]
            return (HTTPResponse.Status(code: Int(response.status.code)), json)
        }

        /// What `execute` answers: status, headers and the whole body.
        struct Response: Sendable {
            let status: HTTPResponse.Status
            let headers: HTTPFields
            let body: ByteBuffer
        }

        /// The client every test request to Hearth goes through, made once for the test process and
        /// never shut down, as `HTTPClient.shared` is. Redirects are answers to check, never followed.
        /// Up to 64 connections to one server, and a request may wait two minutes for one (not 8
        /// and 10 s: a test sending 24 requests at once under the whole suite waited longer). An
        /// idle connection is dropped after 5 s, well before the server's 60 s idle limit: at the
        /// default (60 s too) a request could go out on a connection the server was closing.
        static let http = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(
                redirectConfiguration: .disallow, timeout: .init(connect: .seconds(120)),
                connectionPool: .init(idleTimeout: .seconds(5), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)))

        /// Sends any request to this instance, as `graphQL` does: through AsyncHTTPClient with a
        /// limit of two minutes rather than the live test client's fixed 20 s read timeout.
        func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil) async throws -> Response {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(try #require(client.port))\(uri)")
            request.method = .init(rawValue: method.rawValue)
            for field in headers { request.headers.add(name: field.name.rawName, value: field.value) }
            if let body { request.body = .bytes(body) }
            let response = try await Self.http.execute(request, timeout: .seconds(120))
            var fields = HTTPFields()
            for (name, value) in response.headers {
                if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
            }
            let received = try await response.body.collect(upTo: 1 << 26)
            return Response(status: HTTPResponse.Status(code: Int(response.status.code)), headers: fields, body: received)
        }

        /// The data of a successful operation.
        func data(_ query: String, _ variables: [String: Any] = [:], token: String? = nil, userAgent: String? = nil)
            async throws -> [String: Any]
        {
            let (status, json) = try await graphQL(query, variables, token: token, userAgent: userAgent)
            #expect(status == .ok && json["errors"] == nil, "\(json)")
            return json["data"] as? [String: Any] ?? [:]
        }

        /// The first error's code, message and extensions.
        func error(_ query: String, _ variables: [String: Any] = [:], token: String? = nil) async throws
            -> (code: String?, message: String?, extensions: [String: Any])
        {
            let (_, json) = try await graphQL(query, variables, token: token)
            let first = (json["errors"] as? [[String: Any]])?.first ?? [:]
            let extensions = first["extensions"] as? [String: Any] ?? [:]
            return (extensions["code"] as? String, first["message"] as? String, extensions)
        }

        /// Signs up and returns the token.
        func signUp(_ email: String, password: String = "correct horse", name: String = "Ada") async throws -> String {
            let data = try await data(
                "mutation($i: SignUpInput!) { signUp(input: $i) { token user { email } } }",
                ["i": ["email": email, "password": password, "displayName": name]])
            return try #require((data["signUp"] as? [String: Any])?["token"] as? String)
        }
    }

    static func withServer(
        signUpMode: SignUpMode = .open, adminToken: String? = nil, shopify: ShopifyClientConfiguration = ShopifyClientConfiguration(),
        stores: StoresConfiguration = StoresConfiguration(), signUpsPerAddress: Int = UsersConfiguration().signUpsPerAddress,
        delivery: DeliveryConfiguration = HearthRuntime.testDelivery,
        _ body: @escaping @Sendable (Server) async throws -> Void
    ) async throws {
        try await withServers(
            count: 1, signUpMode: signUpMode, adminToken: adminToken, shopify: shopify, stores: stores, signUpsPerAddress: signUpsPerAddress,
            delivery: delivery
        ) { servers in
            try await body(servers[0])
        }
    }

    /// `count` Hearth instances on one database, as a scaled-out deployment runs them: each with
    /// its own pool, services, caches and HTTP server, and (when more than one) its event bus
    /// listening. They share the manual clock and the captured log.
    static func withServers(
        count: Int, signUpMode: SignUpMode = .open, adminToken: String? = nil, shopify: ShopifyClientConfiguration = ShopifyClientConfiguration(),
        stores: StoresConfiguration = StoresConfiguration(), signUpsPerAddress: Int = UsersConfiguration().signUpsPerAddress,
        connections: HTTPConnectionLimits = HTTPConnectionLimits(), delivery: DeliveryConfiguration = HearthRuntime.testDelivery,
        _ body: @escaping @Sendable ([Server]) async throws -> Void
    ) async throws {
        let log = GraphQLHTTPLimitsTests.CapturedLog()
        let endpoint = try await TestPostgres.shared.createDatabase()
        let clock = ManualClock(Date())
        // Instances sharing a database share the secret key (as deployments must): `delivery` is made once.
        @Sendable func start(_ started: [Server]) async throws {
            guard started.count < count else { return try await body(started) }
            let runtime = try HearthRuntime.testing(
                database: .embedded(endpoint, poolSize: 4), clock: clock,
                server: .init(host: "127.0.0.1", port: 0, adminToken: adminToken, connections: connections),
                users: UsersConfiguration(bcryptCost: 4, signUpMode: signUpMode, signUpsPerAddress: signUpsPerAddress), shopify: shopify,
                stores: stores, delivery: delivery, logger: log.logger)
            let database = runtime.database
            try await database.whileRunning { database in
                let app = runtime.application()
                try await withCleanup {
                    try await app.test(.live) { client in
                        let server = Server(client: client, clock: clock, log: log, services: runtime.services, database: database)
                        guard count > 1 else { return try await start(started + [server]) }
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            group.addTask { await database.bus.run() }
                            defer { group.cancelAll() }
                            for _ in 0..<500 where !database.bus.isListening { try await Task.sleep(for: .milliseconds(10)) }
                            #expect(database.bus.isListening, "instance \(started.count + 1)'s event bus is listening")
                            try await start(started + [server])
                        }
                    }
                } cleanup: {
                    try await runtime.shutdown()
                }
            }
        }
        try await start([])
    }

    static let me = "{ me { id email displayName avatarURL isAdmin createdAt preferences { theme timeZone } } }"

    @Test func signUpSignInMeAndSessions() async throws {
        try await Self.withServer { server in
            #expect(try await server.data("{ me { id } }")["me"] is NSNull, "signed out, me is null")
            let token = try await server.signUp(" Ada@Example.org ", name: " Ada ")
            let me = try #require(try await server.data(Self.me, token: token)["me"] as? [String: Any])
            #expect(me["email"] as? String == "ada@example.org")
            #expect(me["displayName"] as? String == "Ada")
            #expect(me["isAdmin"] as? Bool == false)
            #expect((me["preferences"] as? [String: Any])?["theme"] as? String == "SYSTEM")

            let signIn = try await server.data(
                "mutation { signIn(email: \"ADA@example.org\", password: \"correct horse\") { token expiresAt user { email } } }",
                userAgent: "HearthTests/1.0")
            let second = try #require((signIn["signIn"] as? [String: Any])?["token"] as? String)
            #expect(second != token)
            let sessions = try #require(try await server.data("{ sessions { id deviceName current } }", token: second)["sessions"] as? [[String: Any]])
            #expect(sessions.count == 2)
            #expect(sessions.filter { $0["current"] as? Bool == true }.map { $0["deviceName"] as? String } == ["HearthTests/1.0"])
        }
    }

    @Test func badInputNamesTheFieldAndWritesNothing() async throws {
        try await Self.withServer { server in
            let cases: [([String: Any], String)] = [
                (["email": "nope", "password": "correct horse", "displayName": "Ada"], "email"),
                (["email": "ada@example.org", "password": "short", "displayName": "Ada"], "password"),
                (["email": "ada@example.org", "password": "correct horse", "displayName": String(repeating: "é", count: 81)], "displayName"),
            ]
            for (input, field) in cases {
                let error = try await server.error("mutation($i: SignUpInput!) { signUp(input: $i) { token } }", ["i": input])
                #expect(error.code == "BAD_USER_INPUT")
                #expect(error.extensions["field"] as? String == field)
                #expect(error.message?.hasPrefix(field) == true, "\(String(describing: error.message))")
            }
            let token = try await server.signUp("ada@example.org")
            let duplicate = try await server.error(
                "mutation($i: SignUpInput!) { signUp(input: $i) { token } }",
                ["i": ["email": "ADA@example.org", "password": "correct horse", "displayName": "Other"]])
            #expect(duplicate.code == "BAD_USER_INPUT" && duplicate.extensions["field"] as? String == "email")
            let zone = try await server.error(#"mutation { updatePreferences(input: {timeZone: "Mars/Olympus"}) { timeZone } }"#, token: token)
            #expect(zone.code == "BAD_USER_INPUT" && zone.extensions["field"] as? String == "input.timeZone")
            let avatar = try await server.error(#"mutation { updateProfile(avatarURL: "https://x.org/" ) { id } }"#, token: token)
            #expect(avatar.code == nil, "a valid URL is accepted")
            let wrong = try await server.error(#"mutation { changePassword(currentPassword: "wrong one", newPassword: "long enough") }"#, token: token)
            #expect(wrong.code == "BAD_USER_INPUT" && wrong.extensions["field"] as? String == "currentPassword")
            #expect(try await server.services.users.allUsers().count == 1)
        }
    }

    @Test func garbageExpiredAndRevokedTokensAreUnauthenticated() async throws {
        try await Self.withServer { server in
            let first = try await server.signUp("ada@example.org")
            let signIn = try await server.data(#"mutation { signIn(email: "ada@example.org", password: "correct horse") { token } }"#)
            let second = try #require((signIn["signIn"] as? [String: Any])?["token"] as? String)

            for garbage in ["garbage", String(repeating: "A", count: 43)] {
                let (status, json) = try await server.graphQL("{ me { id } }", token: garbage)
                #expect(status == .unauthorized)
                #expect(((json["errors"] as? [[String: Any]])?.first?["extensions"] as? [String: Any])?["code"] as? String == "UNAUTHENTICATED")
            }
            // Signing out one session leaves the other working.
            #expect(try await server.data("mutation { signOut }", token: first)["signOut"] as? Bool == true)
            #expect(try await server.graphQL("{ me { id } }", token: first).status == .unauthorized)
            #expect(try await server.graphQL("{ me { id } }", token: second).status == .ok)
            // Revoking from another session.
            let third = try #require(((try await server.data(#"mutation { signIn(email: "ada@example.org", password: "correct horse") { token } }"#))["signIn"] as? [String: Any])?["token"] as? String)
            let sessions = try #require(try await server.data("{ sessions { id current } }", token: second)["sessions"] as? [[String: Any]])
            let other = try #require(sessions.first { $0["current"] as? Bool == false }?["id"] as? String)
            #expect(try await server.data("mutation($id: UUID!) { revokeSession(id: $id) }", ["id": other], token: second)["revokeSession"] as? Bool == true)
            #expect(try await server.graphQL("{ me { id } }", token: third).status == .unauthorized)
            // Expiry: 31 idle days later the last token is refused.
            server.clock.advance(by: 31 * 86_400)
            #expect(try await server.graphQL("{ me { id } }", token: second).status == .unauthorized)
            // Signed-in-only fields answer UNAUTHENTICATED without a token.
            for query in ["{ sessions { id } }", #"{ searchUsers(query: "a") { id } }"#, "{ exportPreferences }", "mutation { signOut }"] {
                #expect(try await server.error(query).code == "UNAUTHENTICATED", "\(query)")
            }
        }
    }

    @Test func signOutEverywhereAndChangePasswordRevokeAcrossSessions() async throws {
        try await Self.withServer { server in
            let first = try await server.signUp("ada@example.org")
            let signInQuery = #"mutation { signIn(email: "ada@example.org", password: "correct horse") { token } }"#
            let second = try #require(((try await server.data(signInQuery))["signIn"] as? [String: Any])?["token"] as? String)
            let third = try #require(((try await server.data(signInQuery))["signIn"] as? [String: Any])?["token"] as? String)
            #expect(try await server.data(#"mutation { changePassword(currentPassword: "correct horse", newPassword: "battery staple") }"#,
                                          token: first)["changePassword"] as? Bool == true)
            #expect(try await server.graphQL("{ me { id } }", token: second).status == .unauthorized)
            #expect(try await server.graphQL("{ me { id } }", token: third).status == .unauthorized)
            #expect(try await server.graphQL("{ me { id } }", token: first).status == .ok)
            let fourth = try #require(((try await server.data(#"mutation { signIn(email: "ada@example.org", password: "battery staple") { token } }"#))["signIn"] as? [String: Any])?["token"] as? String)
            #expect(try await server.data("mutation { signOutEverywhere }", token: fourth)["signOutEverywhere"] as? Int == 2)
            #expect(try await server.graphQL("{ me { id } }", token: first).status == .unauthorized)
        }
    }

    @Test func failedSignInsAreRateLimitedWithRetryAfter() async throws {
        try await Self.withServer { server in
            _ = try await server.signUp("ada@example.org")
            for _ in 0..<10 {
                let error = try await server.error(#"mutation { signIn(email: "ada@example.org", password: "wrong guess") { token } }"#)
                #expect(error.code == "UNAUTHENTICATED" && error.message == "Invalid email or password")
            }
            let unknown = try await server.error(#"mutation { signIn(email: "nobody@example.org", password: "wrong guess") { token } }"#)
            #expect(unknown.code == "RATE_LIMITED", "the client address is limited too")
            let limited = try await server.error(#"mutation { signIn(email: "ada@example.org", password: "correct horse") { token } }"#)
            #expect(limited.code == "RATE_LIMITED")
            #expect(limited.extensions["retryAfter"] as? Int == 900)
            server.clock.advance(by: 901)
            _ = try await server.data(#"mutation { signIn(email: "ada@example.org", password: "correct horse") { token } }"#)
        }
    }

    @Test func profilePreferencesSearchAndDeletion() async throws {
        try await Self.withServer { server in
            let ada = try await server.signUp("ada@example.org", name: "Ada Lovelace")
            _ = try await server.signUp("adam@example.org", name: "Adam")
            let updated = try await server.data(#"mutation { updateProfile(displayName: " Countess ", avatarURL: "https://example.org/a.png") { displayName avatarURL } }"#, token: ada)
            #expect((updated["updateProfile"] as? [String: Any])?["displayName"] as? String == "Countess")
            let cleared = try await server.data("mutation { updateProfile(avatarURL: null) { avatarURL } }", token: ada)
            #expect((cleared["updateProfile"] as? [String: Any])?["avatarURL"] is NSNull)

            let preferences = try await server.data(
                #"mutation { updatePreferences(input: {theme: DARK, notifications: {outOfStock: false}, priceDropThreshold: AT_LEAST_10_PERCENT, timeZone: "Europe/Berlin"}) { theme notifications { enabled outOfStock backInStock } priceDropThreshold timeZone } }"#,
                token: ada)
            let expected: [String: Any] = ["theme": "DARK", "priceDropThreshold": "AT_LEAST_10_PERCENT", "timeZone": "Europe/Berlin"]
            let got = try #require(preferences["updatePreferences"] as? [String: Any])
            for (key, value) in expected { #expect(got[key] as? String == value as? String, "\(key)") }
            #expect((got["notifications"] as? [String: Any])?["outOfStock"] as? Bool == false)

            let exported = try #require(try await server.data("{ exportPreferences }", token: ada)["exportPreferences"] as? [String: Any])
            #expect(exported["theme"] as? String == "DARK")
            let adam = try await server.data(#"mutation { signIn(email: "adam@example.org", password: "correct horse") { token } }"#)
            let adamToken = try #require((adam["signIn"] as? [String: Any])?["token"] as? String)
            let imported = try await server.data("mutation($p: JSON!) { importPreferences(preferences: $p) { theme timeZone } }", ["p": exported], token: adamToken)
            #expect((imported["importPreferences"] as? [String: Any])?["timeZone"] as? String == "Europe/Berlin")
            let unknown = try await server.error("mutation($p: JSON!) { importPreferences(preferences: $p) { theme } }", ["p": ["colour": "red"]], token: adamToken)
            #expect(unknown.code == "BAD_USER_INPUT" && unknown.extensions["field"] as? String == "preferences.colour")

            let found = try #require(try await server.data(#"{ searchUsers(query: "ADA", first: 5) { id displayName avatarURL } }"#, token: adamToken)["searchUsers"] as? [[String: Any]])
            #expect(found.map { $0["displayName"] as? String } == ["Adam"], "Ada is now the Countess")
            let byEmail = try #require(try await server.data(#"{ searchUsers(query: "ada@example.org") { displayName } }"#, token: adamToken)["searchUsers"] as? [[String: Any]])
            #expect(byEmail.map { $0["displayName"] as? String } == ["Countess"])
            #expect(try await server.error(#"{ searchUsers(query: "a", first: 50) { id } }"#, token: adamToken).code == "BAD_USER_INPUT")
            // Public fields only: asking for an email of a PublicUser is a validation error.
            #expect(try await server.graphQL(#"{ searchUsers(query: "a") { email } }"#, token: adamToken).status == .unprocessableContent)

            #expect(try await server.error(#"mutation { deleteAccount(password: "wrong one") }"#, token: ada).code == "BAD_USER_INPUT")
            #expect(try await server.data(#"mutation { deleteAccount(password: "correct horse") }"#, token: ada)["deleteAccount"] as? Bool == true)
            #expect(try await server.graphQL("{ me { id } }", token: ada).status == .unauthorized)
        }
    }

    @Test func signUpModesRestrictAccountCreation() async throws {
        for mode in [SignUpMode.closed, .inviteOnly] {
            try await Self.withServer(signUpMode: mode) { server in
                let error = try await server.error(
                    "mutation($i: SignUpInput!) { signUp(input: $i) { token } }",
                    ["i": ["email": "ada@example.org", "password": "correct horse", "displayName": "Ada"]])
                #expect(error.code == "FORBIDDEN")
                #expect(try await server.services.users.allUsers().isEmpty)
            }
        }
    }

    @Test func healthIsForAdministratorsOnly() async throws {
        try await Self.withServer(adminToken: "bootstrap-secret") { server in
            let person = try await server.signUp("ada@example.org")
            _ = try await server.services.users.createUser(email: "root@example.org", password: "correct horse", displayName: "Root", isAdmin: true)
            let admin = try #require(((try await server.data(#"mutation { signIn(email: "root@example.org", password: "correct horse") { token } }"#))["signIn"] as? [String: Any])?["token"] as? String)

            #expect(try await server.error("{ health { name } }").code == "UNAUTHENTICATED")
            #expect(try await server.error("{ health { name } }", token: person).code == "FORBIDDEN")
            let health = try #require(try await server.data("{ health { name isHealthy details } }", token: admin)["health"] as? [[String: Any]])
            // The services `hearth serve` runs, the event bus among them (the test server is built the same way).
            #expect(health.map { $0["name"] as? String } == ["database", "events", "users", "households", "stores", "tasks", "delivery"])
            let details = Dictionary(uniqueKeysWithValues: health.compactMap { entry in
                (entry["name"] as? String).map { ($0, entry["details"] as? [String: Any] ?? [:]) }
            })
            #expect(details["users"]?["sessionCacheSize"] is Int)
            // The instance page's counts: Ada and Root have accounts; neither made a household yet.
            #expect(details["users"]?["people"] as? Int == 2)
            #expect(details["households"]?["households"] as? Int == 0)
            #expect(details["households"]?["abilityCacheHitRate"] is Double || details["households"]?["abilityCacheHitRate"] is Int)

            func adminHealth(_ token: String?) async throws -> HTTPResponse.Status {
                var headers: HTTPFields = [:]
                if let token { headers[.authorization] = "Bearer \(token)" }
                return try await server.execute(uri: "/admin/health", method: .get, headers: headers).status
            }
            #expect(try await adminHealth(nil) == .unauthorized)
            #expect(try await adminHealth("wrong") == .unauthorized)
            #expect(try await adminHealth(person) == .forbidden)
            #expect(try await adminHealth(admin) == .ok)
            #expect(try await adminHealth("bootstrap-secret") == .ok)

            // Details are typed: numbers and booleans as JSON numbers and booleans, every time in
            // one format (RFC 3339, milliseconds, UTC), over HTTP and GraphQL alike.
            let response = try await server.execute(
                uri: "/admin/health", method: .get, headers: [.authorization: "Bearer bootstrap-secret"])
            let text = String(buffer: response.body)
            for pattern in [
                #""sessionCacheSize":[0-9]+[,}]"#, #""sessionCacheHitRate":[0-9.]+[,}]"#, #""abilityCacheSize":[0-9]+[,}]"#,
                #""loopRunning":(true|false)[,}]"#, #""stores":[0-9]+[,}]"#, #""pendingReminders":[0-9]+[,}]"#,
                #""lastChecked":"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z""#,
                #""startedAt":"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z""#,
            ] {
                #expect(text.range(of: pattern, options: .regularExpression) != nil, "\(pattern) in \(text)")
            }
            #expect(!text.contains(#"":"0""#) && !text.contains(#"":"true""#) && !text.contains(#"":"false""#), "a figure quoted as text: \(text)")
            let typed = try await server.data("{ health { name details } }", token: admin)
            let users = (typed["health"] as? [[String: Any]])?.first { $0["name"] as? String == "users" }
            #expect((users?["details"] as? [String: Any])?["sessionCacheSize"] is Int)
            #expect(!((users?["details"] as? [String: Any])?["sessionCacheSize"] is String))
        }
    }

    @Test func noPasswordOrTokenReachesTheLog() async throws {
        let secrets = ["correct horse", "battery staple", "wrong guess"]
        try await Self.withServer { server in
            let token = try await server.signUp("ada@example.org")
            _ = try await server.error(#"mutation { signIn(email: "ada@example.org", password: "wrong guess") { token } }"#)
            _ = try await server.data(#"mutation { changePassword(currentPassword: "correct horse", newPassword: "battery staple") }"#, token: token)
            let signIn = try await server.data(#"mutation { signIn(email: "ada@example.org", password: "battery staple") { token } }"#)
            let second = try #require((signIn["signIn"] as? [String: Any])?["token"] as? String)
            _ = try await server.data("{ me { id } }", token: second)
            _ = try await server.graphQL("{ me { id } }", token: "not-a-live-token")
            let lines = server.log.lines.withLock { $0 }
            #expect(lines.count > 10, "the log was captured (\(lines.count) lines)")
            for secret in secrets + [token, second, "not-a-live-token"] {
                #expect(!lines.contains { $0.contains(secret) }, "\(secret.prefix(6))… appears in the log")
            }
        }
    }
}
