import Foundation
import HearthTestSupport
import PostgresNIO
import Synchronization
import Testing

@testable import HearthCore

/// The event bus against a real PostgreSQL: two buses on one database stand for two instances.
@Suite struct EventBusTests {
    struct Greeting: Codable, Sendable, Equatable {
        var text: String
    }

    /// Runs `body` with two pools on one fresh database, each bus listening.
    static func withTwoBuses(_ body: @escaping @Sendable (Database, Database, EmbeddedPostgresEndpoint) async throws -> Void) async throws {
        let endpoint = try await TestPostgres.shared.createDatabase(migrated: false)
        let first = Database(configuration: .embedded(endpoint, poolSize: 3), logger: TestPostgres.logger)
        let second = Database(configuration: .embedded(endpoint, poolSize: 3), logger: TestPostgres.logger)
        try await first.whileRunning { first in
            try await second.whileRunning { second in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { await first.bus.run() }
                    group.addTask { await second.bus.run() }
                    defer { group.cancelAll() }
                    #expect(try await eventually { first.bus.isListening && second.bus.isListening })
                    try await body(first, second, endpoint)
                }
            }
        }
    }


    @Test func messagesReachTheOtherInstanceInOrderButNotTheSender() async throws {
        try await Self.withTwoBuses { first, second, _ in
            let heardByFirst = Mutex<[Greeting]>([])
            let heardBySecond = Mutex<[Greeting]>([])
            first.bus.on("greetings") { message in
                if let greeting = message.decode(Greeting.self) { heardByFirst.withLock { $0.append(greeting) } }
            }
            second.bus.on("greetings") { message in
                if let greeting = message.decode(Greeting.self) { heardBySecond.withLock { $0.append(greeting) } }
            }
            second.bus.on("other") { _ in heardBySecond.withLock { $0.append(Greeting(text: "wrong topic")) } }
            let sent = (1...20).map { Greeting(text: "hello \($0) — ünïcode \"quoted\"") }
            for greeting in sent { await first.bus.publish("greetings", greeting) }
            let arrived1 = try await eventually { heardBySecond.withLock { $0.count } == sent.count }
            #expect(arrived1)
            #expect(heardBySecond.withLock { $0 } == sent)
            // The sender applied its own change already: its listener skips its own messages.
            await second.bus.publish("greetings", Greeting(text: "from second"))
            let arrived2 = try await eventually { heardByFirst.withLock { $0 } == [Greeting(text: "from second")] }
            #expect(arrived2)
            #expect(heardBySecond.withLock { $0.count } == sent.count)
            let health = await second.bus.performHealthCheck()
            #expect(health.isHealthy && health.details["received"] == .int(20) && health.details["published"] == .int(1), "\(health.details)")
        }
    }

    @Test func aMessageTooLargeForNotifyIsNotSentAndTheBusGoesOn() async throws {
        try await Self.withTwoBuses { first, second, _ in
            let heard = Mutex<[String]>([])
            second.bus.on("greetings") { message in
                if let greeting = message.decode(Greeting.self) { heard.withLock { $0.append(greeting.text) } }
            }
            await first.bus.publish("greetings", Greeting(text: String(repeating: "x", count: 8_000)))
            await first.bus.publish("greetings", Greeting(text: "small"))
            let arrived3 = try await eventually { heard.withLock { $0 } == ["small"] }
            #expect(arrived3)
        }
    }

    /// Notifications are not replayed: a listener that lost its connection reconnects and runs
    /// its connect handlers again (caches flush), then hears new messages.
    @Test func aListenerThatLosesItsConnectionReconnectsAndFlushes() async throws {
        try await Self.withTwoBuses { first, second, endpoint in
            let connects = Mutex(0)
            let heard = Mutex<[String]>([])
            second.bus.onConnect { connects.withLock { $0 += 1 } }
            second.bus.on("greetings") { message in
                if let greeting = message.decode(Greeting.self) { heard.withLock { $0.append(greeting.text) } }
            }
            let killed = try await TestPostgres.withAdminConnection(endpoint) { connection in
                let rows = try await connection.query(
                    """
                    SELECT count(pg_terminate_backend(pid))::int FROM pg_stat_activity
                    WHERE datname = \(endpoint.database) AND query LIKE 'LISTEN%'
                    """, logger: TestPostgres.logger)
                var count = 0
                for try await value in rows.decode(Int.self) { count = value }
                return count
            }
            #expect(killed == 2, "both listeners were cut off")
            let arrived4 = try await eventually { connects.withLock { $0 } >= 1 && second.bus.isListening }
            #expect(arrived4)
            #expect(try await eventually {
                await first.bus.publish("greetings", Greeting(text: "after"))
                return heard.withLock { $0.contains("after") }
            })
            #expect(await second.bus.performHealthCheck().details["connections"] == .int(2))
        }
    }

    /// A sync's changes cross as notices: events by range, many members' notifications spread
    /// over several messages, each within PostgreSQL's 8000-byte NOTIFY limit.
    @Test func aLargeHouseholdsNotificationsSpreadOverSeveralNotices() throws {
        let household = UUID()
        let store = UUID()
        let notifications = (0..<400).map { _ in
            HouseholdNotification(id: UUID(), userID: UUID(), householdID: household, storeID: store, title: "Alpha", body: "1 price drop",
                                  priority: .low, counts: [.priceDropped: 1], createdAt: Date(), readAt: nil)
        }
        let notices = StoreChangeNotice.notices(for: StoreChangeBatch(householdID: household, storeID: store, eventIDs: [7, 3, 9],
                                                                       notifications: notifications))
        #expect(notices.map(\.notifications.count) == [150, 150, 100])
        #expect(Set(notices.flatMap(\.notifications)) == Set(notifications.map(\.id)))
        #expect(notices.map(\.firstEvent) == [3, nil, nil] && notices.map(\.lastEvent) == [9, nil, nil])
        for notice in notices {
            let payload = try EventBusMessage.encode(topic: StoreChangeNotice.topic, origin: UUID(), body: notice)
            #expect(payload.utf8.count <= EventBus.maximumPayload)
            #expect(EventBusMessage(payload: payload)?.decode(StoreChangeNotice.self) == notice)
        }
        let quiet = StoreChangeNotice.notices(for: StoreChangeBatch(householdID: household, storeID: store, eventIDs: [5], notifications: []))
        #expect(quiet == [StoreChangeNotice(household: household, store: store, firstEvent: 5, lastEvent: 5, notifications: [])])
    }
}
