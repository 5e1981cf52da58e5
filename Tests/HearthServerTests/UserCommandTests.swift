import Foundation
import HearthCore
import HearthTestSupport
import Testing

/// `hearth user create | set-admin | reset-password | list`, run as an operator runs them,
/// against a test database; passwords come on standard input, never as arguments.
@Suite struct UserCommandTests {
    static func run(_ arguments: [String], _ endpoint: EmbeddedPostgresEndpoint, input: String? = nil) async throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        let hearth = try HearthProcess(["user"] + arguments, environment: ["DATABASE_URL": endpoint.url], input: input)
        let (status, _) = try await hearth.waitForExit()
        return (status, hearth.stdout, hearth.stderr)
    }

    @Test func createSetAdminResetAndList() async throws {
        let endpoint = try await TestPostgres.shared.createDatabase(migrated: false)
        let created = try await Self.run(["create", "--email", "Root@Example.org", "--admin"], endpoint, input: "correct horse\n")
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.contains("created root@example.org"))
        #expect(created.stdout.contains("administrator"))

        let duplicate = try await Self.run(["create", "--email", "root@example.org"], endpoint, input: "correct horse\n")
        #expect(duplicate.status == 1)
        #expect(duplicate.stderr.contains("An account with this email already exists."))
        let short = try await Self.run(["create", "--email", "kid@example.org"], endpoint, input: "short\n")
        #expect(short.status == 1 && short.stderr.contains("password must be at least 8 characters."))
        let noPassword = try await Self.run(["create", "--email", "kid@example.org"], endpoint)
        #expect(noPassword.status == 1 && noPassword.stderr.contains("no password on standard input"))

        let demoted = try await Self.run(["set-admin", "--email", "root@example.org", "--no-admin"], endpoint)
        #expect(demoted.status == 0 && demoted.stdout.contains("no longer an administrator"))
        let missing = try await Self.run(["set-admin", "--email", "ghost@example.org"], endpoint)
        #expect(missing.status == 1 && missing.stderr.contains("User not found."))

        let reset = try await Self.run(["reset-password", "--email", "root@example.org"], endpoint, input: "battery staple\n")
        #expect(reset.status == 0, "\(reset.stderr)")

        let listed = try await Self.run(["list"], endpoint)
        #expect(listed.status == 0)
        #expect(listed.stdout.split(separator: "\n").count == 1)
        #expect(listed.stdout.contains("root@example.org  Root  "))
        #expect(!listed.stdout.contains("admin\n"))

        // The new password works and the old one does not.
        let database = Database(configuration: .embedded(endpoint, poolSize: 1), logger: TestPostgres.logger)
        try await database.whileRunning { database in
            let users = HearthServices(database: database, configuration: .init(users: UsersConfiguration(bcryptCost: 4))).users
            _ = try await users.signIn(email: "root@example.org", password: "battery staple", deviceName: nil, clientAddress: nil)
            await #expect(throws: ServiceError.invalidCredentials) {
                _ = try await users.signIn(email: "root@example.org", password: "correct horse", deviceName: nil, clientAddress: nil)
            }
        }
    }
}
