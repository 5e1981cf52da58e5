import Foundation
import HearthCore
import HearthTestSupport
import Hummingbird
import HummingbirdTesting
import PostgresNIO
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `hearth backup` as operators run it, beside a running `hearth serve` on the embedded cluster:
/// a backup while it serves (what it holds counted in its manifest), verified, listed; the emergency
/// kit's key on the last line; damaged and cut files refused in one line; unencrypted backups.
@Suite struct BackupCommandTests {
    /// GraphQL over the running server's HTTP.
    static func graphql(_ port: Int, _ query: String, token: String? = nil) async throws -> [String: Any] {
        let json = try await answer(port, query, token: token)
        return try #require(json["data"] as? [String: Any], "\(json)")
    }

    /// The whole JSON answer to one GraphQL request.
    static func answer(_ port: Int, _ query: String, token: String?) async throws -> [String: Any] {
        let request = try JSONSerialization.data(withJSONObject: ["query": query])
        let answer = try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            var headers: HTTPFields = [.contentType: "application/json"]
            if let token { headers[.authorization] = "Bearer \(token)" }
            return try await client.execute(TestClient.Request("/graphql", method: .post, headers: headers, body: ByteBuffer(bytes: request)))
        }
        let body = try #require(answer.body)
        return try #require(try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])
    }

    /// `hearth serve` with `env`, a person signed up and a household of theirs.
    static func serveWithHousehold(_ env: [String: String], person: String) async throws
        -> (server: HearthProcess, port: Int, token: String, household: String) {
        let server = try HearthProcess(["serve"], environment: env)
        let port = try await server.waitUntilListening()
        let signUp = try await graphql(port, #"mutation { signUp(input: {email: "\#(person)@example.org", password: "correct horse battery", displayName: "\#(person)"}) { token } }"#)
        let token = try #require((signUp["signUp"] as? [String: Any])?["token"] as? String)
        let home = try await graphql(port, #"mutation { createHousehold(input: {name: "Home", timeZone: "UTC"}) { id } }"#, token: token)
        return (server, port, token, try #require((home["createHousehold"] as? [String: Any])?["id"] as? String))
    }

    static func hearth(_ arguments: [String], _ env: [String: String]) async throws -> HearthProcess {
        let process = try HearthProcess(arguments, environment: env)
        _ = try await process.waitForExit()
        return process
    }

    @Test func aBackupWhileHearthServesIsVerifiedListedAndRefusedWhenDamaged() async throws {
        try await withTemporaryDirectory { dir throws in
            // As installed: the secret key is the data directory's own (none in the environment).
            let env = ["HEARTH_DATA_DIR": dir + "/pg", "HEARTH_PORT": "0", "HEARTH_SECRET_KEY": ""]
            let (server, port, token, household) = try await Self.serveWithHousehold(env, person: "ada")
            _ = try await Self.graphql(port, #"mutation { createTask(householdId: "\#(household)", input: {title: "Buy milk"}) { id } }"#, token: token)
            // A plain-HTTP Hearth is not stopped by SIGHUP (the default action would end it): it says so and serves on.
            server.send(SIGHUP)
            #expect(await server.waitForOutput(.seconds(30)) { $0.contains("SIGHUP ignored") }, "\(server.stderr)")
            #expect(try await Self.get(port) == 200)

            try FileManager.default.createDirectory(atPath: dir + "/backups", withIntermediateDirectories: true)
            let backup = try await Self.hearth(["backup", "--to", dir + "/backups/one.backup"], env)
            #expect(try await backup.waitForExit().status == 0, "stderr:\n\(backup.stderr)")
            #expect(backup.stdout.contains("1 households, 1 people, 1 tasks, 0 products; encrypted with key"), "\(backup.stdout)")
            let manifest = try BackupArchive.manifest(of: dir + "/backups/one.backup")
            #expect(manifest.households == 1 && manifest.people == 1 && manifest.tasks == 1 && manifest.migration >= 17)
            #expect(try await Self.get(port) == 200, "Hearth served on")

            // The emergency kit: the last line is the key the backup was made with.
            let kit = try await Self.hearth(["backup", "key"], env)
            let key = try BackupKey(recoveryText: try #require(kit.stdout.split(separator: "\n").last.map(String.init)))
            #expect(key.identifier == manifest.keyIdentifier)
            let secret = try String(contentsOfFile: dir + "/pg/secret.key", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(key.secretKey.base64EncodedString() == secret, "the kit carries the secret key")

            let verify = try await Self.hearth(["backup", "verify", dir + "/backups/one.backup"], env)
            #expect(try await verify.waitForExit().status == 0 && verify.stdout.contains("is a whole backup"), "\(verify.stderr)")

            // Damaged copies: one line each, exit status 1.
            let whole = try Data(contentsOf: URL(fileURLWithPath: dir + "/backups/one.backup"))
            var flipped = whole
            flipped[whole.count - 40] ^= 1
            try flipped.write(to: URL(fileURLWithPath: dir + "/backups/flipped.backup"))
            try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: dir + "/backups/cut.backup"))
            for (name, expected) in [("flipped", "is damaged: chunk"), ("cut", "is truncated")] {
                let bad = try await Self.hearth(["backup", "verify", "\(dir)/backups/\(name).backup"], env)
                #expect(try await bad.waitForExit().status == 1)
                #expect(bad.stderr.split(separator: "\n").count == 1 && bad.stderr.contains(expected), "\(bad.stderr)")
            }
            let list = try await Self.hearth(["backup", "list", dir + "/backups"], env)
            let lines = list.stdout.split(separator: "\n")
            #expect(lines.count == 3, "\(list.stdout)")
            #expect(lines.first { $0.hasPrefix("one.backup:") }?.hasSuffix("; verified") == true)
            #expect(lines.first { $0.hasPrefix("cut.backup:") }?.contains("NOT verified:") == true)

            // Never over a file; unencrypted on request (readable without a key).
            let again = try await Self.hearth(["backup", "--to", dir + "/backups/one.backup"], env)
            #expect(try await again.waitForExit().status != 0 && again.stderr.contains("exists already"), "\(again.stderr)")
            let plain = try await Self.hearth(["backup", "--no-encrypt", "--to", dir + "/plain.backup"], env)
            #expect(try await plain.waitForExit().status == 0, "\(plain.stderr)")
            #expect(try BackupArchive.verify(dir + "/plain.backup", key: nil).isEncrypted == false)

            server.send(SIGTERM)
            #expect(try await server.waitForExit().status == 0, "stderr:\n\(server.stderr)")
        }
    }

    /// Every record of a household as a snapshot pull gives it: type, id and version.
    static func snapshot(_ port: Int, _ household: String, token: String) async throws -> (records: Set<String>, cursor: String) {
        var records = Set<String>()
        var cursor: String?
        while true {
            let after = cursor.map { #", after: "\#($0)""# } ?? ""
            let data = try await graphql(port, #"{ sync(householdId: "\#(household)", first: 1000\#(after)) { cursor hasMore changes { type id version deleted } } }"#,
                                         token: token)
            let sync = try #require(data["sync"] as? [String: Any])
            let changes = try #require(sync["changes"] as? [[String: Any]])
            records.formUnion(changes.map { "\($0["type"] ?? "")/\($0["id"] ?? "")/\($0["version"] ?? "")/\($0["deleted"] ?? "")" })
            cursor = try #require(sync["cursor"] as? String)
            guard sync["hasMore"] as? Bool == true else { return (records, cursor ?? "") }
        }
    }

    @Test func aBackupRestoredOnANewDataDirectoryGivesTheSameRecordsSessionsAndKeys() async throws {
        try await withTemporaryDirectory { dir throws in
            let env = ["HEARTH_DATA_DIR": dir + "/pg", "HEARTH_PORT": "0", "HEARTH_SECRET_KEY": "", "HEARTH_DELIVERY_ALLOW_HOSTS": "127.0.0.1"]
            var (first, port, token, household) = try await Self.serveWithHousehold(env, person: "bo")
            // A webhook: its signing secret is sealed with the installation's secret key.
            let hook = try await Self.graphql(port, #"mutation { addWebhook(input: {url: "http://127.0.0.1:9/hook"}) { channel { id } } }"#, token: token)
            let channel = try #require(((hook["addWebhook"] as? [String: Any])?["channel"] as? [String: Any])?["id"] as? String)
            for title in ["Buy milk", "Call grandma"] {
                _ = try await Self.graphql(port, #"mutation { createTask(householdId: "\#(household)", input: {title: "\#(title)", labels: ["Home"], subtasks: ["one"]}) { id } }"#, token: token)
            }
            // Four clients write continuously while the backup is made; it holds exactly what one snapshot saw.
            let (backup, written) = try await Self.whileFourClientsWrite(port, token: token, household: household) {
                try await Self.hearth(["backup", "--to", dir + "/oak.backup"], env)
            }
            #expect(try await backup.waitForExit().status == 0, "\(backup.stderr)")
            let before = try await Self.snapshot(port, household, token: token)
            let manifest = try BackupArchive.manifest(of: dir + "/oak.backup")
            #expect(written > 0 && manifest.tasks >= 2 && manifest.tasks <= 2 + written, "\(manifest.tasks) tasks backed up of \(2 + written)")
            first.send(SIGTERM)
            #expect(try await first.waitForExit().status == 0)

            // The wrong key: refused before anything is made.
            let elsewhere = ["HEARTH_DATA_DIR": dir + "/new", "HEARTH_PORT": "0", "HEARTH_SECRET_KEY": "", "HEARTH_DELIVERY_ALLOW_HOSTS": "127.0.0.1"]
            try BackupKey.make(secretKey: Data(count: 32)).recoveryText.write(toFile: dir + "/other.key", atomically: true, encoding: .utf8)
            let wrong = try await Self.hearth(["restore", dir + "/oak.backup", "--key-file", dir + "/other.key"], elsewhere)
            #expect(try await wrong.waitForExit().status == 1 && wrong.stderr.contains("encrypted with another backup key"), "\(wrong.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/new"), "nothing was made")

            // Onto a new data directory with the emergency kit: the same records at the same versions, the same session.
            let kit = try await Self.hearth(["backup", "key"], env)
            try String(kit.stdout.split(separator: "\n").last ?? "").write(toFile: dir + "/kit.txt", atomically: true, encoding: .utf8)
            let restore = try await Self.hearth(["restore", dir + "/oak.backup", "--key-file", dir + "/kit.txt"], elsewhere)
            #expect(try await restore.waitForExit().status == 0, "\(restore.stderr)")
            #expect(restore.stdout.contains("restored \(dir)/oak.backup"), "\(restore.stdout)")
            #expect(try String(contentsOfFile: dir + "/new/secret.key", encoding: .utf8) == String(contentsOfFile: dir + "/pg/secret.key", encoding: .utf8),
                    "the kit's secret key is the new installation's")
            let second = try HearthProcess(["serve"], environment: elsewhere)
            port = try await second.waitUntilListening()
            let me = try await Self.graphql(port, "{ me { email } }", token: token)
            #expect((me["me"] as? [String: Any])?["email"] as? String == "bo@example.org", "the same session signs in")
            // The webhook's secret opens on the new installation (a test delivery is tried: nobody listens on port 9).
            #expect(try await Self.graphqlErrors(port, #"mutation { testChannel(id: "\#(channel)") }"#, token: token).isEmpty)
            let after = try await Self.snapshot(port, household, token: token)
            // What the backup's snapshot saw, at the same versions; what it did not see is only the tasks written after it.
            #expect(after.records.isSubset(of: before.records), "\(after.records.subtracting(before.records))")
            #expect(after.records.filter { $0.hasPrefix("TASK/") }.count == manifest.tasks)
            #expect(before.records.subtracting(after.records).allSatisfy { $0.hasPrefix("TASK/") })
            // The old cursor expires; a write after the restore reaches the next pull.
            let old = try await Self.graphqlErrors(port, #"{ sync(householdId: "\#(household)", after: "\#(before.cursor)") { cursor } }"#, token: token)
            #expect(old == ["SYNC_CURSOR_EXPIRED"])
            _ = try await Self.graphql(port, #"mutation { createTask(householdId: "\#(household)", input: {title: "After the restore"}) { id } }"#, token: token)
            let next = try await Self.graphql(port, #"{ sync(householdId: "\#(household)", after: "\#(after.cursor)") { changes { type } } }"#, token: token)
            #expect(((next["sync"] as? [String: Any])?["changes"] as? [[String: Any]])?.map { $0["type"] as? String } == ["TASK"])

            // A second restore: not while it serves; refused over data without --replace; with it, a safety backup first.
            let busy = try await Self.hearth(["restore", dir + "/oak.backup"], elsewhere)
            #expect(try await busy.waitForExit().status == 1 && busy.stderr.contains("in use by another running hearth"), "\(busy.stderr)")
            second.send(SIGTERM)
            #expect(try await second.waitForExit().status == 0)
            let full = try await Self.hearth(["restore", dir + "/oak.backup"], elsewhere)
            #expect(try await full.waitForExit().status == 1 && full.stderr.contains("give --replace"), "\(full.stderr)")
            let replaced = try await Self.hearth(["restore", dir + "/oak.backup", "--replace"], elsewhere)
            #expect(try await replaced.waitForExit().status == 0, "\(replaced.stderr)")
            let safety = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("safety-before-restore-") }
            #expect(safety.count == 1)
            let kitKey = try BackupKey(recoveryText: try String(contentsOfFile: dir + "/kit.txt", encoding: .utf8))
            #expect(try BackupArchive.manifest(of: dir + "/" + (safety.first ?? "")).keyIdentifier == kitKey.identifier,
                    "the safety backup is encrypted with the installation's key")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/hearth-backup-work").isEmpty, "no dump is left in the workspace")
            #expect(try BackupArchive.manifest(of: dir + "/" + (safety.first ?? "")).tasks == manifest.tasks + 1,
                    "the safety backup holds the task written after the restore")
        }
    }

    /// Runs `body` while four clients create tasks continuously (from before it starts until it
    /// ends); returns its result and how many tasks they wrote.
    static func whileFourClientsWrite<T>(_ port: Int, token: String, household: String, _ body: () async throws -> T) async throws -> (T, Int) {
        let stop = StopFlag()
        let writers = (0..<4).map { writer in
            Task { () -> Int in
                var written = 0
                while !stop.isSet {
                    _ = try await Self.graphql(port, #"mutation { createTask(householdId: "\#(household)", input: {title: "w\#(writer)-\#(written)"}) { id } }"#, token: token)
                    written += 1
                }
                return written
            }
        }
        let result: T
        do {
            result = try await body()
        } catch {
            stop.set()
            throw error
        }
        stop.set()
        var written = 0
        for writer in writers { written += try await writer.value }
        return (result, written)
    }

    @Test func anExternalDatabaseIsBackedUpAndRestoredIntoAnother() async throws {
        try await withTemporaryDirectory { dir throws in
            let source = try await TestPostgres.shared.createDatabase()
            let target = try await TestPostgres.shared.createDatabase(migrated: false)
            let env = ["DATABASE_URL": source.url, "HEARTH_PORT": "0"]
            let (server, port, token, household) = try await Self.serveWithHousehold(env, person: "cy")
            _ = try await Self.graphql(port, #"mutation { createTask(householdId: "\#(household)", input: {title: "Mow"}) { id } }"#, token: token)
            let before = try await Self.snapshot(port, household, token: token)

            // An external database has no data directory for the key: it is named, and made there on first use.
            let keyless = try await Self.hearth(["backup", "--to", dir + "/ext.backup"], env)
            #expect(try await keyless.waitForExit().status == 1 && keyless.stderr.contains("An external database needs a backup key"), "\(keyless.stderr)")
            // Made while four clients write: the restore holds what its snapshot saw, at the same versions.
            let (backup, written) = try await Self.whileFourClientsWrite(port, token: token, household: household) {
                try await Self.hearth(["backup", "--to", dir + "/ext.backup", "--backup-key-file", dir + "/ext.key"], env)
            }
            #expect(try await backup.waitForExit().status == 0, "\(backup.stderr)")
            let all = try await Self.snapshot(port, household, token: token)
            let manifest = try BackupArchive.manifest(of: dir + "/ext.backup")
            #expect(written > 0 && manifest.tasks >= 1 && manifest.tasks <= 1 + written, "\(manifest.tasks) tasks backed up of \(1 + written)")
            server.send(SIGTERM)
            #expect(try await server.waitForExit().status == 0)

            let restore = try await Self.hearth(["restore", dir + "/ext.backup", "--key-file", dir + "/ext.key"], ["DATABASE_URL": target.url])
            #expect(try await restore.waitForExit().status == 0, "\(restore.stderr)")
            let restored = try HearthProcess(["serve"], environment: ["DATABASE_URL": target.url, "HEARTH_PORT": "0"])
            let newPort = try await restored.waitUntilListening()
            // The same session signs in (the snapshot reads with it); every record it holds is one the source had, at its version.
            let after = try await Self.snapshot(newPort, household, token: token)
            #expect(before.records.isSubset(of: after.records) && after.records.isSubset(of: all.records), "\(after.records.subtracting(all.records))")
            #expect(after.records.filter { $0.hasPrefix("TASK/") }.count == manifest.tasks)
            #expect(all.records.subtracting(after.records).allSatisfy { $0.hasPrefix("TASK/") })
            restored.send(SIGTERM)
            #expect(try await restored.waitForExit().status == 0)
        }
    }

    /// A key file that is there but cannot be read stops Hearth naming it, and is never written
    /// over; a new one is made only where none is, private from its first byte.
    @Test func aKeyFileThatCannotBeReadStopsHearthAndIsNeverReplaced() async throws {
        try await withTemporaryDirectory { dir throws in
            try FileManager.default.createDirectory(atPath: dir + "/pg", withIntermediateDirectories: true)
            let env = ["HEARTH_DATA_DIR": dir + "/pg", "HEARTH_SECRET_KEY": ""]
            let garbage = Data([0xFF, 0xFE, 0x00, 0x80, 0xC3])
            for name in ["backup.key", "secret.key"] {
                try garbage.write(to: URL(fileURLWithPath: "\(dir)/pg/\(name)"))
                let run = try await Self.hearth(["backup", "key"], env)
                #expect(try await run.waitForExit().status == 1, "\(run.stdout)")
                #expect(run.stderr.contains("The key file \(dir)/pg/\(name) is not a key file"), "\(run.stderr)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/pg/\(name)")) == garbage, "\(name) was replaced")
                try FileManager.default.removeItem(atPath: "\(dir)/pg/\(name)")
            }
            // Something that is not a file where the key should be: it cannot be read, and says why.
            try FileManager.default.createDirectory(atPath: dir + "/pg/secret.key", withIntermediateDirectories: false)
            let directory = try await Self.hearth(["backup", "key"], env)
            #expect(try await directory.waitForExit().status == 1 && directory.stderr.contains("The key file \(dir)/pg/secret.key cannot be read"),
                    "\(directory.stderr)")
            try FileManager.default.removeItem(atPath: dir + "/pg/secret.key")
            // None there: both are made, mode 0600.
            let made = try await Self.hearth(["backup", "key"], env)
            #expect(try await made.waitForExit().status == 0, "\(made.stderr)")
            for name in ["backup.key", "secret.key"] {
                #expect((try FileManager.default.attributesOfItem(atPath: "\(dir)/pg/\(name)")[.posixPermissions] as? Int) == 0o600)
            }
        }
    }

    /// A dump whose load fails: a table whose CHECK calls a function that, by the time of the dump,
    /// refuses the table's own rows (the function is restored first, so the rows are refused).
    static func failingBackup(_ path: String, key: BackupKey?, in dir: String) async throws {
        let endpoint = try await TestPostgres.shared.createDatabase(migrated: false)
        try await Database(configuration: .embedded(endpoint, poolSize: 1), logger: TestPostgres.logger).whileRunning { database in
            for statement in [
                "CREATE FUNCTION fine(int) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT true'",
                "CREATE TABLE kept (x int CHECK (fine(x)))", "INSERT INTO kept VALUES (1)",
                "CREATE OR REPLACE FUNCTION fine(int) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT false'",
            ] {
                try await database.client.query(PostgresQuery(unsafeSQL: statement), logger: database.logger)
            }
        }
        let binaries = try PostgresBinaries.locate(PostgresBinarySearch())
        let dump = DatabaseDump(binaries: binaries, environment: DatabaseConfiguration.embedded(endpoint, poolSize: 1).libpqEnvironment, workRoot: dir + "/work")
        try await dump.dump(to: dir + "/failing.dump", logger: TestPostgres.logger)
        try BackupArchive.write(dump: dir + "/failing.dump", manifest: BackupManifest(
            hearthVersion: "test", migration: 1, createdAt: Date(), households: 0, people: 0, tasks: 0, products: 0, dumpBytes: 0, dumpSHA256: "",
            keyIdentifier: nil), key: key, to: path)
    }

    /// `restore --replace` of a backup whose load fails leaves what was there, with its safety backup
    /// beside it: encrypted, named so retention never prunes it, listed as such. With a key at hand an
    /// unencrypted backup is refused unless allowed.
    @Test func aRestoreWhoseLoadFailsLeavesWhatWasThere() async throws {
        try await withTemporaryDirectory { dir throws in
            let target = try await TestPostgres.shared.createDatabase()
            let env = ["DATABASE_URL": target.url, "HEARTH_PORT": "0"]
            let (server, _, _, _) = try await Self.serveWithHousehold(env, person: "dee")
            server.send(SIGTERM)
            #expect(try await server.waitForExit().status == 0)
            let key = BackupKey.make(secretKey: Data(repeating: 3, count: 32))
            try key.recoveryText.write(toFile: dir + "/kit.txt", atomically: true, encoding: .utf8)
            try FileManager.default.createDirectory(atPath: dir + "/backups", withIntermediateDirectories: true)
            try await Self.failingBackup(dir + "/backups/failing.backup", key: key, in: dir)

            let restore = try await Self.hearth(["restore", dir + "/backups/failing.backup", "--replace", "--key-file", dir + "/kit.txt"], env)
            #expect(try await restore.waitForExit().status == 1, "\(restore.stdout)")
            #expect(restore.stderr.contains("psql failed"), "\(restore.stderr)")
            let households = try await Database(configuration: .embedded(target, poolSize: 1), logger: TestPostgres.logger).whileRunning { database in
                try await database.strings("SELECT name FROM households")
            }
            #expect(households == ["Home"], "what was there is still there")
            let safety = try #require(try FileManager.default.contentsOfDirectory(atPath: dir + "/backups").first { $0.hasPrefix("safety-before-restore-") })
            #expect(!BackupSchedule.isScheduledName(safety) && BackupSchedule.isScheduledName("hearth-20270104-020000.backup"))
            #expect(try BackupArchive.manifest(of: dir + "/backups/" + safety).keyIdentifier == key.identifier, "the safety backup is encrypted")
            let list = try await Self.hearth(["backup", "list", dir + "/backups", "--key-file", dir + "/kit.txt"], env)
            #expect(try await list.waitForExit().status == 0)
            #expect(list.stdout.contains("\(safety) (the safety backup of what a restore replaced; never pruned)"), "\(list.stdout)")

            // Unencrypted, with a key given: refused (and nothing touched) unless --allow-unencrypted.
            try await Self.failingBackup(dir + "/plain.backup", key: nil, in: dir)
            let plain = try await Self.hearth(["restore", dir + "/plain.backup", "--replace", "--key-file", dir + "/kit.txt"], env)
            #expect(try await plain.waitForExit().status == 1 && plain.stderr.contains("is not encrypted, but this installation has a backup key"),
                    "\(plain.stderr)")
            let verify = try await Self.hearth(["backup", "verify", dir + "/plain.backup", "--key-file", dir + "/kit.txt", "--allow-unencrypted"], env)
            #expect(try await verify.waitForExit().status == 0, "\(verify.stderr)")
        }
    }

    @Test func aBackupFromANewerHearthIsRefusedBeforeAnythingIsMade() async throws {
        try await withTemporaryDirectory { dir throws in
            try Data("not restored".utf8).write(to: URL(fileURLWithPath: dir + "/dump"))
            let manifest = BackupManifest(hearthVersion: "9.0.0", migration: 9_999, createdAt: Date(), households: 1, people: 1, tasks: 0, products: 0,
                                          dumpBytes: 0, dumpSHA256: "", keyIdentifier: nil)
            try BackupArchive.write(dump: dir + "/dump", manifest: manifest, key: nil, to: dir + "/future.backup")
            let restore = try await Self.hearth(["restore", dir + "/future.backup"], ["HEARTH_DATA_DIR": dir + "/pg"])
            #expect(try await restore.waitForExit().status == 1)
            #expect(restore.stderr.contains("was made by a newer Hearth (9.0.0, migration 9999"), "\(restore.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/pg"), "nothing was made")
        }
    }

    /// The error codes of an operation's answer.
    static func graphqlErrors(_ port: Int, _ query: String, token: String) async throws -> [String] {
        (try await answer(port, query, token: token)["errors"] as? [[String: Any]] ?? []).compactMap { ($0["extensions"] as? [String: Any])?["code"] as? String }
    }

    /// `hearth serve --backup-dir` with a directory that cannot be made: `/admin/health`'s `backup`
    /// entry and `/metrics` show the failure, and the instance's administrator finds the notice
    /// (`instanceNotices`), which `notifications` leaves out. Then, with a good
    /// directory, a backup is made at start (none was made yet) and verifies.
    @Test func scheduledBackupsReportAFailingDirectoryAndTellTheAdministrator() async throws {
        try await withTemporaryDirectory { dir throws in
            let env = ["HEARTH_DATA_DIR": dir + "/pg", "HEARTH_PORT": "0", "HEARTH_ADMIN_TOKEN": "tok"]
            let create = try HearthProcess(["user", "create", "--email", "op@example.org", "--admin"], environment: env, input: "correct horse\n")
            #expect(try await create.waitForExit().status == 0, "stderr:\n\(create.stderr)")
            try Data("a file".utf8).write(to: URL(fileURLWithPath: dir + "/file"))
            let server = try HearthProcess(["serve", "--backup-dir", dir + "/file/backups"], environment: env)
            let port = try await server.waitUntilListening()
            var backup: [String: Any] = [:]
            #expect(try await eventually {
                backup = try await Self.backupHealth(port)
                return backup["isHealthy"] as? Bool == false
            }, "\(backup)")
            let failure = "the backup directory \(dir)/file/backups cannot be made: Not a directory"
            #expect((backup["details"] as? [String: Any])?["lastFailure"] as? String == failure)
            #expect(backup["errors"] as? [String] == ["The backup into \(dir)/file/backups failed: \(failure). No backup has been made yet."])
            var metrics = ""
            #expect(try await eventually {
                metrics = try await ServeCommandTests.get(port, "/metrics").1
                return metrics.contains("\nhearth_backup_healthy 0")
            }, "\(metrics)")

            let signIn = try await Self.graphql(port, #"mutation { signIn(email: "op@example.org", password: "correct horse") { token } }"#)
            let token = try #require((signIn["signIn"] as? [String: Any])?["token"] as? String)
            let notices = try await Self.graphql(port, """
                { instance: instanceNotices { edges { node { title body priority read } } }
                  all: notifications { totalCount } }
                """, token: token)
            let node = ((notices["instance"] as? [String: Any])?["edges"] as? [[String: Any]])?.first?["node"] as? [String: Any]
            #expect(node?["title"] as? String == "Hearth's backup needs attention" && node?["read"] as? Bool == false)
            #expect(node?["body"] as? String == (backup["errors"] as? [String])?.first && node?["priority"] as? String == "HIGH")
            #expect((notices["all"] as? [String: Any])?["totalCount"] as? Int == 0)
            server.send(SIGTERM)
            #expect(try await server.waitForExit().status == 0, "stderr:\n\(server.stderr)")

            // Mended: at start the failed backup is tried again at once, and verifies with the data directory's key.
            let good = try HearthProcess(["serve", "--backup-dir", dir + "/backups", "--backup-every", "24", "--backup-keep", "3"], environment: env)
            let goodPort = try await good.waitUntilListening()
            #expect(try await eventually { try await Self.backupHealth(goodPort)["isHealthy"] as? Bool == true })
            let files = try FileManager.default.contentsOfDirectory(atPath: dir + "/backups")
            #expect(files.count == 1 && files.first?.hasPrefix("hearth-") == true && files.first?.hasSuffix(".backup") == true, "\(files)")
            let verify = try await Self.hearth(["backup", "verify", dir + "/backups/" + (files.first ?? "")], env)
            #expect(try await verify.waitForExit().status == 0, "\(verify.stderr)")
            good.send(SIGTERM)
            #expect(try await good.waitForExit().status == 0, "stderr:\n\(good.stderr)")
        }
    }

    /// The `backup` entry of `/admin/health`.
    static func backupHealth(_ port: Int) async throws -> [String: Any] {
        let (_, body) = try await ServeCommandTests.get(port, "/admin/health", token: "tok")
        let services = (try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["services"] as? [[String: Any]]
        return services?.first { $0["name"] as? String == "backup" } ?? [:]
    }

    static func get(_ port: Int) async throws -> Int {
        try await ServeCommandTests.get(port, "/readyz").0.code
    }
}

/// Tells the writer tasks to stop.
private final class StopFlag: Sendable {
    private let stopped = Mutex(false)
    var isSet: Bool { stopped.withLock { $0 } }
    func set() { stopped.withLock { $0 = true } }
}
