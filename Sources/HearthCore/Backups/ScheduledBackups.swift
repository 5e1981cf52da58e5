import Foundation
import Logging
import Metrics
import PostgresNIO

/// Backups made on a schedule (``BackupSchedule``): when one is due, the instance that claims the
/// lease makes it into the backup directory, records the attempt, and — only once the new backup
/// is verified — deletes the ones ``BackupRetention`` no longer keeps. A failed or overdue backup
/// is a notice to the instance's administrators (at most one a day while it lasts). Every instance
/// reports the same state (`/admin/health`'s `backup`, the `hearth_backup_*` metrics): it is read
/// from the database.
public struct ScheduledBackups: ServiceHealth {
    public let schedule: BackupSchedule
    let database: Database
    let clock: any HearthClock
    let logger: Logger

    public init(schedule: BackupSchedule, database: Database, clock: any HearthClock, logger: Logger) {
        self.schedule = schedule
        self.database = database
        self.clock = clock
        self.logger = logger
    }

    /// What one round did.
    public enum Outcome: Sendable, Equatable {
        /// No backup was due.
        case notDue
        /// Another instance holds the lease (it is making one).
        case leasedElsewhere
        /// A backup was made: its file name, and the files pruned after it.
        case made(file: String, pruned: [String])
        /// The attempt failed (recorded, and the administrators told).
        case failed(String)
    }

    /// Makes a backup when one is due and this instance gets the lease; tells the administrators
    /// of an overdue backup otherwise. `retryingNow` (an instance's first round after it starts,
    /// when its settings may have been mended) tries a failed backup again without waiting.
    @discardableResult
    public func runRound(retryingNow: Bool = false) async throws -> Outcome {
        let now = clock.now
        let state = try await status()
        guard state.isDue(at: now, schedule: schedule) || (retryingNow && state.isFailing) else {
            if state.isOverdue(at: now, schedule: schedule) { try await notifyAdministrators(state.problem(at: now, schedule: schedule), at: now) }
            return .notDue
        }
        guard try await claimLease(at: now) else { return .leasedElsewhere }
        // Read again under the lease: another instance may have made it between the read above and the claim.
        let current = try await status()
        guard current.isDue(at: now, schedule: schedule) || (retryingNow && current.isFailing && current == state) else {
            try await releaseLease()
            return .notDue
        }
        let outcome = await makeBackup(at: now)
        do {
            try await releaseLease()
        } catch {
            logger.warning("the backup lease could not be let go; it runs out by itself", metadata: ["error": "\(ErrorText.oneLine(error))"])
        }
        switch outcome {
        case .made(let name, _):
            try await MaintenanceLease.release("backup-notice", holder: nil, on: database.client, logger: logger)
            logger.info("scheduled backup made", metadata: ["file": "\(name)", "directory": "\(schedule.directory)"])
        case .failed(let message):
            logger.error("scheduled backup failed", metadata: ["directory": "\(schedule.directory)", "error": "\(message)"])
            try await notifyAdministrators(try await status().problem(at: clock.now, schedule: schedule), at: clock.now)
        case .notDue, .leasedElsewhere:
            break
        }
        await refreshMetrics()
        return outcome
    }

    /// Makes, verifies and records one backup, then prunes; a failure is recorded and returned.
    private func makeBackup(at now: Date) async -> Outcome {
        let name = BackupSchedule.filePrefix + Self.stamp(now) + BackupSchedule.fileSuffix
        let path = (schedule.directory as NSString).appendingPathComponent(name)
        do {
            do {
                try Self.makeDirectory(schedule.directory)
                guard !FileManager.default.fileExists(atPath: path) else { throw BackupError.io("\(path) exists already") }
                _ = try await Backup.make(database, dump: schedule.dump, key: schedule.key, to: path, hearthVersion: schedule.hearthVersion,
                                          now: now, logger: logger)
            } catch {
                let message = Self.describe(error)
                try await record(startedAt: now, file: nil, bytes: nil, error: message)
                return .failed(message)
            }
            // Backup.make read the whole file back (key, every chunk, the dump's checksum): only now may old ones go.
            let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            try await record(startedAt: now, file: name, bytes: bytes, error: nil)
            return .made(file: name, pruned: prune(now: now, keeping: name))
        } catch {
            // The record itself could not be written: the database is away; the next round tries again.
            return .failed("the backup's record could not be written: \(ErrorText.oneLine(error))")
        }
    }

    // MARK: State

    /// The newest success and the newest failure any instance recorded.
    public struct Status: Sendable, Equatable {
        public struct Success: Sendable, Equatable {
            public var at: Date
            public var file: String
            public var bytes: Int
        }

        public struct Failure: Sendable, Equatable {
            public var at: Date
            public var error: String
        }

        public var lastSuccess: Success?
        public var lastFailure: Failure?

