import Foundation
import HearthCore
import HearthTestSupport
import PostgresNIO
import Testing

/// Scheduled backups against a real PostgreSQL with a ``ManualClock``: made when due and not
/// before, pruned as ``BackupRetention`` documents once the new one is verified, made by one
/// instance at a time, and a failing directory reported in the health check and to the instance's
/// administrators (once a day while it lasts).
@Suite struct ScheduledBackupsTests {
    /// Monday 2027-01-04 02:00 UTC.
    static let monday = Date(timeIntervalSince1970: 1_799_028_000)
    static let key = BackupKey.make(secretKey: Data(repeating: 9, count: 32))

    struct Fixture: Sendable {
        let database: Database
        let endpoint: EmbeddedPostgresEndpoint
        let clock: ManualClock
        let services: HearthServices
        let administrator: UUID
        let member: UUID

        func backups(into directory: String, every hours: Double = 24, keep: Int = 7, instance: String = "instance-a") throws -> ScheduledBackups {
            let binaries = try PostgresBinaries.locate(PostgresBinarySearch())
            let schedule = BackupSchedule(
                directory: directory, every: hours * 3600, retention: BackupRetention(keep: keep, weeks: 1),
                dump: DatabaseDump(binaries: binaries, environment: DatabaseConfiguration.embedded(endpoint, poolSize: 1).libpqEnvironment),
                key: ScheduledBackupsTests.key, hearthVersion: "test", instanceID: instance)
            return ScheduledBackups(schedule: schedule, database: database, clock: clock, logger: database.logger)
        }

        /// The instance notices `user` has, and how many notifications the household list shows (asked for every kind).
        func notices(of user: UUID) async throws -> (instance: [InstanceNotice], listed: Int) {
            let caller = try await services.households.caller(for: user)
            let notices = try await services.notifications.instanceNotices(caller, unreadOnly: false, page: try PageRequest(first: 50, after: nil))
            let all = try await services.notifications.list(caller, unreadOnly: false, kinds: NotificationKind.allCases, page: try PageRequest(first: 50, after: nil))
            return (notices.items.map(\.item), all.totalCount)
        }
    }

    static func withFixture(_ body: @escaping @Sendable (Fixture, String) async throws -> Void) async throws {
        try await withTestDatabase { database, endpoint in
            let clock = ManualClock(monday)
            var delivery = DeliveryConfiguration()
            delivery.allowedHosts = ["127.0.0.1"]
            let services = HearthServices(database: database, configuration: .init(users: UsersConfiguration(bcryptCost: 4), delivery: delivery, clock: clock))
            let administrator = try await services.users.signUp(email: "ada@example.org", password: "correct horse", displayName: "Ada", deviceName: nil).user.id
            let member = try await services.users.signUp(email: "ben@example.org", password: "correct horse", displayName: "Ben", deviceName: nil).user.id
            try await database.client.query("UPDATE users SET is_admin = (id = \(administrator))", logger: database.logger)
            try await withTemporaryDirectory { directory in
                try await body(Fixture(database: database, endpoint: endpoint, clock: clock, services: services, administrator: administrator,
                                       member: member), directory)
            }
        }
    }

    static func files(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    @Test func retentionKeepsTheNewestAndTheLastOfEachOfThePreviousWeeks() {
        // Daily at 02:00 for six weeks, Monday 4 January to Sunday 14 February 2027.
        let days = (0..<42).map { Self.monday.addingTimeInterval(Double($0) * 86_400) }
        let now = days[41]
        let expired = BackupRetention(keep: 7, weeks: 4).expired(days.map { ($0, $0) }, now: now)
        let kept = Set(days).subtracting(expired).map { Int($0.timeIntervalSince(Self.monday) / 86_400) }.sorted()
        // 8–14 February (the newest seven), then the Sundays 7 February, 31, 24 and 17 January.
        #expect(kept == [13, 20, 27, 34, 35, 36, 37, 38, 39, 40, 41])
        // Every six hours the newest seven are under two days; the previous weeks keep their last still.
        let often = (0..<(42 * 4)).map { Self.monday.addingTimeInterval(Double($0) * 21_600) }
        let keptOften = Set(often).subtracting(BackupRetention(keep: 7, weeks: 4).expired(often.map { ($0, $0) }, now: often.last ?? now))
        #expect(keptOften.count == 11)
        #expect(keptOften.filter { now.timeIntervalSince($0) > 6 * 86_400 }.map { Int($0.timeIntervalSince(Self.monday) / 3600) }.sorted()
            == [13 * 24 + 18, 20 * 24 + 18, 27 * 24 + 18, 34 * 24 + 18])
    }

