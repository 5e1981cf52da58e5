import AsyncHTTPClient
import Foundation
import HearthCore
import HearthServer
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// A reminder's Complete and Snooze without a session (issue 36): the links ride on the delivered
/// message (ntfy's `Actions` header, the JSON payload's `actionLinks`), and `POST /actions/<token>`
/// does the action once, for the person reminded, until the reminder is done, gone or a week old.
@Suite struct ActionLinksOverHTTPTests {
    typealias Server = UsersOverHTTPTests.Server
    typealias Person = HouseholdsOverHTTPTests.Person

    /// The test delivery, with a public address for the links.
    static var delivery: DeliveryConfiguration {
        var delivery = HearthRuntime.testDelivery
        delivery.publicURL = URL(string: "https://hearth.example/home")
        return delivery
    }

    /// POSTs `path`; the status and the JSON answer.
    static func post(_ server: Server, _ path: String) async throws -> (status: HTTPResponse.Status, json: [String: Any]) {
        let response = try await server.execute(uri: path, method: .post, headers: [:], body: nil)
        return (response.status, try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any] ?? [:])
    }

    /// The path of a link under the public address.
    static func path(_ link: String) throws -> String {
        let prefix = "https://hearth.example/home"
        try #require(link.hasPrefix(prefix + "/actions/"), "\(link)")
        return String(link.dropFirst(prefix.count))
    }

    /// A reminder fired for a new item of `person`'s: the item's and the notification's ids.
    static func remind(_ server: Server, _ person: Person, _ household: String, _ title: String) async throws -> (task: String, notification: String) {
        try await DeliveryOverHTTPTests.fireReminder(server, person, household, title: title)
        let data = try await server.data("{ notifications(kinds: [REMINDER], first: 1) { edges { node { id taskId } } } }", token: person.token)
        let node = try #require(((data["notifications"] as? [String: Any])?["edges"] as? [[String: Any]])?.first?["node"] as? [String: Any])
        return (try #require(node["taskId"] as? String), try #require(node["id"] as? String))
    }

    static func task(_ server: Server, _ person: Person, _ id: String) async throws -> [String: Any]? {
        try await server.data("query($t: UUID!) { task(id: $t) { completed completedBy reminderDueAt } }", ["t": id], token: person.token)["task"]
            as? [String: Any]
    }

    @Test(.needsVerifiers)
    func anNtfyButtonCompletesTheTaskOnce() async throws {
        let receiver = try DeliveryOverHTTPTests.Receiver.started()
        defer { receiver.stop() }
        try await UsersOverHTTPTests.withServer(delivery: Self.delivery) { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann)
            try await DeliveryOverHTTPTests.addNtfy(server, ann, receiver, topic: "ann")
            let hook = try #require(try await server.data("mutation($i: WebhookInput!) { addWebhook(input: $i) { secret } }",
                                                          ["i": ["url": receiver.url("/webhook/annhook")]], token: ann.token)["addWebhook"] as? [String: Any])
            try await receiver.configure(["annhook": ["secret": hook["secret"] ?? ""]])
            let (task, notification) = try await Self.remind(server, ann, home, "Water the plants")
            #expect(try await DeliveryLoop(delivery: server.services.delivery).runRound() == 2)
            let received = try await receiver.received(atLeast: 2)

            // ntfy: two buttons, each a POST to its link that clears the notification; a click opens it in the app.
            let headers = try #require(received.first { $0["kind"] as? String == "ntfy" }?["headers"] as? [String: String])
            #expect(headers["click"] == "https://hearth.example/home/notifications/\(notification)")
            let buttons = try #require(headers["actions"]).split(separator: ";").map {
                $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
            #expect(buttons.map { $0.first } == ["http", "http"] && buttons.map { $0[1] } == ["Complete", "Snooze 15 min"])
            #expect(buttons.allSatisfy { $0.count == 5 && $0[3] == "method=POST" && $0[4] == "clear=true" }, "\(buttons)")
            let (complete, snooze) = (try Self.path(buttons[0][2]), try Self.path(buttons[1][2]))

            // The JSON payload (here a signed webhook's) keeps `actions` and carries the same links.
            let payload = try #require((received.first { $0["kind"] as? String == "webhook" }?["payload"] as? [String: Any])?["data"] as? [String: Any])
            #expect(payload["actions"] as? [String] == ["COMPLETE", "SNOOZE"])
            let links = try #require(payload["actionLinks"] as? [[String: Any]])
            #expect(links.map { $0["action"] as? String } == ["COMPLETE", "SNOOZE"] && links.map { $0["title"] as? String } == ["Complete", "Snooze 15 min"])
            #expect(try links.map { try Self.path($0["url"] as? String ?? "") } == [complete, snooze])

            let first = try await Self.post(server, complete)
            #expect(first.status == .ok && first.json["action"] as? String == "COMPLETE" && first.json["taskId"] as? String == task)
            #expect(first.json["alreadyDone"] as? Bool == false)
            let done = try #require(try await Self.task(server, ann, task))
            #expect(done["completed"] as? Bool == true && done["completedBy"] as? String == ann.id, "Ann completed it, with no session")

            let again = try await Self.post(server, complete)
            #expect(again.status == .ok && again.json["alreadyDone"] as? Bool == true, "the same button twice completes once")
            #expect(again.json["performedAt"] as? String == first.json["performedAt"] as? String)
            #expect(try await Self.post(server, snooze).status == .notFound, "the reminder is done: its other link is dead")
        }
    }

    @Test func linksAreSignedAndDieWithTheirReminder() async throws {
        try await UsersOverHTTPTests.withServer(delivery: Self.delivery) { server in
            let ben = try await HouseholdsOverHTTPTests.person(server, "Ben")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ben)
            let secrets = try #require(server.services.delivery.configuration.secrets)
            let signer = ActionLinkSigner(secrets: secrets)
            func link(_ notification: String, _ action: NotificationAction) throws -> String {
                "/actions/" + signer.token(try #require(UUID(uuidString: notification)), action)
            }

            // Snooze: fires again in 15 minutes; once.
            let snoozed = try await Self.remind(server, ben, home, "Call the plumber")
            let snooze = try link(snoozed.notification, .snooze)
            let answer = try await Self.post(server, snooze)
            #expect(answer.status == .ok && answer.json["action"] as? String == "SNOOZE" && answer.json["alreadyDone"] as? Bool == false)
            let due = try #require(try await Self.task(server, ben, snoozed.task)?["reminderDueAt"] as? String)
            #expect(due == DateTimeScalar.string(from: server.clock.now.addingTimeInterval(15 * 60)))
            #expect(try await Self.post(server, snooze).json["alreadyDone"] as? Bool == true)

            // A changed character, another server's key, or no such notification: not found.
            let complete = try link(snoozed.notification, .complete)
            var tampered = Array(complete)
            tampered[12] = tampered[12] == "A" ? "B" : "A"
            #expect(try await Self.post(server, String(tampered)).status == .notFound)
            let stranger = ActionLinkSigner(secrets: try SecretBox(base64: SecretBox.makeKeyText()))
            #expect(try await Self.post(server, "/actions/" + stranger.token(try #require(UUID(uuidString: snoozed.notification)), .complete)).status == .notFound)
            #expect(try await Self.post(server, try link(UUID().uuidString, .complete)).status == .notFound)
            // Snoozed, then completed: each action once.
            #expect(try await Self.post(server, complete).json["alreadyDone"] as? Bool == false)
            #expect(try await Self.task(server, ben, snoozed.task)?["completed"] as? Bool == true)

            // Deleting the item kills its links.
            let deleted = try await Self.remind(server, ben, home, "Return the drill")
            _ = try await server.data("mutation($t: UUID!) { deleteTask(id: $t) { id } }", ["t": deleted.task], token: ben.token)
            #expect(try await Self.post(server, try link(deleted.notification, .complete)).status == .notFound)

            // A week later the links are dead; just before, they work.
            let old = try await Self.remind(server, ben, home, "Renew the permit")
            server.clock.advance(by: 7 * 86_400 + 1)
            #expect(try await Self.post(server, try link(old.notification, .complete)).status == .notFound)
            let fresh = try await Self.remind(server, ben, home, "Book the hall")
            server.clock.advance(by: 7 * 86_400 - 60)
            // Two presses at once (two instances, two devices): one completes, the other answers what it did.
            let press = try link(fresh.notification, .complete)
            async let first = Self.post(server, press)
            async let second = Self.post(server, press)
            let answers = try await [first, second]
            #expect(answers.map(\.status) == [.ok, .ok])
            #expect(answers.compactMap { $0.json["alreadyDone"] as? Bool }.sorted { !$0 && $1 } == [false, true], "\(answers.map(\.json))")
            #expect(Set(answers.compactMap { $0.json["performedAt"] as? String }).count == 1)
            #expect(try await Self.task(server, ben, fresh.task)?["completed"] as? Bool == true)
        }
    }
}
