import ArgumentParser
import Foundation
import HearthCore
import HearthPostgres
import HearthServer

/// `hearth serve`'s scheduled backups: a directory turns them on; how often and how many are kept.
/// They are encrypted with the backup key (``BackupKeyOptions``).
struct BackupScheduleOptions: ParsableArguments {
    @Option(name: .customLong("backup-dir"),
            help: "Make backups on a schedule into this directory, made when missing (env HEARTH_BACKUP_DIR; default: none).")
    var directory: String?

    @Option(name: .customLong("backup-every"),
            help: ArgumentHelp("Hours between scheduled backups, decimals allowed (env HEARTH_BACKUP_EVERY; default 24).", valueName: "hours"))
    var every: String?

    @Option(name: .customLong("backup-keep"),
            help: "How many of the newest scheduled backups are kept, besides one a week for 4 weeks (env HEARTH_BACKUP_KEEP; default 7).")
    var keep: Int?

    @OptionGroup var keys: BackupKeyOptions

    /// The settings but the key and the programs (checked before the database starts): nil without a directory.
    func resolve(_ env: EnvironmentValue) throws -> (directory: String, every: TimeInterval, retention: BackupRetention)? {
        let every = env.string(every, "HEARTH_BACKUP_EVERY")
        let keep = try env.integer(keep, "HEARTH_BACKUP_KEEP", range: 1...1000)
        guard let directory = env.string(directory, "HEARTH_BACKUP_DIR") else {
            if every != nil || keep != nil { throw ValidationError("--backup-every and --backup-keep need --backup-dir (HEARTH_BACKUP_DIR): where backups go.") }
            return nil
        }
        var hours = 24.0
        if let every {
            guard let value = Double(every), value.isFinite, value >= 1.0 / 60, value <= 8760 else {
                throw ValidationError("--backup-every \(every): give the hours between backups, from 0.017 (a minute) to 8760 (a year).")
            }
            hours = value
        }
        let absolute = URL(fileURLWithPath: directory).standardizedFileURL.path
        return (absolute, hours * 3600, BackupRetention(keep: keep ?? 7, weeks: 4))
    }

    /// The schedule, once the database is known: its dump programs and the backup key. What a
    /// stopped run left (a dump in the workspace, or beside the backups from an earlier Hearth) is removed.
    func schedule(_ env: EnvironmentValue, database: DatabaseConfiguration, options: DatabaseOptions.Resolved, embeddedDataDirectory: String?,
                  secret: SecretKeyOptions, instanceID: String) throws -> BackupSchedule? {
        guard let settings = try resolve(env) else { return nil }
        let binaries = try PostgresBinaries.locate(PostgresBinarySearch(explicitDirectory: options.pgBinDirectory))
        let key = try keys.key(env, embeddedDataDirectory: embeddedDataDirectory, secret: secret)
        let workRoot = BackupWorkspace.root(embeddedDataDirectory: embeddedDataDirectory)
        return BackupSchedule(directory: settings.directory, every: settings.every, retention: settings.retention,
                              dump: DatabaseDump(binaries: binaries, environment: database.libpqEnvironment, workRoot: workRoot), key: key,
                              hearthVersion: HearthVersion.current, instanceID: instanceID)
    }
}
