import Foundation
import Logging

/// `pg_dump` of Hearth's database with the client programs of the PostgreSQL installation it uses
/// (custom format: compressed, restorable table by table). The dump is one consistent snapshot
/// (a repeatable-read transaction): writers go on while it runs.
public struct DatabaseDump: Sendable {
    /// The directory holding `pg_dump` and `pg_restore`.
    public var binaries: PostgresBinaries
    /// How the programs reach the database (``DatabaseConfiguration/libpqEnvironment``).
    public var environment: [String: String]

    public init(binaries: PostgresBinaries, environment: [String: String]) {
        self.binaries = binaries
        self.environment = environment
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

    /// Loads a dump into the (empty) database, all or nothing: one transaction, stopping at the first error.
    public func restore(from path: String, logger: Logger) async throws {
        try await run(binaries.directory + "/pg_restore", [
            "--single-transaction", "--exit-on-error", "--no-owner", "--no-privileges", "--dbname=\(environment["PGDATABASE"] ?? "")", path,
        ], logger: logger)
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
