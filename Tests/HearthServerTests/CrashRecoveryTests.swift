import Foundation
import HearthCore
import HearthTestSupport
import Hummingbird
import HummingbirdTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `kill -9` of Hearth alone, and of Hearth with its embedded PostgreSQL at once: the next start on
/// the same data directory comes up right away, and every write that was acknowledged is there.
@Suite struct CrashRecoveryTests {
    /// The `data` of a GraphQL request to a server on `port` (its own connection).
    static func graphQL(_ port: Int, _ query: String, _ variables: [String: Any] = [:], token: String? = nil) async throws -> [String: Any] {
        let json = try await DatabaseOutageTests.post(port, query, variables, token: token)
        return try #require(json["data"] as? [String: Any], "\(json)")
    }

    @Test(arguments: [false, true])
    func nothingAcknowledgedIsLostAndTheRestartIsImmediate(killPostgresToo: Bool) async throws {
        try await withTemporaryDirectory { dir throws in
            let env = ["HEARTH_DATA_DIR": dir + "/pg", "HEARTH_PORT": "0"]
            let first = try HearthProcess(["serve"], environment: env)
            let port = try await first.waitUntilListening()
            let signUp = try await Self.graphQL(
                port, #"mutation { signUp(input: {email: "ada@example.org", password: "correct horse", displayName: "Ada"}) { token } }"#)
            let token = try #require((signUp["signUp"] as? [String: Any])?["token"] as? String)
            let created = try await Self.graphQL(port, #"mutation { createHousehold(input: {name: "Home"}) { id } }"#, token: token)
            let household = try #require((created["createHousehold"] as? [String: Any])?["id"] as? String)
            var acknowledged: Set<String> = []
            for index in 0..<20 {
                let id = UUID().uuidString.lowercased()
                let data = try await Self.graphQL(
                    port, "mutation($h: UUID!, $i: TaskInput!) { createTask(householdId: $h, input: $i) { id } }",
                    ["h": household, "i": ["id": id, "title": "Chore \(index)"]], token: token)
                if (data["createTask"] as? [String: Any])?["id"] as? String == id { acknowledged.insert(id) }
            }
            #expect(acknowledged.count == 20)
            let postgres = try #require(postmasterPID(dir + "/pg"))
            if killPostgresToo { kill(postgres, SIGKILL) }
            first.send(SIGKILL)
            _ = try await first.waitForExit()

            // At once, on the same data directory.
            let second = try HearthProcess(["serve"], environment: env)
            let secondPort = try await second.waitUntilListening()
            let signIn = try await Self.graphQL(
                secondPort, #"mutation { signIn(email: "ada@example.org", password: "correct horse") { token } }"#)
            let newToken = try #require((signIn["signIn"] as? [String: Any])?["token"] as? String)
            let tasks = try await Self.graphQL(
                secondPort, "query($h: UUID!) { tasks(householdId: $h, first: 100) { totalCount edges { node { id } } } }", ["h": household],
                token: newToken)
            let ids = Set(((tasks["tasks"] as? [String: Any])?["edges"] as? [[String: Any]] ?? []).compactMap { ($0["node"] as? [String: Any])?["id"] as? String })
            #expect(ids == acknowledged, "lost: \(acknowledged.subtracting(ids))")
            second.send(SIGTERM)
            #expect(try await second.waitForExit().status == 0, "stderr:\n\(second.stderr.suffix(2000))")
        }
    }
}
