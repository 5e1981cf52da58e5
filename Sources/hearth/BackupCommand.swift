import ArgumentParser
import Foundation
import HearthCore
import HearthPostgres
import HearthServer

/// `hearth backup`: a backup of Hearth's database (encrypted with the installation's backup key),
/// the key as recovery text (the emergency kit), and checking or listing backup files.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Back up Hearth's database, print the backup key, or verify and list backups.",
        discussion: """
            `hearth backup [--to FILE]` makes one consistent backup while Hearth serves (with the embedded database it \
            uses the running cluster, or starts it briefly). Backups are encrypted with the backup key: keep the line \
            `hearth backup key` prints somewhere safe, off this machine: without it no backup can be restored.
            """,
        subcommands: [Make.self, Key.self, Verify.self, List.self],
        defaultSubcommand: Make.self)

    struct Make: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "make", abstract: "Make a backup (the default).")

        @Option(name: .customLong("to"), help: "The backup file to write (default: hearth-<UTC time>.backup here). An existing file is refused.")
        var to: String?

        @Flag(name: .customLong("no-encrypt"), help: "Write the backup unencrypted (for backups encrypted elsewhere).")
        var noEncrypt = false

        @OptionGroup var keys: BackupKeyOptions
        @OptionGroup var secret: SecretKeyOptions
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let options = try database.resolve()
            let logger = Bootstrap.logging(level: options.logLevel)
            try await reportingFailures {
                let path = to ?? "hearth-\(ScheduledBackups.stamp(Date())).backup"
                guard !FileManager.default.fileExists(atPath: path) else {
                    throw ValidationError("\(path) exists already: give another --to (a backup never replaces a file).")
                }
                let binaries = try PostgresBinaries.locate(PostgresBinarySearch(explicitDirectory: options.pgBinDirectory))
                let setup = try await DatabaseSetup.start(options, logger: logger)
                let manifest = try await setup.run { configuration in
                    let key = noEncrypt ? nil : try keys.key(.init(), embeddedDataDirectory: setup.embedded?.configuration.absoluteDataDirectory, secret: secret)
                    let workRoot = BackupWorkspace.root(embeddedDataDirectory: setup.embedded?.configuration.absoluteDataDirectory)
                    BackupWorkspace.removeLeftovers(in: workRoot, logger: logger)
                    return try await Database(configuration: configuration, logger: logger).whileRunning { database in
                        try await Backup.make(database, dump: DatabaseDump(binaries: binaries, environment: configuration.libpqEnvironment, workRoot: workRoot),
                                              key: key, to: path, hearthVersion: HearthVersion.current, logger: logger)
                    }
                }
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                UserCommand.print("hearth: backup written to \(path) (\(size) bytes; \(BackupCommand.summary(manifest)))")
            }
        }
    }

    struct Key: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the backup key as one line of recovery text (made on first use).",
            discussion: "The last line of the output is the key. It also carries the server's secret key, so channel secrets survive a restore onto a new machine.")

        @OptionGroup var keys: BackupKeyOptions
        @OptionGroup var secret: SecretKeyOptions
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let options = try database.resolve()
            try await reportingFailures {
                let key = try keys.key(.init(), embeddedDataDirectory: BackupKeyOptions.dataDirectory(options), secret: secret)
                UserCommand.print("""
                    The emergency kit: Hearth's backup key (id \(key.identifier)). Keep this line off this machine (printed, \
                    or in a password manager); restoring any backup needs it:
                    \(key.recoveryText)
                    """)
            }
        }
    }

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Read a whole backup and check it (key, every part, checksum); changes nothing.")

        @Argument(help: "The backup file.") var file: String
        @OptionGroup var reading: BackupReadingOptions

        func run() async throws {
            try await reportingFailures {
                let key = try reading.key()
                let manifest = try BackupArchive.verify(file, key: key, allowUnencrypted: reading.allowUnencrypted)
                UserCommand.print("hearth: \(file) is a whole backup (\(BackupCommand.summary(manifest)))")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the backups in a directory: what each holds, and whether it verifies.")

        @Argument(help: "The directory.") var directory: String
        @OptionGroup var reading: BackupReadingOptions

        func run() async throws {
            try await reportingFailures {
                let key = try reading.key()
                let names: [String]
                do {
                    names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
                } catch {
                    throw ValidationError("\(directory) cannot be read: \(error.localizedDescription)")
                }
                var found = 0
                for name in names where !name.hasSuffix(".partial") {
                    let path = (directory as NSString).appendingPathComponent(name)
                    guard let manifest = try? BackupArchive.manifest(of: path) else { continue }
                    found += 1
                    let verdict: String
                    do {
                        try BackupArchive.verify(path, key: key, allowUnencrypted: reading.allowUnencrypted)
                        verdict = "verified"
                    } catch {
                        verdict = "NOT verified: \(error)"
                    }
                    let kind = name.hasPrefix(Restore.safetyBackupPrefix) ? " (the safety backup of what a restore replaced; never pruned)" : ""
                    UserCommand.print("\(name)\(kind): \(BackupCommand.summary(manifest)); \(verdict)")
                }
                if found == 0 { UserCommand.print("hearth: no backups in \(directory)") }
            }
        }
    }

    /// What a manifest says, in one line.
    static func summary(_ manifest: BackupManifest) -> String {
        let when = ISO8601DateFormatter().string(from: manifest.createdAt)
        return "made \(when) by Hearth \(manifest.hearthVersion) at migration \(manifest.migration); \(manifest.households) households, "
            + "\(manifest.people) people, \(manifest.tasks) tasks, \(manifest.products) products; "
            + (manifest.keyIdentifier.map { "encrypted with key \($0)" } ?? "not encrypted")
    }
}