    @Test func backupsAreMadeWhenDueAndPrunedOnceTheNewOneIsVerified() async throws {
        try await Self.withFixture { fixture, scratch in
            let directory = scratch + "/backups"
            let backups = try fixture.backups(into: directory, keep: 2)
            // The first is due at once (none was made); the directory is made, private.
            #expect(try await backups.runRound() == .made(file: "hearth-20270104-020000.backup", pruned: []))
            #expect((try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int) == 0o700)
            let manifest = try BackupArchive.verify(directory + "/hearth-20270104-020000.backup", key: Self.key)
            #expect(manifest.people == 2 && manifest.createdAt == Self.monday && manifest.keyIdentifier == Self.key.identifier)
            // Not a minute early.
            fixture.clock.advance(by: 86_400 - 60)
            #expect(try await backups.runRound() == .notDue)
            fixture.clock.advance(by: 60)
            #expect(try await backups.runRound() == .made(file: "hearth-20270105-020000.backup", pruned: []))
            // Keeping 2 (and the last of one week before): Wednesday's makes Monday's go.
            fixture.clock.advance(by: 86_400)
            #expect(try await backups.runRound() == .made(file: "hearth-20270106-020000.backup", pruned: ["hearth-20270104-020000.backup"]))
            for _ in 0..<6 {
                fixture.clock.advance(by: 86_400)
                _ = try await backups.runRound()
            }
            // Tuesday 12 January: Monday's and Tuesday's, and Sunday 10 January (the last of the week before).
            #expect(try Self.files(directory) == ["hearth-20270110-020000.backup", "hearth-20270111-020000.backup", "hearth-20270112-020000.backup"])
            let health = await backups.performHealthCheck()
            #expect(health.isHealthy && health.errors.isEmpty)
            #expect(health.details["lastSuccessFile"] == .text("hearth-20270112-020000.backup") && health.details["lastSuccessAgeSeconds"] == .int(0))
            #expect(health.details["nextDueAt"] == .time(Self.monday.addingTimeInterval(9 * 86_400)))
            // A day and a half without one (the instance was off) is overdue.
            fixture.clock.advance(by: 86_400 * 1.5)
            let overdue = await backups.performHealthCheck()
            #expect(!overdue.isHealthy && overdue.errors.first?.hasPrefix("Backups are overdue: they are due every 24 hours.") == true)
        }
    }

    /// The unencrypted dump never lies beside the backups: pg_dump (wrapped here to note where it was
    /// told to write) writes into a private workspace of its own, gone afterwards; a workspace a
    /// killed run left is removed at the next start, one in use is not; old dumps beside backups go.
    @Test func theDumpLiesInAPrivateWorkspaceNeverBesideTheBackups() async throws {
        try await Self.withFixture { fixture, scratch in
            let real = try PostgresBinaries.locate(PostgresBinarySearch())
            let wrapper = scratch + "/bin", work = scratch + "/work", log = scratch + "/dump.log", directory = scratch + "/backups"
            try FileManager.default.createDirectory(atPath: wrapper, withIntermediateDirectories: true)
            try """
                #!/bin/sh
                for argument in "$@"; do
                  case "$argument" in --file=*) file="${argument#--file=}"; echo "$file $(stat -c %a "$(dirname "$file")")" >> \(log);; esac
                done
                exec \(real.directory)/pg_dump "$@"
                """.write(toFile: wrapper + "/pg_dump", atomically: true, encoding: .utf8)
            #expect(chmod(wrapper + "/pg_dump", 0o755) == 0)
            // A run killed mid-dump left its workspace (its lock went with the process); another run holds one now.
            try FileManager.default.createDirectory(atPath: work + "/run-killed", withIntermediateDirectories: true)
            try Data("the whole database".utf8).write(to: URL(fileURLWithPath: work + "/run-killed/dump"))
            let busy = try BackupWorkspace.make(in: work)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Data("an old plaintext dump".utf8).write(to: URL(fileURLWithPath: directory + "/hearth-20260101-000000.backup.dump"))
            #expect(BackupWorkspace.removeLeftovers(in: work, logger: fixture.database.logger) == [work + "/run-killed"])
            #expect(BackupWorkspace.removeOldDumps(besideBackupsIn: directory, logger: fixture.database.logger) == [directory + "/hearth-20260101-000000.backup.dump"])
            #expect(FileManager.default.fileExists(atPath: busy.path), "a workspace in use stays")
            busy.remove()

            let schedule = BackupSchedule(
                directory: directory, every: 24 * 3600, retention: BackupRetention(keep: 7, weeks: 1),
                dump: DatabaseDump(binaries: PostgresBinaries(directory: wrapper, majorVersion: real.majorVersion),
                                   environment: DatabaseConfiguration.embedded(fixture.endpoint, poolSize: 1).libpqEnvironment, workRoot: work),
                key: Self.key, hearthVersion: "test", instanceID: "instance-a")
            let backups = ScheduledBackups(schedule: schedule, database: fixture.database, clock: fixture.clock, logger: fixture.database.logger)
            #expect(try await backups.runRound() == .made(file: "hearth-20270104-020000.backup", pruned: []))
            let written = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            #expect(written.count == 1)
            let (file, mode) = (String(written.first?.split(separator: " ").first ?? ""), String(written.first?.split(separator: " ").last ?? ""))
            #expect(file.hasPrefix(work + "/run-") && !file.hasPrefix(directory), "\(file)")
            #expect(mode == "700", "the dump's folder is private: \(mode)")
            #expect(try Self.files(directory) == ["hearth-20270104-020000.backup"])
            #expect(try Self.files(work).isEmpty, "the workspace is gone once the backup is made")
            #expect((try FileManager.default.attributesOfItem(atPath: work)[.posixPermissions] as? Int) == 0o700)
        }
    }

