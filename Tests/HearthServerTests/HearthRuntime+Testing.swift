import Foundation
import GraphQLEngine
import HearthCore
import HearthServer
import HearthTestSupport
import Logging

extension HearthRuntime {
    /// Hearth as `hearth serve` builds it, changed only where tests must: port 0 on loopback,
    /// the given clock, bcrypt at its lowest cost, a longer request deadline, and the shops' fetch settings (whose allow-list
    /// names the fixture shop). Call `shutdown()` when done.
    static func testing(
        database: DatabaseConfiguration, clock: any HearthClock = SystemClock(), server: HearthServerConfiguration = .init(host: "127.0.0.1", port: 0),
        users: UsersConfiguration = UsersConfiguration(bcryptCost: 4), shopify: ShopifyClientConfiguration = ShopifyClientConfiguration(),
        stores: StoresConfiguration = StoresConfiguration(), executor: ExecutorConfiguration = testExecutor,
        delivery: DeliveryConfiguration = testDelivery, logger: Logger = TestPostgres.logger
    ) throws -> HearthRuntime {
        try HearthRuntime(
            configuration(server: server, users: users, shopify: shopify, stores: stores, executor: executor, delivery: delivery, clock: clock,
                          database: database),
            schema: HearthGraphQLSchema.Source.read(HearthGraphQLSchemaTests.schemaURL), facts: HearthGraphQLSchemaTests.facts,
            migrations: try Migration.load(from: TestPostgres.migrationsDirectory), metrics: TestMetrics.registry, logger: logger)
    }

    /// The same on a pool the test made itself.
    static func testing(
        on database: Database, clock: any HearthClock = SystemClock(), executor: ExecutorConfiguration = testExecutor,
        shopify: ShopifyClientConfiguration = ShopifyClientConfiguration(), stores: StoresConfiguration = StoresConfiguration(),
        delivery: DeliveryConfiguration = testDelivery, logger: Logger = TestPostgres.logger
    ) throws -> HearthRuntime {
        try HearthRuntime(
            configuration(shopify: shopify, stores: stores, executor: executor, delivery: delivery, clock: clock, database: database.configuration),
            database: database,
            schema: HearthGraphQLSchema.Source.read(HearthGraphQLSchemaTests.schemaURL), facts: HearthGraphQLSchemaTests.facts,
            migrations: try Migration.load(from: TestPostgres.migrationsDirectory), metrics: TestMetrics.registry, logger: logger)
    }

    private static func configuration(
        server: HearthServerConfiguration = .init(host: "127.0.0.1", port: 0), users: UsersConfiguration = UsersConfiguration(bcryptCost: 4),
        shopify: ShopifyClientConfiguration = ShopifyClientConfiguration(), stores: StoresConfiguration = StoresConfiguration(),
        executor: ExecutorConfiguration, delivery: DeliveryConfiguration = testDelivery, clock: any HearthClock, database: DatabaseConfiguration
    ) -> Configuration {
        Configuration(server: server, database: database,
                      services: .init(users: users, stores: stores, shopify: shopify, delivery: delivery, clock: clock),
                      executor: executor, syncsStores: false)
    }

    /// The executor as the tests run it: a request may take 100 s before it is stopped (and a
    /// statement as long), not `hearth serve`'s 30 s. Tests assert what Hearth answers, not how
    /// fast: the whole suite on two cores once held 16 sign-ins queued on one account's lock past
    /// 35 s. Tests of the deadline set their own.
    static var testExecutor: ExecutorConfiguration { ExecutorConfiguration(executionTimeout: .seconds(100)) }

    /// Delivery as the tests run it: Web Push on (a test subject), a fresh secret key, and
    /// loopback let through the private-address guard (the test receivers listen there).
    static var testDelivery: DeliveryConfiguration {
        // A key made for the test process: 32 bytes, so it always opens.
        let secrets = try? SecretBox(base64: SecretBox.makeKeyText())
        return DeliveryConfiguration(vapidSubject: "mailto:tests@hearth.example", requestTimeout: .seconds(5), allowedHosts: ["127.0.0.1"], secrets: secrets)
    }
}
