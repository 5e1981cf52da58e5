import ArgumentParser
import Foundation
import HearthCore

/// `hearth migrate`: apply pending migrations and exit.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply pending database migrations, then exit.",
        discussion: "Safe to run from several machines at once: an advisory lock makes each migration apply once.")

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let options = try database.resolve()
        let logger = Bootstrap.logging(level: options.logLevel)
        try await reportingFailures {
            let migrations = try Migration.load(from: options.migrationsDirectory)
            let setup = try await DatabaseSetup.start(options, logger: logger)
            let applied = try await setup.run { configuration in
                try await Database(configuration: configuration, logger: logger).whileRunning { database in
                    try await Migrator(migrations: migrations, logger: logger).migrate(database.client)
                }
            }
            let summary = applied.isEmpty
                ? "database is current (\(migrations.count) migrations)"
                : "applied \(applied.count) migration(s): \(applied.map(String.init).joined(separator: ", "))"
            FileHandle.standardOutput.write(Data("hearth: \(summary)\n".utf8))
        }
    }
}