    @Test func oneInstanceMakesEachBackup() async throws {
        try await Self.withFixture { fixture, scratch in
            let instances = try ["a", "b", "c"].map { try fixture.backups(into: scratch + "/backups", instance: $0) }
            let outcomes = try await withThrowingTaskGroup(of: ScheduledBackups.Outcome.self) { group in
                for backups in instances { group.addTask { try await backups.runRound() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { if case .made = $0 { true } else { false } }.count == 1)
            #expect(outcomes.filter { $0 == .leasedElsewhere || $0 == .notDue }.count == 2)
            #expect(try Self.files(scratch + "/backups").count == 1)
            // The lease was let go: the next one is made by whoever comes when it is due.
            fixture.clock.advance(by: 86_400)
            #expect(try await instances[2].runRound() == .made(file: "hearth-20270105-020000.backup", pruned: []))
        }
    }

    @Test func aFailingDirectoryIsReportedAndTheAdministratorsAreTold() async throws {
        try await Self.withFixture { fixture, scratch in
            // A file where the directory should be.
            try Data("not a directory".utf8).write(to: URL(fileURLWithPath: scratch + "/file"))
            let failing = try fixture.backups(into: scratch + "/file/backups")
            let administrator = try await fixture.services.households.caller(for: fixture.administrator)
            let channel = try await fixture.services.delivery.addNtfyChannel(administrator, serverURL: "http://127.0.0.1:9", topic: "hearth-admin",
                                                                             accessToken: nil)
            guard case .failed(let message) = try await failing.runRound() else { Issue.record("the backup did not fail"); return }
            #expect(message == "the backup directory \(scratch)/file/backups cannot be made: Not a directory")
            let health = await failing.performHealthCheck()
            #expect(!health.isHealthy)
            #expect(health.errors == ["The backup into \(scratch)/file/backups failed: \(message). No backup has been made yet."])
            #expect(health.details["lastFailure"] == .text(message) && health.details["lastFailureAt"] == .time(Self.monday))
            // The administrator has one notice, through their channel too; the household list leaves it out; others get none.
            var notices = try await fixture.notices(of: fixture.administrator)
            #expect(notices.instance.map(\.title) == ["Hearth's backup needs attention"] && notices.listed == 0)
            #expect(notices.instance.first?.priority == .high && notices.instance.first?.body == health.errors.first)
            // Marked read as an instance notice; not as a household notification.
            let noticeID = try #require(notices.instance.first?.id)
            await #expect(throws: ServiceError.self) { try await fixture.services.notifications.markRead(administrator, id: noticeID) }
            #expect(try await fixture.services.notifications.markInstanceNoticeRead(administrator, id: noticeID).readAt == Self.monday)
            #expect(try await fixture.database.strings("SELECT channel_id::text FROM deliveries") == [channel.id.uuidString.lowercased()])
            #expect(try await fixture.notices(of: fixture.member).instance.isEmpty)
            // Tried again after an hour, not sooner; still failing, no second notice the same day.
            fixture.clock.advance(by: 3000)
            #expect(try await failing.runRound() == .notDue)
            fixture.clock.advance(by: 600)
            guard case .failed = try await failing.runRound() else { Issue.record("the retry did not fail"); return }
            #expect(try await fixture.notices(of: fixture.administrator).instance.count == 1)
            // Mended: the next backup is made, and health is good again (the failure stays in the details).
            let mended = try fixture.backups(into: scratch + "/backups")
            fixture.clock.advance(by: 3600)
            guard case .made = try await mended.runRound() else { Issue.record("the mended backup was not made"); return }
            let good = await mended.performHealthCheck()
            #expect(good.isHealthy && good.details["lastFailure"] == .text(message))
            // A failure after a success is told at once.
            fixture.clock.advance(by: 86_400)
            guard case .failed = try await failing.runRound() else { Issue.record("the backup did not fail"); return }
            notices = try await fixture.notices(of: fixture.administrator)
            #expect(notices.instance.count == 2 && notices.instance.first?.body.hasSuffix("The last good backup is 24 hours old (hearth-20270104-040000.backup).") == true)
        }
    }
}