        /// Whether the last attempt failed (a failure after the last success).
        var isFailing: Bool {
            guard let failure = lastFailure else { return false }
            return lastSuccess.map { failure.at > $0.at } ?? true
        }

        /// When the next backup is due: at once without any; `every` after the last; sooner
        /// (`retryAfter`) after a failure.
        func nextDue(schedule: BackupSchedule) -> Date? {
            let regular = lastSuccess.map { $0.at.addingTimeInterval(schedule.every) }
            guard isFailing, let failure = lastFailure else { return regular }
            let retry = failure.at.addingTimeInterval(schedule.retryAfter)
            return regular.map { max($0, retry) } ?? retry
        }

        func isDue(at now: Date, schedule: BackupSchedule) -> Bool {
            nextDue(schedule: schedule).map { now >= $0 } ?? true
        }

        func isOverdue(at now: Date, schedule: BackupSchedule) -> Bool {
            guard let success = lastSuccess else { return isFailing }
            return now.timeIntervalSince(success.at) > schedule.every + schedule.grace
        }

        /// What is wrong, in a sentence; nil when nothing is.
        func problem(at now: Date, schedule: BackupSchedule) -> String? {
            let last = lastSuccess.map { "The last good backup is \(ScheduledBackups.age(now.timeIntervalSince($0.at))) old (\($0.file))." }
                ?? "No backup has been made yet."
            if isFailing, let failure = lastFailure {
                let why = failure.error.hasSuffix(".") ? failure.error : failure.error + "."
                return "The backup into \(schedule.directory) failed: \(why) \(last)"
            }
            if isOverdue(at: now, schedule: schedule) { return "Backups are overdue: they are due every \(ScheduledBackups.age(schedule.every)). \(last)" }
            return nil
        }
    }

    private struct RunRow: TypedRow {
        let finishedAt: Date
        let file: String?
        let bytes: Int?
        let error: String?

        init(_ row: inout RowCells) throws {
            (finishedAt, file, bytes, error) = (try row("finished_at"), try row("file"), try row("bytes"), try row("error"))
        }
    }

    /// The newest success and failure, read from the record of attempts.
    public func status() async throws -> Status {
        let rows = try await database.client.query("""
            (SELECT finished_at, file, bytes, error FROM backup_runs WHERE error IS NULL ORDER BY finished_at DESC LIMIT 1)
            UNION ALL
            (SELECT finished_at, file, bytes, error FROM backup_runs WHERE error IS NOT NULL ORDER BY finished_at DESC LIMIT 1)
            """, logger: logger).rows(as: RunRow.self)
        var status = Status()
        for row in rows {
            if let error = row.error {
                status.lastFailure = Status.Failure(at: row.finishedAt, error: error)
            } else if let file = row.file {
                status.lastSuccess = Status.Success(at: row.finishedAt, file: file, bytes: row.bytes ?? 0)
            }
        }
        return status
    }

    /// Records one attempt, and forgets attempts older than 90 days (the newest of each kind stays).
    private func record(startedAt: Date, file: String?, bytes: Int?, error: String?) async throws {
        let finished = max(clock.now, startedAt)
        try await database.client.query("""
            INSERT INTO backup_runs (instance, started_at, finished_at, file, bytes, error)
            VALUES (\(schedule.instanceID), \(startedAt), \(finished), \(file), \(bytes), \(error))
            """, logger: logger)
        try await database.client.query("""
            DELETE FROM backup_runs WHERE finished_at < \(finished.addingTimeInterval(-90 * 86_400))
              AND id NOT IN (SELECT max(id) FROM backup_runs GROUP BY error IS NULL)
            """, logger: logger)
    }

    // MARK: The lease

    private func claimLease(at now: Date) async throws -> Bool {
        try await claim("backup", for: BackupSchedule.leaseDuration, at: now)
    }

    private func claim(_ name: String, for duration: TimeInterval, at now: Date) async throws -> Bool {
        try await MaintenanceLease.claim(name, holder: schedule.instanceID, until: now.addingTimeInterval(duration), now: now,
                                         on: database.client, logger: logger)
    }

    private func releaseLease() async throws {
        try await MaintenanceLease.release("backup", holder: schedule.instanceID, on: database.client, logger: logger)
    }

    // MARK: Pruning

