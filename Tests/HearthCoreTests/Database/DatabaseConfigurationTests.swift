import Testing

@testable import HearthCore
@testable import HearthPostgres

/// The pool's settings for each kind of database.
@Suite struct DatabaseConfigurationTests {
    /// The embedded cluster is a local socket to a process Hearth supervises: no network can drop
    /// an idle connection there, so the pool does not ping them (nor arm a timer per statement to).
    @Test func theEmbeddedClusterIsNotPingedAndAnExternalServerIs() throws {
        let endpoint = EmbeddedPostgresEndpoint(socketDirectory: "/tmp/hearth-test", port: 5432, username: "hearth", database: "hearth")
        let embedded = DatabaseConfiguration.embedded(endpoint, poolSize: 4)
        #expect(embedded.client.options.keepAliveBehavior == nil)
        #expect(embedded.client.options.maximumConnections == 4)
        let external = try DatabaseConfiguration.parse(url: "postgres://hearth@db.example:5432/hearth", poolSize: 4)
        #expect(external.client.options.keepAliveBehavior != nil)
    }
}
