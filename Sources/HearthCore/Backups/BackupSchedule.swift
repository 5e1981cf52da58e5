import Foundation

/// Scheduled backups (`hearth serve --backup-dir`): where, how often, how many are kept, and what
/// they are made with. One instance at a time makes each (a lease), whichever comes first.
public struct BackupSchedule: Sendable {
    /// The directory the backups are written to (made when missing, mode 0700).
    public var directory: String
    /// Time between backups, in seconds (a failed one is tried again sooner: after `retryAfter`).
    public var every: TimeInterval
    public var retention: BackupRetention
    /// The dump programs and how they reach the database.
    public var dump: DatabaseDump
    /// The backup key; nil writes unencrypted backups.
    public var key: BackupKey?
    /// The Hearth release the manifests name.
    public var hearthVersion: String
    /// This instance's name in the lease and in the record of each attempt.
    public var instanceID: String
    /// How often the loop looks whether a backup is due (and refreshes the metrics).
    public var pollInterval: Duration

    public init(directory: String, every: TimeInterval = 24 * 3600, retention: BackupRetention = BackupRetention(), dump: DatabaseDump,
                key: BackupKey?, hearthVersion: String, instanceID: String, pollInterval: Duration = .seconds(60)) {
        self.directory = directory
        self.every = every
        self.retention = retention
        self.dump = dump
        self.key = key
        self.hearthVersion = hearthVersion
        self.instanceID = instanceID
        self.pollInterval = pollInterval
    }

    /// After a failure, the next attempt waits this long (or `every`, when shorter).
    public var retryAfter: TimeInterval { min(every, 3600) }
    /// A backup older than `every` and this much more is overdue.
    public var grace: TimeInterval { max(3600, every / 4) }
    /// How long one instance's claim to make a backup lasts (it is let go when the backup ends).
    static let leaseDuration: TimeInterval = 6 * 3600
    /// The file name prefix of scheduled backups: only these are pruned.
    static let filePrefix = "hearth-"
    static let fileSuffix = ".backup"

    /// Whether `name` is a scheduled backup's, `hearth-YYYYMMDD-HHMMSS.backup` exactly: only those
    /// are pruned (not a safety backup, nor any other file an operator keeps there).
    public static func isScheduledName(_ name: String) -> Bool {
        guard name.hasPrefix(filePrefix), name.hasSuffix(fileSuffix) else { return false }
        let stamp = Array(name.dropFirst(filePrefix.count).dropLast(fileSuffix.count).utf8)
        guard stamp.count == 15, stamp[8] == UInt8(ascii: "-") else { return false }
        return stamp.enumerated().allSatisfy { $0.offset == 8 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0.element) }
    }
}
