import Foundation
import HearthPostgres
import Logging

/// `pg_dump` of Hearth's database with the client programs of the PostgreSQL installation it uses
/// (custom format: compressed, restorable table by table). The dump is one consistent snapshot
/// (a repeatable-read transaction): writers go on while it runs.
public struct DatabaseDump: Sendable {
    /// The directory holding `pg_dump` and `pg_restore`.
    public var binaries: PostgresBinaries
    /// How the programs reach the database (``DatabaseConfiguration/libpqEnvironment``).
    public var environment: [String: String]
    /// Where dumps lie while they are encrypted or loaded (``BackupWorkspace``): never where backups go.
    public var workRoot: String

    public init(binaries: PostgresBinaries, environment: [String: String], workRoot: String = BackupWorkspace.root(embeddedDataDirectory: nil)) {
        self.binaries = binaries
        self.environment = environment
        self.workRoot = workRoot
    }

    public var pgDump: String { binaries.directory + "/pg_dump" }

    /// Checks that these programs can read a server of `serverMajorVersion` (pg_dump reads its own
    /// major version and older ones only).
    public func check(serverMajorVersion: Int) throws {
        guard FileManager.default.isExecutableFile(atPath: pgDump) else {
            throw BackupError.io("\(pgDump) is missing: install PostgreSQL's client programs (Debian: postgresql-client-\(serverMajorVersion)), or give --pg-bindir.")
        }
        guard binaries.majorVersion >= serverMajorVersion else {
            throw BackupError.io("""
                pg_dump \(binaries.majorVersion) (\(binaries.directory)) cannot dump PostgreSQL \(serverMajorVersion): install \
                postgresql-client-\(serverMajorVersion) and give its directory with --pg-bindir.
                """)
        }
    }

    /// Dumps the database to `path` (custom format), reading `snapshot` when given (one another
    /// transaction exported and holds open).
    public func dump(to path: String, snapshot: String? = nil, logger: Logger) async throws {
        do {
            try await run(pgDump, ["--format=custom", "--no-owner", "--no-privileges", "--file=\(path)"]
                + (snapshot.map { ["--snapshot=\($0)"] } ?? []), logger: logger)
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
    }

    /// Loads a dump all or nothing, in one transaction that stops at the first error. With
    /// `replacing`, what the database holds is dropped in that same transaction: a load that fails
    /// leaves the previous data in place, and a load that succeeds switches to the new data at once.
    /// (pg_restore writes the dump as SQL beside it, in its private workspace; psql runs it.)
    public func restore(from path: String, replacing: Bool = false, logger: Logger) async throws {
        let script = path + ".sql"
        defer { try? FileManager.default.removeItem(atPath: script) }
        try await run(binaries.directory + "/pg_restore", ["--no-owner", "--no-privileges", "--file=\(script)", path], logger: logger)
        let clearing = replacing ? ["--command=DROP SCHEMA public CASCADE", "--command=CREATE SCHEMA public"] : []
        try await run(binaries.directory + "/psql", [
            "--no-psqlrc", "--quiet", "--set=ON_ERROR_STOP=1", "--single-transaction", "--output=/dev/null",
            "--dbname=\(environment["PGDATABASE"] ?? "")",
        ] + clearing + ["--file=\(script)"], logger: logger)
    }

    private func run(_ program: String, _ arguments: [String], logger: Logger) async throws {
        let name = (program as NSString).lastPathComponent
        let process = try ChildProcess(
            executable: program, arguments: arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { _, ours in ours },
            currentDirectory: FileManager.default.currentDirectoryPath, logger: logger)
        let status = await process.waitForExit()
        guard status == 0 else { throw BackupError.io("\(name) failed (exit status \(status)): \(process.lastOutput)") }
    }
}