    /// Deletes the scheduled backups retention no longer keeps (never `newest`, nor files whose
    /// manifest cannot be read: those are not ours to judge); returns their names.
    private func prune(now: Date, keeping newest: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: schedule.directory)) ?? []
        let backups: [(backup: String, madeAt: Date)] = names.compactMap { name in
            guard BackupSchedule.isScheduledName(name),
                  let manifest = try? BackupArchive.manifest(of: (schedule.directory as NSString).appendingPathComponent(name))
            else { return nil }
            return (name, manifest.createdAt)
        }
        var pruned: [String] = []
        for name in schedule.retention.expired(backups, now: now) where name != newest {
            do {
                try FileManager.default.removeItem(atPath: (schedule.directory as NSString).appendingPathComponent(name))
                pruned.append(name)
            } catch {
                logger.warning("an old backup could not be deleted", metadata: ["file": "\(name)", "error": "\(error)"])
            }
        }
        return pruned.sorted()
    }

    // MARK: Telling the administrators

    /// Sends `problem` to every instance administrator as an INSTANCE notice (HIGH: quiet hours do
    /// not hold it), at most once a day while problems last (a success lets the next one through).
    private func notifyAdministrators(_ problem: String?, at now: Date) async throws {
        guard let problem, try await claim("backup-notice", for: 86_400, at: now) else { return }
        let sent = try await database.transaction(logger: logger) { connection in
            try await InstanceNotice.send(title: "Hearth's backup needs attention", body: problem, at: now, on: connection, logger: logger)
        }
        logger.warning("administrators told of a backup problem", metadata: ["recipients": "\(sent)", "problem": "\(problem)"])
    }

    // MARK: Health and metrics

    public var healthName: String { "backup" }

    public func performHealthCheck() async -> ServiceHealthStatus {
        let started = ContinuousClock.now
        let now = clock.now
        do {
            let state = try await status()
            var details: [String: HealthDetail] = ["directory": .text(schedule.directory), "everyHours": .number(schedule.every / 3600)]
            if let success = state.lastSuccess {
                details["lastSuccessAt"] = .time(success.at)
                details["lastSuccessAgeSeconds"] = .int(Int(now.timeIntervalSince(success.at)))
                details["lastSuccessBytes"] = .int(success.bytes)
                details["lastSuccessFile"] = .text(success.file)
            }
            if let failure = state.lastFailure {
                details["lastFailureAt"] = .time(failure.at)
                details["lastFailure"] = .text(failure.error)
            }
            if let due = state.nextDue(schedule: schedule) { details["nextDueAt"] = .time(due) }
            let problem = state.problem(at: now, schedule: schedule)
            return ServiceHealthStatus(isHealthy: problem == nil, lastChecked: Date(), errors: problem.map { [$0] } ?? [],
                                       responseTime: ContinuousClock.now - started, details: details)
        } catch {
            return ServiceHealthStatus(isHealthy: false, lastChecked: Date(), errors: ["backup state unreadable: \(ErrorText.oneLine(error))"],
                                       responseTime: ContinuousClock.now - started)
        }
    }

    /// Sets the `hearth_backup_*` gauges from the recorded state (every instance, every poll).
    func refreshMetrics() async {
        guard let state = try? await status() else { return }
        let now = clock.now
        Gauge(label: "hearth_backup_last_success_timestamp_seconds").record(state.lastSuccess?.at.timeIntervalSince1970 ?? 0)
        Gauge(label: "hearth_backup_last_success_age_seconds").record(state.lastSuccess.map { now.timeIntervalSince($0.at) } ?? -1)
        Gauge(label: "hearth_backup_last_success_bytes").record(state.lastSuccess?.bytes ?? 0)
        Gauge(label: "hearth_backup_last_failure_timestamp_seconds").record(state.lastFailure?.at.timeIntervalSince1970 ?? 0)
        Gauge(label: "hearth_backup_healthy").record(state.problem(at: now, schedule: schedule) == nil ? 1 : 0)
    }

    // MARK: Helpers

    /// Makes the backup directory (and what is missing above it, mode 0700) unless it exists, and
    /// checks that it is a directory this process may write to.
    static func makeDirectory(_ path: String) throws {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            guard mkdir(partial, 0o700) == 0 || errno == EEXIST else {
                throw BackupError.io("the backup directory \(path) cannot be made: \(String(cString: strerror(errno)))")
            }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw BackupError.io("the backup directory \(path) is not a directory")
        }
        guard access(path, W_OK) == 0 else { throw BackupError.io("the backup directory \(path) is not writable by this process") }
    }

    static func describe(_ error: any Error) -> String {
        if let failure = error as? BackupError { return failure.description }
        return ErrorText.oneLine(error)
    }

    /// "3 hours", "2 days": an age in the largest whole unit.
    static func age(_ seconds: TimeInterval) -> String {
        let (value, unit): (Int, String) = seconds >= 2 * 86_400 ? (Int(seconds / 86_400), "day")
            : seconds >= 7200 ? (Int(seconds / 3600), "hour") : (max(Int(seconds / 60), 0), "minute")
        return "\(value) \(unit)\(value == 1 ? "" : "s")"
    }

    /// The UTC time in a file name: 20261126-130000.
    public static func stamp(_ date: Date) -> String {
        date.basicFormat(in: .gmt).replacingOccurrences(of: "T", with: "-")
    }
}