/// The key for reading backups (verify, list, restore): `--key-file`, `HEARTH_BACKUP_KEY`, or the
/// data directory's `backup.key`; none for unencrypted backups.
struct BackupReadingOptions: ParsableArguments {
    @Option(name: .customLong("key-file"),
            help: "A file holding the backup key's recovery text (env HEARTH_BACKUP_KEY holds the text itself; default: the data directory's backup.key).")
    var keyFile: String?

    @Flag(name: .customLong("allow-unencrypted"),
          help: "Take an unencrypted backup although a backup key is configured (one made with --no-encrypt); otherwise it is refused.")
    var allowUnencrypted = false

    @OptionGroup var database: DatabaseOptions

    func key() throws -> BackupKey? {
        try BackupKeyOptions.existingKey(file: keyFile, .init(), dataDirectory: BackupKeyOptions.dataDirectory(try database.resolve()))
    }
}

/// The installation's backup key: `--backup-key-file` (made there on first use), `HEARTH_BACKUP_KEY`
/// (the recovery text itself), or with the embedded database `<data-dir>/backup.key`, made once
/// (mode 0600). A new key carries the server's secret key (the command's ``SecretKeyOptions``).
struct BackupKeyOptions: ParsableArguments {
    @Option(name: .customLong("backup-key-file"),
            help: "A file holding the backup key's recovery text, made there on first use (env HEARTH_BACKUP_KEY holds the text itself). With the embedded database and neither, <data-dir>/backup.key.")
    var backupKeyFile: String?

    func key(_ env: EnvironmentValue, embeddedDataDirectory: String?, secret: SecretKeyOptions) throws -> BackupKey {
        if backupKeyFile == nil, let text = env.string(nil, "HEARTH_BACKUP_KEY") { return try Self.parse(text, from: "HEARTH_BACKUP_KEY") }
        let path: String
        if let file = backupKeyFile {
            path = file
        } else if let directory = embeddedDataDirectory {
            path = KeyFile.path("backup.key", in: directory)
        } else {
            throw ValidationError("""
                An external database needs a backup key: give --backup-key-file (made there on first use) or HEARTH_BACKUP_KEY \
                (the text `hearth backup key --backup-key-file …` prints); `hearth backup` also takes --no-encrypt.
                """)
        }
        let text = try KeyFile.readOrCreate(path, else: "The backup key file \(path) cannot be written; give --backup-key-file.") {
            let secretText = try secret.text(env, embeddedDataDirectory: embeddedDataDirectory).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let secretKey = Data(base64Encoded: secretText), secretKey.count == 32 else {
                throw ValidationError("The secret key is not 32 bytes of base64: a backup key carries it, so fix it first.")
            }
            return BackupKey.make(secretKey: secretKey).recoveryText
        }
        return try Self.parse(text, from: path)
    }

    /// A key that exists already (for reading backups): the file, the variable, or the data directory's; nil when none.
    static func existingKey(file: String?, _ env: EnvironmentValue, dataDirectory: String?) throws -> BackupKey? {
        if let file {
            guard let text = try KeyFile.read(file) else { throw ValidationError("--key-file \(file): there is no such file.") }
            return try parse(text, from: file)
        }
        if let text = env.string(nil, "HEARTH_BACKUP_KEY") { return try parse(text, from: "HEARTH_BACKUP_KEY") }
        guard let directory = dataDirectory else { return nil }
        let path = KeyFile.path("backup.key", in: directory)
        return try KeyFile.read(path).map { try parse($0, from: path) }
    }

    static func parse(_ text: String, from source: String) throws -> BackupKey {
        do {
            return try BackupKey(recoveryText: text)
        } catch {
            throw ValidationError("\(source): \(error.description)")
        }
    }

    /// The embedded data directory the options name (absolute), or nil with an external database.
    static func dataDirectory(_ options: DatabaseOptions.Resolved) -> String? {
        guard options.databaseURL == nil else { return nil }
        return EmbeddedPostgresConfiguration(dataDirectory: options.dataDirectory ?? EmbeddedPostgresConfiguration.defaultDataDirectory()).absoluteDataDirectory
    }
}
