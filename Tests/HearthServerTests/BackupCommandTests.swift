import Foundation
import HearthCore
import HearthTestSupport
import Hummingbird
import HummingbirdTesting
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
        let body = try JSONSerialization.data(withJSONObject: ["query": query])
        let answer = try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            var headers: HTTPFields = [.contentType: "application/json"]
            if let token { headers[.authorization] = "Bearer \(token)" }
            return try await client.execute(TestClient.Request("/graphql", method: .post, headers: headers, body: ByteBuffer(bytes: body)))
        }
        let json = try JSONSerialization.jsonObject(with: Data(buffer: try #require(answer.body))) as? [String: Any]
        return try #require(json?["data"] as? [String: Any], "\(json ?? [:])")
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
            let server = try HearthProcess(["serve"], environment: env)
            let port = try await server.waitUntilListening()
            let signUp = try await Self.graphql(port, #"mutation { signUp(input: {email: "ada@example.org", password: "correct horse battery", displayName: "Ada"}) { token } }"#)
            let token = try #require((signUp["signUp"] as? [String: Any])?["token"] as? String)
            let home = try await Self.graphql(port, #"mutation { createHousehold(input: {name: "Elm", timeZone: "UTC"}) { id } }"#, token: token)
            let household = try #require((home["createHousehold"] as? [String: Any])?["id"] as? String)
            _ = try await Self.graphql(port, #"mutation { createTask(householdId: "\#(household)", input: {title: "Buy milk"}) { id } }"#, token: token)

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

    static func get(_ port: Int) async throws -> Int {
        try await ServeCommandTests.get(port, "/readyz").0.code
    }
}
