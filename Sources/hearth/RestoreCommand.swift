import ArgumentParser
import Foundation
import HearthCore
import HearthPostgres
import HearthServer

/// `hearth restore FILE`: a backup back into an empty data directory or database (`--replace` for
/// one that is not, after a safety backup of it), checked whole before anything is touched, then
/// migrated forward when it is older than this Hearth.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup into an empty data directory or database.",
        discussion: """
            Stop every hearth serve using the database first. The backup is read whole and checked (its key, every part, \
            its checksum) before anything changes; a backup from a newer Hearth is refused; an older one is restored then \
            migrated. A target that holds data is refused unless --replace, which first writes a safety backup of it \
            beside FILE (safety-before-restore-<time>.backup, encrypted with the installation's backup key, never pruned), then \
            loads the backup in one transaction with the removal of what was there: a load that fails leaves it as it was. \
            With a backup key configured, an unencrypted backup is refused unless --allow-unencrypted. Devices keep their \
            queued changes and take a fresh copy on their next sync.
            """)

    @Argument(help: "The backup file.") var file: String

    @Flag(help: "Replace what the target holds (a safety backup of it is written first).") var replace = false

    @OptionGroup var reading: BackupReadingOptions

    func run() async throws {
        let options = try reading.database.resolve()
        let logger = Bootstrap.logging(level: options.logLevel)
        try await reportingFailures {
            let migrations = try Migration.load(from: options.migrationsDirectory)
            let manifest = try BackupArchive.manifest(of: file)
            let known = migrations.map(\.version).max() ?? 0
            guard manifest.migration <= known else {
                throw ValidationError("""
                    \(file) was made by a newer Hearth (\(manifest.hearthVersion), migration \(manifest.migration); this one knows up to \
                    \(known)): restore it with that version or later.
                    """)
            }
            let key = try reading.key()
            // The safety backup of what --replace replaces is encrypted with the installation's own key (else the one
            // this backup is read with, which becomes the installation's): known before anything is touched.
            let dataDirectory = BackupKeyOptions.dataDirectory(options)
            let safetyKey = try BackupKeyOptions.existingKey(file: nil, .init(), dataDirectory: dataDirectory) ?? key
            // Checked whole, and its dump taken out into a private folder, before the target is touched.
            let workspace = try BackupWorkspace.make(in: BackupWorkspace.root(embeddedDataDirectory: dataDirectory))
            defer { workspace.remove() }
            let work = workspace.path
            try BackupArchive.verify(file, key: key, allowUnencrypted: reading.allowUnencrypted, extractingTo: work + "/dump")
            logger.info("backup checked whole; restoring", metadata: ["file": "\(file)"])
            let binaries = try PostgresBinaries.locate(PostgresBinarySearch(explicitDirectory: options.pgBinDirectory))

            let setup = try await DatabaseSetup.start(options, sharing: false, logger: logger)
            if let directory = setup.embedded?.configuration.absoluteDataDirectory, let key {
                try Self.keepKeys(key, in: directory)
            }
            let applied = try await setup.run { configuration in
                try await Database(configuration: configuration, logger: logger).whileRunning { db in
                    let dump = DatabaseDump(binaries: binaries, environment: configuration.libpqEnvironment,
                                            workRoot: BackupWorkspace.root(embeddedDataDirectory: dataDirectory))
                    let holding = try await Restore.holdings(db)
                    if holding.tables > 0 {
                        guard replace else {
                            throw ValidationError("""
                                the target holds a database already (\(holding.households) households, \(holding.people) people): \
                                give --replace to replace it (a safety backup of it is written first).
                                """)
                        }
                        guard let safetyKey else {
                            throw ValidationError("""
                                the safety backup of what --replace replaces must be encrypted, and no backup key is configured: \
                                give HEARTH_BACKUP_KEY (the text hearth backup key prints), or restore an encrypted backup with its --key-file.
                                """)
                        }
                        let safety = ((file as NSString).deletingLastPathComponent.isEmpty ? "." : (file as NSString).deletingLastPathComponent)
                            + "/" + Restore.safetyBackupName(at: Date())
                        _ = try await Backup.make(db, dump: dump, key: safetyKey, to: safety, hearthVersion: HearthVersion.current, logger: logger)
                        UserCommand.print("hearth: safety backup of what was there: \(safety)")
                    }
                    // One transaction: what was there is dropped only when the whole dump loads.
                    try await dump.restore(from: work + "/dump", replacing: holding.tables > 0, logger: logger)
                    logger.info("dump loaded; settling the sync log")
                    try await Restore.settle(db, at: Date())
                    logger.info("sync log settled; migrating")
                    return try await Migrator(migrations: migrations, logger: logger).migrate(db.client)
                }
            }
            if setup.embedded == nil, key != nil {
                UserCommand.print("hearth: give the instances the secret key the backup key carries (hearth backup key prints the kit), or sealed channel secrets will not open")
            }
            UserCommand.print("hearth: restored \(file) (\(BackupCommand.summary(manifest)))"
                + (applied.isEmpty ? "" : "; then applied \(applied.count) migration(s): \(applied.map(String.init).joined(separator: ", "))"))
        }
    }

    /// Onto a new machine's data directory: the secret key the kit carries (so the channel secrets it
    /// sealed open) and the backup key itself (so the next backups use it), each only when absent.
    static func keepKeys(_ key: BackupKey, in directory: String) throws {
        for (name, text) in [("secret.key", key.secretKey.base64EncodedString()), ("backup.key", key.recoveryText)] {
            // Made only where none is (an existing key is never replaced).
            try KeyFile.create(KeyFile.path(name, in: directory), holding: text, else: "\(KeyFile.path(name, in: directory)) cannot be written.")
        }
    }
}
