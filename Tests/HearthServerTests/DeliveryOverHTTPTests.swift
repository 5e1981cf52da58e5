import AsyncHTTPClient
#if canImport(Glibc)
import Glibc
#endif
import Crypto
import FixtureShop
import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import NIOCore
import Testing

/// Channels end to end over real HTTP: a person registers a browser's push subscription, an ntfy
/// topic and a webhook, and `testChannel` reaches real receivers on loopback (a Web Push service
/// that decrypts and verifies VAPID, an ntfy server, a Standard Webhooks verifier — Python's
/// http_ece, py_vapid and standardwebhooks).
@Suite struct DeliveryOverHTTPTests {
    typealias Server = UsersOverHTTPTests.Server

    /// `scripts/clients/delivery_receiver.py`, running until the test ends.
    final class Receiver: Sendable {
        let process: Process
        let port: Int
        /// Its standard input: closed when this process ends, which ends the receiver too.
        let input: Pipe

        init() throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: DeliveryCryptoTests.python)
            process.arguments = [DeliveryCryptoTests.root.appendingPathComponent("scripts/clients/delivery_receiver.py").path]
            let output = Pipe()
            let input = Pipe()
            process.standardOutput = output
            process.standardInput = input
            process.standardError = FileHandle.nullDevice
            try process.run()
            // The first line is `listening <port>` (read before any server runs: nothing waits on this thread).
            var line = Data()
            while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 10 { line.append(first) }
            guard let port = Int(String(decoding: line, as: UTF8.self).split(separator: " ").last ?? "") else {
                process.terminate()
                throw ReceiverFailure(line: String(decoding: line, as: UTF8.self))
            }
            self.process = process
            self.port = port
            self.input = input
        }

        /// A receiver, once the verifiers it runs with are known to be installed.
        static func started() throws -> Receiver {
            try #require(DeliveryCryptoTests.hasVerifiers, "the verifiers are missing from \(DeliveryCryptoTests.python) (make test installs them)")
            return try Receiver()
        }

        struct ReceiverFailure: Error {
            let line: String
        }

        /// Ends the receiver (each test does when it is done). SIGKILL: a child of the test process
        /// may start with SIGTERM blocked.
        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }

        deinit { stop() }

        func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

        func configure(_ settings: [String: [String: Any]]) async throws {
            var request = HTTPClientRequest(url: url("/configure"))
            request.method = .POST
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: settings)))
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
            #expect(response.status.code == 204)
        }

        /// What the receiver was sent so far; with `atLeast`, once that many requests arrived (at most a minute's wait).
        func received(atLeast count: Int = 0) async throws -> [[String: Any]] {
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url("/received?atLeast=\(count)")), timeout: .seconds(70))
            let body = try await response.body.collect(upTo: 1 << 22)
            return try #require(try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [[String: Any]])
        }
    }

    static let channelFields = "id kind name enabled kinds lastSuccessAt lastFailure consecutiveFailures"

    /// Adds an ntfy channel on the receiver for `person`.
    static func addNtfy(_ server: Server, _ person: HouseholdsOverHTTPTests.Person, _ receiver: Receiver, topic: String) async throws {
        _ = try await server.data("mutation($i: NtfyChannelInput!) { addNtfyChannel(input: $i) { id } }",
                                  ["i": ["serverUrl": receiver.url("/ntfy"), "topic": topic]], token: person.token)
    }

    /// A reminder of a new item due in a minute, fired (the clock moved past it).
    static func fireReminder(_ server: Server, _ person: HouseholdsOverHTTPTests.Person, _ household: String, title: String, priority: String = "NONE") async throws {
        _ = try await server.data("mutation($h: UUID!, $i: TaskInput!) { createTask(householdId: $h, input: $i) { id } }",
                                  ["h": household, "i": ["title": title, "priority": priority,
                                                         "deadline": DateTimeScalar.string(from: server.clock.now.addingTimeInterval(60))]], token: person.token)
        server.clock.advance(by: 61)
        #expect(try await TaskReminderLoop(tasks: server.services.tasks).runRound() == 1)
    }

    @Test(.needsVerifiers)
    func testMessagesReachRealReceiversOfEveryKind() async throws {
        let receiver = try Receiver.started()
        defer { receiver.stop() }
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let bob = try await HouseholdsOverHTTPTests.person(server, "Bob")
            let info = try await server.data("{ serverInfo { webPushPublicKey } }")
            let publicKey = try #require((info["serverInfo"] as? [String: Any])?["webPushPublicKey"] as? String)
            #expect(Data(base64URLEncoded: publicKey)?.count == 65)

            // A browser subscribes with the server's key; its test message decrypts and its VAPID verifies.
            let browser = P256.KeyAgreement.PrivateKey()
            let auth = Data.random(count: 16)
            try await receiver.configure(["browser": ["privateKey": browser.rawRepresentation.base64URLEncodedString, "auth": auth.base64URLEncodedString,
                                                      "subject": "mailto:tests@hearth.example"]])
            let register = "mutation($i: PushSubscriptionInput!) { registerPushSubscription(input: $i) { \(Self.channelFields) } }"
            let subscription: [String: Any] = ["endpoint": receiver.url("/push/browser"), "deviceName": "Firefox on the laptop",
                                               "keys": ["p256dh": browser.publicKey.x963Representation.base64URLEncodedString, "auth": auth.base64URLEncodedString]]
            let push = try #require(try await server.data(register, ["i": subscription], token: ann.token)["registerPushSubscription"] as? [String: Any])
            #expect(push["kind"] as? String == "WEB_PUSH" && push["name"] as? String == "Firefox on the laptop" && push["enabled"] as? Bool == true)
            // The same subscription again is the same channel.
            let again = try #require(try await server.data(register, ["i": subscription], token: ann.token)["registerPushSubscription"] as? [String: Any])
            #expect(again["id"] as? String == push["id"] as? String)

            let ntfy = try #require(try await server.data(
                "mutation($i: NtfyChannelInput!) { addNtfyChannel(input: $i) { \(Self.channelFields) } }",
                ["i": ["serverUrl": receiver.url("/ntfy"), "topic": "family", "accessToken": "tk_secret"]], token: ann.token)["addNtfyChannel"] as? [String: Any])
            let created = try #require(try await server.data(
                "mutation($i: WebhookInput!) { addWebhook(input: $i) { secret channel { \(Self.channelFields) } } }",
                ["i": ["url": receiver.url("/webhook/ha"), "kinds": ["REMINDER", "STORE_CHANGES"]]], token: ann.token)["addWebhook"] as? [String: Any])
            let secret = try #require(created["secret"] as? String)
            let webhook = try #require(created["channel"] as? [String: Any])
            #expect(secret.hasPrefix("whsec_") && webhook["kinds"] as? [String] == ["REMINDER", "STORE_CHANGES"])
            try await receiver.configure(["ha": ["secret": secret]])

            let test = "mutation($id: UUID!) { testChannel(id: $id) }"
            for channel in [push, ntfy, webhook] {
                let answer = try await server.data(test, ["id": channel["id"] ?? ""], token: ann.token)
                #expect(answer["testChannel"] as? Bool == true, "\(channel["kind"] ?? "")")
            }
            let received = try await receiver.received()
            #expect(received.count == 3, "\(received)")
            let pushed = try #require(received.first { $0["kind"] as? String == "push" })
            #expect(pushed["error"] == nil && pushed["vapid"] as? Bool == true, "\(pushed)")
            #expect((pushed["payload"] as? [String: Any])?["kind"] as? String == "TEST" && (pushed["payload"] as? [String: Any])?["title"] as? String == "Hearth test")
            let pushHeaders = try #require(pushed["headers"] as? [String: String])
            #expect(pushHeaders["content-encoding"] == "aes128gcm" && pushHeaders["urgency"] == "normal" && pushHeaders["ttl"] != nil)
            #expect(pushHeaders["authorization"]?.hasSuffix("k=\(publicKey)") == true)
            let published = try #require(received.first { $0["kind"] as? String == "ntfy" })
            let ntfyHeaders = try #require(published["headers"] as? [String: String])
            #expect(published["name"] as? String == "family" && published["body"] as? String == "Notifications reach this channel.")
            #expect(ntfyHeaders["title"] == "Hearth test" && ntfyHeaders["priority"] == "3" && ntfyHeaders["authorization"] == "Bearer tk_secret")
            #expect(ntfyHeaders["x-hearth-notification-id"] != nil)
            let hooked = try #require(received.first { $0["kind"] as? String == "webhook" })
            #expect(hooked["verified"] as? Bool == true && (hooked["payload"] as? [String: Any])?["type"] as? String == "notification.test", "\(hooked)")
            #expect((hooked["headers"] as? [String: String])?["webhook-id"] == (hooked["headers"] as? [String: String])?["x-hearth-notification-id"])

            // A receiver that refuses: false, and the channel says why.
            try await receiver.configure(["family": ["statuses": [500]]])
            #expect(try await server.data(test, ["id": ntfy["id"] ?? ""], token: ann.token)["testChannel"] as? Bool == false)
            let listed = try #require(try await server.data("{ channels { \(Self.channelFields) } }", token: ann.token)["channels"] as? [[String: Any]])
            #expect(listed.count == 3)
            let failing = try #require(listed.first { $0["id"] as? String == ntfy["id"] as? String })
            #expect(failing["consecutiveFailures"] as? Int == 1 && (failing["lastFailure"] as? String)?.contains("500") == true, "\(failing)")
            #expect(listed.first { $0["id"] as? String == push["id"] as? String }?["lastSuccessAt"] is String)
            // Its owner reads the channel's log: the refusal, then the success, newest first.
            let log = try #require(try await server.data("{ channels { id log { status outcome latencyMs } } }", token: ann.token)["channels"] as? [[String: Any]])
            let ntfyLog = try #require(log.first { $0["id"] as? String == ntfy["id"] as? String }?["log"] as? [[String: Any]])
            #expect(ntfyLog.map { $0["outcome"] as? String } == ["RETRY", "SENT"] && ntfyLog.map { $0["status"] as? Int } == [500, 201], "\(ntfyLog)")

            // A private or local address not allow-listed is refused when registered (IP literals and resolved
            // names alike), naming the option that lets it through; nothing is sent.
            let addHook = "mutation($i: WebhookInput!) { addWebhook(input: $i) { channel { id } } }"
            for url in ["http://localhost:\(receiver.port)/webhook/local", "http://10.0.0.1/hook", "http://169.254.169.254/latest",
                        "http://[::ffff:10.0.0.1]/hook", "http://[fe80::1]/hook", "https://192.168.1.20:8123/api/webhook/x"] {
                let refused = try await server.error(addHook, ["i": ["url": url]], token: ann.token)
                #expect(refused.code == "BAD_USER_INPUT" && refused.extensions["field"] as? String == "url", "\(url): \(refused)")
                #expect(refused.message?.contains("private or local address") == true && refused.message?.contains("--delivery-allow-host") == true,
                        "\(url): \(refused.message ?? "")")
            }
            let privateNtfy = try await server.error("mutation($i: NtfyChannelInput!) { addNtfyChannel(input: $i) { id } }",
                                                     ["i": ["serverUrl": "http://192.168.1.2", "topic": "family"]], token: ann.token)
            #expect(privateNtfy.code == "BAD_USER_INPUT" && privateNtfy.extensions["field"] as? String == "serverUrl", "\(privateNtfy)")
            var privateSubscription = subscription
            privateSubscription["endpoint"] = "https://127.0.0.2/push/x"
            let privatePush = try await server.error(register, ["i": privateSubscription], token: ann.token)
            #expect(privatePush.code == "BAD_USER_INPUT" && privatePush.extensions["field"] as? String == "endpoint", "\(privatePush)")
            #expect((try await server.data("{ channels { id } }", token: ann.token)["channels"] as? [[String: Any]])?.count == 3)
            #expect(try await receiver.received().count == 4)

            // Channels are their owner's alone; removing one takes it away.
            #expect(try await server.error(test, ["id": push["id"] ?? ""], token: bob.token).code == "NOT_FOUND")
            #expect(try await server.error("mutation($id: UUID!) { removeChannel(id: $id) }", ["id": push["id"] ?? ""], token: bob.token).code == "NOT_FOUND")
            #expect((try await server.data("{ channels { id } }", token: bob.token)["channels"] as? [[String: Any]])?.isEmpty == true)
            _ = try await server.data("mutation($id: UUID!) { removeChannel(id: $id) }", ["id": push["id"] ?? ""], token: ann.token)
            #expect((try await server.data("{ channels { id } }", token: ann.token)["channels"] as? [[String: Any]])?.count == 2)

            // Bad input names its field.
            let badKeys = try await server.error(register, ["i": ["endpoint": receiver.url("/push/x"), "keys": ["p256dh": "nope", "auth": "nope"]]], token: ann.token)
            #expect(badKeys.code == "BAD_USER_INPUT" && badKeys.extensions["field"] as? String == "keys", "\(badKeys)")
            let badTopic = try await server.error("mutation($i: NtfyChannelInput!) { addNtfyChannel(input: $i) { id } }",
                                                  ["i": ["serverUrl": "https://ntfy.sh", "topic": "no spaces"]], token: ann.token)
            #expect(badTopic.code == "BAD_USER_INPUT" && badTopic.extensions["field"] as? String == "topic")
        }
    }

    /// A due reminder reaches every channel of every member once, with two instances sending; a
    /// receiver answering 500 three times gets it on the fourth attempt with growing gaps; a 410
    /// removes the subscription.
    @Test(.needsVerifiers)
    func remindersAreDeliveredOnceAndRetriedWithBackOff() async throws {
        let receiver = try Receiver.started()
        defer { receiver.stop() }
        try await UsersOverHTTPTests.withServers(count: 2) { servers in
            let (a, b) = (servers[0], servers[1])
            let ann = try await HouseholdsOverHTTPTests.person(a, "Ann")
            let ben = try await HouseholdsOverHTTPTests.person(a, "Ben")
            let home = try await HouseholdsOverHTTPTests.createHousehold(a, ann)
            try await HouseholdsOverHTTPTests.add(a, ann, home, ben, "MEMBER")
            let browser = P256.KeyAgreement.PrivateKey()
            let auth = Data.random(count: 16)
            try await receiver.configure(["annphone": ["privateKey": browser.rawRepresentation.base64URLEncodedString, "auth": auth.base64URLEncodedString,
                                                       "subject": "mailto:tests@hearth.example"]])
            _ = try await a.data("mutation($i: PushSubscriptionInput!) { registerPushSubscription(input: $i) { id } }",
                                 ["i": ["endpoint": receiver.url("/push/annphone"), "keys": ["p256dh": browser.publicKey.x963Representation.base64URLEncodedString,
                                                                                         "auth": auth.base64URLEncodedString]]], token: ann.token)
            try await Self.addNtfy(a, ann, receiver, topic: "ann")
            let hook = try #require(try await a.data("mutation($i: WebhookInput!) { addWebhook(input: $i) { secret channel { id } } }",
                                                     ["i": ["url": receiver.url("/webhook/ben")]], token: ben.token)["addWebhook"] as? [String: Any])
            try await receiver.configure(["ben": ["secret": hook["secret"] ?? ""], "ann": ["statuses": [500, 500, 500]]])
            // A store-changes-only webhook does not take reminders.
            _ = try await a.data("mutation($i: WebhookInput!) { addWebhook(input: $i) { channel { id } } }",
                                 ["i": ["url": receiver.url("/webhook/stores"), "kinds": ["STORE_CHANGES"]]], token: ben.token)

            // Due in two hours, reminded in a minute: the push service keeps it until the deadline.
            let deadline = DateTimeScalar.string(from: a.clock.now.addingTimeInterval(7200))
            let remindAt = DateTimeScalar.string(from: a.clock.now.addingTimeInterval(60))
            let created = try await a.data(
                "mutation($h: UUID!, $d: DateTime, $r: DateTime) { createTask(householdId: $h, input: {title: \"Bins out\", deadline: $d, remindAt: $r}) { id } }",
                ["h": home, "d": deadline, "r": remindAt], token: ann.token)
            let task = try #require((created["createTask"] as? [String: Any])?["id"] as? String)
            a.clock.advance(by: 61)
            #expect(try await TaskReminderLoop(tasks: a.services.tasks).runRound() == 1)
            let notifications = try await a.data("{ notifications { edges { node { id kind taskId state } } } }", token: ann.token)
            let node = try #require(((notifications["notifications"] as? [String: Any])?["edges"] as? [[String: Any]])?.first?["node"] as? [String: Any])
            #expect(node["kind"] as? String == "REMINDER" && node["taskId"] as? String == task && node["state"] as? String == "ACTIVE")

            // Both instances send at once: each delivery goes out once.
            async let first = DeliveryLoop(delivery: a.services.delivery).runRound()
            async let second = DeliveryLoop(delivery: b.services.delivery).runRound()
            #expect(try await first + second == 3)
            var received = try await receiver.received()
            #expect(received.filter { $0["name"] as? String == "annphone" }.count == 1)
            #expect(received.filter { $0["name"] as? String == "ben" }.count == 1)
            #expect(received.filter { $0["name"] as? String == "ann" }.count == 1)
            #expect(received.filter { $0["name"] as? String == "stores" }.isEmpty)
            let pushed = try #require(received.first { $0["name"] as? String == "annphone" })
            let payload = try #require(pushed["payload"] as? [String: Any], "\(pushed)")
            #expect(payload["kind"] as? String == "REMINDER" && payload["taskId"] as? String == task && payload["actions"] as? [String] == ["COMPLETE", "SNOOZE"])
            #expect((pushed["headers"] as? [String: String])?["topic"] != nil)
            let ttl = try #require(Int((pushed["headers"] as? [String: String])?["ttl"] ?? ""))
            #expect(ttl > 7000 && ttl <= 7139, "TTL \(ttl): the deadline is 7 139 s away")
            #expect((received.first { $0["name"] as? String == "ben" })?["verified"] as? Bool == true)

            // ntfy answered 500: retried with growing gaps until it takes the message on the fourth attempt.
            var gaps: [TimeInterval] = []
            var last = a.clock.now
            for _ in 0..<3 {
                let due = try #require(try await Self.nextDue(a.database))
                gaps.append(due.timeIntervalSince(last))
                a.clock.advance(by: due.timeIntervalSince(a.clock.now) + 1)
                last = a.clock.now
                #expect(try await DeliveryLoop(delivery: b.services.delivery).runRound() == 1)
            }
            received = try await receiver.received()
            let ntfyAttempts = received.filter { $0["name"] as? String == "ann" }
            #expect(ntfyAttempts.map { $0["status"] as? Int } == [500, 500, 500, 201], "\(ntfyAttempts.map { $0["status"] ?? "" })")
            #expect(gaps.count == 3 && gaps[0] >= 24 && gaps[0] <= 36 && gaps[1] > gaps[0] && gaps[2] > gaps[1], "\(gaps)")
            #expect(try await Self.nextDue(a.database) == nil)

            // Completed (on the other instance): the browser that showed the reminder is told to close it,
            // under the reminder's Topic; ntfy and the webhook are not sent anything more.
            _ = try await b.data("mutation($t: UUID!) { completeTask(id: $t) { completed } }", ["t": task], token: ann.token)
            #expect(try await DeliveryLoop(delivery: a.services.delivery).runRound() == 1)
            received = try await receiver.received()
            let dismissal = try #require(received.last { $0["name"] as? String == "annphone" })
            #expect(dismissal["payload"] as? NSDictionary == ["id": node["id"] as? String ?? "", "kind": "DISMISS"] as NSDictionary, "\(dismissal)")
            #expect((dismissal["headers"] as? [String: String])?["topic"] == (pushed["headers"] as? [String: String])?["topic"])
            #expect(received.filter { $0["name"] as? String == "ben" }.count == 1)
            #expect(try await DeliveryLoop(delivery: b.services.delivery).runRound() == 0)

            // The push service says the subscription is gone: the channel goes.
            try await receiver.configure(["annphone": ["statuses": [410]]])
            _ = try await a.data("mutation($h: UUID!, $d: DateTime) { createTask(householdId: $h, input: {title: \"Water plants\", deadline: $d}) { id } }",
                                 ["h": home, "d": DateTimeScalar.string(from: a.clock.now.addingTimeInterval(60))], token: ann.token)
            a.clock.advance(by: 61)
            #expect(try await TaskReminderLoop(tasks: a.services.tasks).runRound() == 1)
            _ = try await DeliveryLoop(delivery: a.services.delivery).runRound()
            // Reminded at its deadline: kept the shortest time, ten minutes.
            let refused = try #require(try await receiver.received().last { $0["name"] as? String == "annphone" })
            #expect(refused["status"] as? Int == 410 && (refused["headers"] as? [String: String])?["ttl"] == "600", "\(refused)")
            let channels = try #require(try await a.data("{ channels { kind } }", token: ann.token)["channels"] as? [[String: Any]])
            #expect(channels.map { $0["kind"] as? String } == ["NTFY"], "\(channels)")
        }
    }

    /// A store change reaches every channel of every member who wants it, once, with two
    /// instances sending: the sync runs on A, both instances drain the outbox at the same time.
    @Test(.needsVerifiers)
    func storeChangesReachEveryChannelOfEveryMemberOnce() async throws {
        let receiver = try Receiver.started()
        defer { receiver.stop() }
        try await ScaleOutTests.withTwoServersAndAShop { a, b, shop in
            let ann = try await HouseholdsOverHTTPTests.person(a, "Ann")
            let ben = try await HouseholdsOverHTTPTests.person(a, "Ben")
            let cal = try await HouseholdsOverHTTPTests.person(a, "Cal")
            let home = try await HouseholdsOverHTTPTests.createHousehold(a, ann)
            try await HouseholdsOverHTTPTests.add(a, ann, home, ben, "MEMBER")
            try await HouseholdsOverHTTPTests.add(a, ann, home, cal, "MEMBER")
            let store = try #require(try await StoresOverHTTPTests.add(a, ann, home, "alpha.test", name: "Alpha")["id"] as? String)

            // Ann: a browser and an ntfy topic. Ben: a webhook for everything and one for reminders
            // only. Cal: an ntfy topic, but price changes switched off.
            let browser = P256.KeyAgreement.PrivateKey()
            let auth = Data.random(count: 16)
            try await receiver.configure(["annlaptop": ["privateKey": browser.rawRepresentation.base64URLEncodedString, "auth": auth.base64URLEncodedString,
                                                        "subject": "mailto:tests@hearth.example"]])
            _ = try await b.data("mutation($i: PushSubscriptionInput!) { registerPushSubscription(input: $i) { id } }",
                                 ["i": ["endpoint": receiver.url("/push/annlaptop"), "keys": ["p256dh": browser.publicKey.x963Representation.base64URLEncodedString,
                                                                                         "auth": auth.base64URLEncodedString]]], token: ann.token)
            try await Self.addNtfy(a, ann, receiver, topic: "ann")
            try await Self.addNtfy(b, cal, receiver, topic: "cal")
            let hook = try #require(try await a.data("mutation($i: WebhookInput!) { addWebhook(input: $i) { secret } }",
                                                     ["i": ["url": receiver.url("/webhook/ben")]], token: ben.token)["addWebhook"] as? [String: Any])
            _ = try await a.data("mutation($i: WebhookInput!) { addWebhook(input: $i) { secret } }",
                                 ["i": ["url": receiver.url("/webhook/benreminders"), "kinds": ["REMINDER"]]], token: ben.token)
            try await receiver.configure(["ben": ["secret": hook["secret"] ?? ""]])
            _ = try await a.data("mutation { updatePreferences(input: {notifications: {priceDropped: false, priceIncreased: false}}) { theme } }", token: cal.token)

            let catalog = try #require(shop.catalog("alpha"))
            _ = try await StoresOverHTTPTests.sync(a, ann, store)
            _ = shop.update("alpha") { c in
                c.setPrice(product: 0, to: catalog.products[0].variants[0].price / 2)
                c.setPrice(product: 1, to: catalog.products[1].variants[0].price * 2)
            }
            _ = try await StoresOverHTTPTests.sync(a, ann, store)

            async let first = DeliveryLoop(delivery: a.services.delivery).runRound()
            async let second = DeliveryLoop(delivery: b.services.delivery).runRound()
            #expect(try await first + second == 3)
            #expect(try await DeliveryLoop(delivery: a.services.delivery).runRound() + DeliveryLoop(delivery: b.services.delivery).runRound() == 0)
            let received = try await receiver.received()
            #expect(received.map { $0["name"] as? String ?? "" }.sorted() == ["ann", "annlaptop", "ben"], "\(received.map { $0["name"] ?? "" })")
            let pushed = try #require(received.first { $0["name"] as? String == "annlaptop" })
            let payload = try #require(pushed["payload"] as? [String: Any], "\(pushed)")
            #expect(payload["kind"] as? String == "STORE_CHANGES" && payload["storeId"] as? String == store && payload["householdId"] as? String == home)
            #expect(payload["title"] as? String == "Alpha" && payload["body"] as? String == "1 price drop, 1 price increase" && payload["priority"] as? String == "HIGH")
            let pushHeaders = try #require(pushed["headers"] as? [String: String])
            #expect(pushHeaders["urgency"] == "high" && pushHeaders["ttl"] == "86400", "\(pushHeaders)")
            // A newer summary of the same store replaces this one on Ann's device: its Topic is hers and the store's.
            let (annID, storeID) = (try #require(UUID(uuidString: ann.id)), try #require(UUID(uuidString: store)))
            let pair = withUnsafeBytes(of: annID.uuid) { Data($0) } + withUnsafeBytes(of: storeID.uuid) { Data($0) }
            #expect(pushHeaders["topic"] == "s" + SHA256.hash(data: pair).map { String(format: "%02x", $0) }.joined().prefix(31))
            let published = try #require(received.first { $0["name"] as? String == "ann" })
            #expect((published["headers"] as? [String: String])?["priority"] == "5" && published["body"] as? String == "1 price drop, 1 price increase")
            let hooked = try #require(received.first { $0["name"] as? String == "ben" })
            #expect(hooked["verified"] as? Bool == true && (hooked["payload"] as? [String: Any])?["type"] as? String == "notification.store_changes", "\(hooked)")
            // Ann's two channels carry the same notification id; Ben's is his own notification.
            let ids = received.map { ($0["headers"] as? [String: String])?["x-hearth-notification-id"] ?? "" }
            #expect(Set(ids).count == 2 && (pushHeaders["x-hearth-notification-id"] == (published["headers"] as? [String: String])?["x-hearth-notification-id"]))
            let calNotes = try await a.data("{ notifications(kinds: [STORE_CHANGES]) { totalCount } }", token: cal.token)
            #expect((calNotes["notifications"] as? [String: Any])?["totalCount"] as? Int == 0)
        }
    }

    /// `kill -9` of the instance while it sends: the restarted instance sends what was queued and,
    /// once the lease runs out, the delivery that was in flight (at least once: the receiver
    /// de-duplicates by notification id).
    @Test(.needsVerifiers)
    func aKilledInstanceDeliversWhatWasPendingWhenRestarted() async throws {
        let receiver = try Receiver.started()
        defer { receiver.stop() }
        try await receiver.configure(["slow": ["statuses": ["hang"]]])
        try await withTemporaryDirectory { dir throws in
            let env = ["HEARTH_DATA_DIR": dir + "/pg", "HEARTH_PORT": "0", "HEARTH_DELIVERY_ALLOW_HOSTS": "127.0.0.1", "HEARTH_DELIVERY_LEASE": "5"]
            let first = try HearthProcess(["serve"], environment: env)
            let port = try await first.waitUntilListening()
            func person(_ name: String) async throws -> (token: String, id: String) {
                let data = try await CrashRecoveryTests.graphQL(port, "mutation($i: SignUpInput!) { signUp(input: $i) { token user { id } } }",
                                                                ["i": ["email": "\(name)@example.org", "password": "correct horse", "displayName": name]])
                let signUp = try #require(data["signUp"] as? [String: Any])
                return (try #require(signUp["token"] as? String), try #require((signUp["user"] as? [String: Any])?["id"] as? String))
            }
            let ann = try await person("ann"), ben = try await person("ben")
            let created = try await CrashRecoveryTests.graphQL(port, #"mutation { createHousehold(input: {name: "Home"}) { id } }"#, token: ann.token)
            let home = try #require((created["createHousehold"] as? [String: Any])?["id"] as? String)
            _ = try await CrashRecoveryTests.graphQL(port, "mutation($h: UUID!, $u: UUID!) { addMember(householdId: $h, userId: $u, role: MEMBER) { role } }",
                                                     ["h": home, "u": ben.id], token: ann.token)
            for topic in ["slow", "later"] {
                _ = try await CrashRecoveryTests.graphQL(port, "mutation($i: NtfyChannelInput!) { addNtfyChannel(input: $i) { id } }",
                                                         ["i": ["serverUrl": receiver.url("/ntfy"), "topic": topic]], token: ben.token)
            }
            let assign = "mutation($h: UUID!, $i: TaskInput!) { createTask(householdId: $h, input: $i) { id } }"
            _ = try await CrashRecoveryTests.graphQL(port, assign, ["h": home, "i": ["title": "Bins out", "assigneeId": ben.id]], token: ann.token)
            // Both channels are sent the assignment; the slow one holds its request open.
            let inFlight = try await receiver.received(atLeast: 2)
            #expect(Set(inFlight.map { $0["name"] as? String ?? "" }) == ["slow", "later"], "\(inFlight)")
            // Queued while the slow receiver holds its request (the first instance may send it before it dies, or not).
            _ = try await CrashRecoveryTests.graphQL(port, assign, ["h": home, "i": ["title": "Water plants", "assigneeId": ben.id]], token: ann.token)
            first.send(SIGKILL)
            _ = try await first.waitForExit()

            let second = try HearthProcess(["serve"], environment: env)
            _ = try await second.waitUntilListening()
            // The second assignment on both channels, and the first again on the slow one (answered now): wait
            // for each arrival until they are all in (a send the killed instance made but had not settled
            // comes again: at least once).
            func notification(_ entry: [String: Any]) -> String { (entry["headers"] as? [String: String])?["x-hearth-notification-id"] ?? "" }
            func title(_ entry: [String: Any]) -> String { (entry["headers"] as? [String: String])?["title"] ?? "" }
            let firstID = notification(inFlight[0])
            var received = try await receiver.received(atLeast: 5)
            func complete(_ entries: [[String: Any]]) -> Bool {
                Set(entries.filter { $0["name"] as? String == "later" }.map(title)) == ["Bins out", "Water plants"]
                    && entries.contains { $0["name"] as? String == "slow" && notification($0) == firstID && $0["status"] as? Int == 201 }
                    && entries.contains { $0["name"] as? String == "slow" && title($0) == "Water plants" }
            }
            while !complete(received) && received.count < 8 { received = try await receiver.received(atLeast: received.count + 1) }
            let slow = received.filter { $0["name"] as? String == "slow" }, later = received.filter { $0["name"] as? String == "later" }
            #expect(Set(later.map(title)) == ["Bins out", "Water plants"] && Set(later.map(notification)).count == 2, "\(later)")
            #expect(slow.filter { notification($0) == firstID }.count == 2, "\(slow)")
            #expect(slow.contains { notification($0) == firstID && $0["status"] as? Int == 201 }, "the slow channel took the first assignment on the retry")
            #expect(Set(slow.map(notification)) == Set(later.map(notification)))
            second.send(SIGTERM)
            #expect(try await second.waitForExit().status == 0, "stderr:\n\(second.stderr.suffix(2000))")
        }
    }

    /// Deliveries queued on one instance wake the delivery loop of another at once, not at its
    /// next poll (ten minutes here): the outbox's trigger rings every instance when the
    /// transaction commits.
    @Test(.needsVerifiers)
    func queuedDeliveriesWakeTheLoopOfEveryInstance() async throws {
        let receiver = try Receiver.started()
        defer { receiver.stop() }
        try await UsersOverHTTPTests.withServers(count: 2) { servers in
            let (a, b) = (servers[0], servers[1])
            let ann = try await HouseholdsOverHTTPTests.person(a, "Ann")
            let ben = try await HouseholdsOverHTTPTests.person(a, "Ben")
            let home = try await HouseholdsOverHTTPTests.createHousehold(a, ann)
            try await HouseholdsOverHTTPTests.add(a, ann, home, ben, "MEMBER")
            try await Self.addNtfy(a, ben, receiver, topic: "ben")
            let loop = Task { try await DeliveryLoop(delivery: b.services.delivery, pollInterval: .seconds(600)).run() }
            defer { loop.cancel() }
            // B's loop made its first round and waits.
            #expect(try await eventually { b.services.delivery.queued.isAwaited })
            _ = try await a.data("mutation($h: UUID!, $i: TaskInput!) { createTask(householdId: $h, input: $i) { id } }",
                                 ["h": home, "i": ["title": "Bins out", "assigneeId": ben.id]], token: ann.token)
            let received = try await receiver.received(atLeast: 1)
            #expect(received.map { ($0["headers"] as? [String: String])?["title"] } == ["Bins out"], "\(received)")
            loop.cancel()
            _ = await loop.result
        }
    }

    /// When the next pending delivery is due, if any.
    static func nextDue(_ database: Database) async throws -> Date? {
        let rows = try await database.client.query("SELECT min(due_at) FROM deliveries WHERE state = 'PENDING'", logger: database.logger)
        for try await due in rows.decode(Date?.self) { return due }
        return nil
    }

    /// Household events notify the people they concern: a member added, promoted or removed by
    /// someone else, an item assigned to someone else; a reminder is marked done when its item is.
    @Test func householdEventsNotifyThePeopleTheyConcern() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let ben = try await HouseholdsOverHTTPTests.person(server, "Ben")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann)
            try await HouseholdsOverHTTPTests.add(server, ann, home, ben, "MEMBER")
            _ = try await server.data("mutation($h: UUID!, $u: UUID!) { changeMemberRole(householdId: $h, userId: $u, role: ADMIN) { role } }",
                                      ["h": home, "u": ben.id], token: ann.token)
            func notes(_ person: HouseholdsOverHTTPTests.Person, _ kind: String) async throws -> [[String: Any]] {
                let data = try await server.data("query($k: [NotificationKind!]) { notifications(kinds: $k) { edges { node { kind title body taskId state } } } }",
                                                 ["k": [kind]], token: person.token)
                return ((data["notifications"] as? [String: Any])?["edges"] as? [[String: Any]] ?? []).compactMap { $0["node"] as? [String: Any] }
            }
            // (Written at the same instant of the test's clock: compared as a set.)
            #expect(Set(try await notes(ben, "MEMBERSHIP").compactMap { $0["body"] as? String })
                    == ["Your role here is now admin.", "You were added to this household as member."])
            #expect(try await notes(ann, "MEMBERSHIP").isEmpty, "the one who acted is not told")

            // Assigned by someone else: told; to oneself: not.
            let create = "mutation($h: UUID!, $i: TaskInput!) { createTask(householdId: $h, input: $i) { id } }"
            let assigned = try #require((try await server.data(create, ["h": home, "i": ["title": "Fix the gate", "assigneeId": ann.id]], token: ben.token)["createTask"]
                                         as? [String: Any])?["id"] as? String)
            _ = try await server.data(create, ["h": home, "i": ["title": "My own", "assigneeId": ben.id]], token: ben.token)
            let annAssigned = try await notes(ann, "TASK_ASSIGNED")
            #expect(annAssigned.count == 1 && annAssigned.first?["taskId"] as? String == assigned && annAssigned.first?["title"] as? String == "Fix the gate")
            #expect(try await notes(ben, "TASK_ASSIGNED").isEmpty)

            // A reminder is done once its item is completed.
            let due = DateTimeScalar.string(from: server.clock.now.addingTimeInterval(60))
            let task = try #require((try await server.data(create, ["h": home, "i": ["title": "Call the vet", "deadline": due]], token: ann.token)["createTask"]
                                     as? [String: Any])?["id"] as? String)
            server.clock.advance(by: 61)
            #expect(try await TaskReminderLoop(tasks: server.services.tasks).runRound() == 1)
            #expect(try await notes(ann, "REMINDER").first?["state"] as? String == "ACTIVE")
            _ = try await server.data("mutation($id: UUID!) { completeTask(id: $id) { id } }", ["id": task], token: ann.token)
            #expect(try await notes(ann, "REMINDER").map { $0["state"] as? String } == ["DONE"])

            _ = try await server.data("mutation($h: UUID!, $u: UUID!) { removeMember(householdId: $h, userId: $u) }", ["h": home, "u": ben.id], token: ann.token)
            #expect(try await notes(ben, "MEMBERSHIP").first?["body"] as? String == "You were removed from this household.")
        }
    }

    /// A channel whose every attempt failed for a day is switched off, says why, and its owner
    /// hears of it on their other channels; the health report shows the queue.
    @Test(.needsVerifiers)
    func aChannelFailingForADayIsSwitchedOff() async throws {
        let receiver = try Receiver.started()
        defer { receiver.stop() }
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann)
            try await Self.addNtfy(server, ann, receiver, topic: "ok")
            try await Self.addNtfy(server, ann, receiver, topic: "broken")
            try await receiver.configure(["broken": ["statuses": Array(repeating: 503, count: 100)]])
            func remind(_ title: String) async throws {
                try await Self.fireReminder(server, ann, home, title: title)
                _ = try await DeliveryLoop(delivery: server.services.delivery).runRound()
            }
            try await remind("First")
            let health = await server.services.delivery.performHealthCheck()
            #expect(health.isHealthy && health.details["queueDepth"] == .int(1) && health.details["failuresLastHour"] == .int(1), "\(health.details)")
            server.clock.advance(by: 25 * 3600)
            try await remind("Second")
            let channels = try #require(try await server.data("{ channels { name enabled disabledReason } }", token: ann.token)["channels"] as? [[String: Any]])
            let broken = try #require(channels.first { ($0["name"] as? String)?.hasSuffix("/broken") == true })
            #expect(broken["enabled"] as? Bool == false && (broken["disabledReason"] as? String)?.contains("failed for a day") == true, "\(broken)")
            #expect(channels.first { ($0["name"] as? String)?.hasSuffix("/ok") == true }?["enabled"] as? Bool == true)
            let all = try await receiver.received()
            let told = all.filter { $0["name"] as? String == "ok" && ($0["body"] as? String)?.contains("failed for a day") == true }
            #expect(told.count == 1, "\(all.map { $0["body"] ?? "" })")
        }
    }

    /// Quiet hours (in the person's time zone) hold back a NORMAL notification until they end and
    /// let a HIGH one through; switching reminders off means no reminder at all.
    @Test(.needsVerifiers)
    func quietHoursHoldBackAllButHighAndRemindersCanBeSwitchedOff() async throws {
        let receiver = try Receiver.started()
        defer { receiver.stop() }
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann)
            try await Self.addNtfy(server, ann, receiver, topic: "ann")
            // Quiet from an hour ago to two hours ahead, in Ann's zone.
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "Asia/Tokyo") ?? .gmt
            func clockTime(_ date: Date) -> String {
                let parts = calendar.dateComponents([.hour, .minute], from: date)
                return Preferences.QuietHours.text((parts.hour ?? 0) * 60 + (parts.minute ?? 0))
            }
            let from = clockTime(server.clock.now.addingTimeInterval(-3600)), to = clockTime(server.clock.now.addingTimeInterval(2 * 3600))
            let set = try await server.data("""
                mutation($q: QuietHoursInput) { updatePreferences(input: {timeZone: "Asia/Tokyo", quietHours: $q}) { quietHours { from to } notifications { reminders } } }
                """, ["q": ["from": from, "to": to]], token: ann.token)
            let preferences = try #require(set["updatePreferences"] as? [String: Any])
            #expect((preferences["quietHours"] as? [String: Any])?["from"] as? String == from && (preferences["notifications"] as? [String: Any])?["reminders"] as? Bool == true)
            let bad = try await server.error("mutation { updatePreferences(input: {quietHours: {from: \"25:00\", to: \"07:00\"}}) { theme } }", token: ann.token)
            #expect(bad.code == "BAD_USER_INPUT" && bad.extensions["field"] as? String == "input.quietHours", "\(bad)")

            let create = "mutation($h: UUID!, $i: TaskInput!) { createTask(householdId: $h, input: $i) { id } }"
            let due = DateTimeScalar.string(from: server.clock.now.addingTimeInterval(60))
            _ = try await server.data(create, ["h": home, "i": ["title": "Urgent", "priority": "HIGH", "deadline": due]], token: ann.token)
            _ = try await server.data(create, ["h": home, "i": ["title": "Whenever", "deadline": due]], token: ann.token)
            server.clock.advance(by: 61)
            #expect(try await TaskReminderLoop(tasks: server.services.tasks).runRound() == 2)
            #expect(try await DeliveryLoop(delivery: server.services.delivery).runRound() == 1)
            #expect(try await receiver.received().compactMap { ($0["headers"] as? [String: String])?["title"] } == ["Urgent"])
            // When the quiet hours end, the other one leaves.
            let held = try #require(try await Self.nextDue(server.database))
            #expect(clockTime(held) == to, "\(held)")
            server.clock.advance(by: held.timeIntervalSince(server.clock.now) + 1)
            #expect(try await DeliveryLoop(delivery: server.services.delivery).runRound() == 1)
            #expect(try await receiver.received().compactMap { ($0["headers"] as? [String: String])?["title"] } == ["Urgent", "Whenever"])

            // Reminders off: none written, none sent.
            _ = try await server.data("mutation { updatePreferences(input: {notifications: {reminders: false}, quietHours: null}) { theme } }", token: ann.token)
            _ = try await server.data(create, ["h": home, "i": ["title": "Silent", "deadline": DateTimeScalar.string(from: server.clock.now.addingTimeInterval(60))]],
                                      token: ann.token)
            server.clock.advance(by: 61)
            _ = try await TaskReminderLoop(tasks: server.services.tasks).runRound()
            let reminders = try await server.data("{ notifications(kinds: [REMINDER]) { totalCount } }", token: ann.token)
            #expect((reminders["notifications"] as? [String: Any])?["totalCount"] as? Int == 2)
        }
    }

    /// A receiver that never answers holds one request, not the others: another channel's message
    /// arrives while that request still hangs.
    @Test(.needsVerifiers)
    func aReceiverThatNeverAnswersDoesNotHoldUpTheOthers() async throws {
        let receiver = try Receiver.started()
        defer { receiver.stop() }
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann)
            for topic in ["stuck", "fine"] {
                try await Self.addNtfy(server, ann, receiver, topic: topic)
            }
            try await receiver.configure(["stuck": ["statuses": ["hang"]]])
            try await Self.fireReminder(server, ann, home, title: "Feed the cat")
            let round = Task { try await DeliveryLoop(delivery: server.services.delivery).runRound() }
            // The fine channel's message arrives…
            #expect(try await eventually { try await receiver.received().contains { $0["name"] as? String == "fine" } })
            // …while the stuck one is still in flight (claimed, not settled).
            let rows = try await server.database.client.query("""
                SELECT count(*) FROM deliveries d JOIN delivery_channels c ON c.id = d.channel_id
                WHERE c.name LIKE '%/stuck' AND d.state = 'PENDING' AND d.lease_owner IS NOT NULL
                """, logger: server.database.logger)
            var inFlight = 0
            for try await count in rows.decode(Int.self) { inFlight = count }
            #expect(inFlight == 1)
            #expect(try await round.value == 2)
            let channels = try #require(try await server.data("{ channels { name lastFailure } }", token: ann.token)["channels"] as? [[String: Any]])
            #expect((channels.first { ($0["name"] as? String)?.hasSuffix("/stuck") == true }?["lastFailure"] as? String)?.contains("did not answer") == true,
                    "\(channels)")
        }
    }

    /// A Web Push endpoint that hangs holds its own deliveries only: with it holding as many requests
    /// as one channel may have in flight (on the same host as everyone else's channels, as a push
    /// service is), another person's reminder queued afterwards arrives while the round is still
    /// waiting on the hung sends: before any of them ends (the receiver holds each 30 s, Hearth
    /// would wait 40) and so before the person's own queued sends go out.
    @Test(.needsVerifiers)
    func aHangingEndpointDoesNotDelayAnotherPersonsDelivery() async throws {
        let receiver = try Receiver.started()
        defer { receiver.stop() }
        var delivery = HearthRuntime.testDelivery
        delivery.requestTimeout = .seconds(40)
        try await UsersOverHTTPTests.withServer(delivery: delivery) { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let bob = try await HouseholdsOverHTTPTests.person(server, "Bob")
            let annsHome = try await HouseholdsOverHTTPTests.createHousehold(server, ann)
            let bobsHome = try await HouseholdsOverHTTPTests.createHousehold(server, bob, name: "Bob's")
            let browser = P256.KeyAgreement.PrivateKey()
            let auth = Data.random(count: 16)
            try await receiver.configure(["stuck": ["privateKey": browser.rawRepresentation.base64URLEncodedString, "auth": auth.base64URLEncodedString,
                                                    "subject": "mailto:tests@hearth.example", "statuses": Array(repeating: "hang", count: 12)]])
            _ = try await server.data("mutation($i: PushSubscriptionInput!) { registerPushSubscription(input: $i) { id } }",
                                      ["i": ["endpoint": receiver.url("/push/stuck"),
                                             "keys": ["p256dh": browser.publicKey.x963Representation.base64URLEncodedString, "auth": auth.base64URLEncodedString]]],
                                      token: ann.token)
            try await Self.addNtfy(server, bob, receiver, topic: "bob")
            for index in 0..<10 { try await Self.fireReminder(server, ann, annsHome, title: "Chore \(index)") }
            let perChannel = 8
            let round = Task { try await server.services.delivery.deliverDue(perChannel: perChannel) }
            defer { round.cancel() }
            // The event: the hanging receiver holds as many of Ann's requests as one channel may have in
            // flight (her other two wait for them), half of all the sends a round makes at once.
            let held = try await receiver.received(atLeast: perChannel)
            #expect(held.count == perChannel && held.allSatisfy { $0["name"] as? String == "stuck" && $0["kind"] as? String == "push" },
                    "\(held.map { $0["name"] ?? "?" })")

            try await Self.fireReminder(server, bob, bobsHome, title: "Bob's turn")
            // The next request to arrive is Bob's: Ann's two others still wait for a hung send to end.
            let arrived = try await receiver.received(atLeast: perChannel + 1)
            #expect(arrived.count == perChannel + 1 && arrived.last?["name"] as? String == "bob",
                    "Bob's reminder waited behind Ann's hanging endpoint: \(arrived.map { $0["name"] ?? "?" })")
        }
    }
}
