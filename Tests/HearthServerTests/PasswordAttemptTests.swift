import Foundation
import HearthCore
import Testing

/// Password checks as a CPU weapon, over real HTTP: attempts are counted before any hashing, so
/// concurrent attempts cannot slip past the limit, and every password check (sign-in, change,
/// account deletion) shares the account's and the address's limit.
@Suite struct PasswordAttemptTests {
    static func code(_ json: [String: Any]) -> String {
        ((json["errors"] as? [[String: Any]])?.first?["extensions"] as? [String: Any])?["code"] as? String ?? "none"
    }

    /// 16 wrong sign-ins at once for one email: exactly 10 are checked, the other 6 refused unhashed.
    @Test func concurrentSignInsCannotPassTheLimit() async throws {
        try await UsersOverHTTPTests.withServer { server in
            _ = try await server.signUp("ada@example.org")
            let query = #"mutation { signIn(email: "ada@example.org", password: "wrong guess") { token } }"#
            let codes = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<16 { group.addTask { Self.code(try await server.graphQL(query).json) } }
                var all: [String] = []
                for try await code in group { all.append(code) }
                return all
            }
            #expect(codes.filter { $0 == "UNAUTHENTICATED" }.count == 10, "\(codes)")
            #expect(codes.filter { $0 == "RATE_LIMITED" }.count == 6, "\(codes)")
        }
    }

    /// Wrong current passwords in changePassword and deleteAccount count like failed sign-ins.
    @Test func changePasswordAndDeleteAccountAreLimited() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let token = try await server.signUp("ada@example.org")
            let change = #"mutation { changePassword(currentPassword: "wrong guess", newPassword: "battery staple") }"#
            for attempt in 0..<6 {
                #expect(try await server.error(change, token: token).code == "BAD_USER_INPUT", "attempt \(attempt)")
            }
            let delete = #"mutation { deleteAccount(password: "wrong guess") }"#
            for attempt in 0..<4 {
                #expect(try await server.error(delete, token: token).code == "BAD_USER_INPUT", "attempt \(attempt)")
            }
            let limited = try await server.error(change, token: token)
            #expect(limited.code == "RATE_LIMITED", "\(limited)")
            #expect(limited.extensions["retryAfter"] as? Int == 15 * 60)
            #expect(try await server.error(#"mutation { deleteAccount(password: "correct horse") }"#, token: token).code == "RATE_LIMITED")
            let signIn = try await server.error(#"mutation { signIn(email: "ada@example.org", password: "correct horse") { token } }"#)
            #expect(signIn.code == "RATE_LIMITED", "the account's limit covers sign-in too")
            #expect(signIn.message == "Too many password attempts. Try again in 900 seconds.")
        }
    }

    /// 24 sign-ups at once from one address: 20 accounts are made (the default per window), the
    /// other 4 refused before hashing, and no account is made for them.
    @Test func signUpsPerAddressCannotPassTheLimit() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let codes = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<24 {
                    group.addTask {
                        let json = try await server.graphQL(
                            "mutation($i: SignUpInput!) { signUp(input: $i) { token } }",
                            ["i": ["email": "person\(index)@example.org", "password": "correct horse", "displayName": "P\(index)"]]).json
                        return (json["data"] as? [String: Any])?["signUp"] is [String: Any] ? "made" : Self.code(json)
                    }
                }
                var all: [String] = []
                for try await code in group { all.append(code) }
                return all
            }
            #expect(codes.filter { $0 == "made" }.count == 20, "\(codes)")
            #expect(codes.filter { $0 == "RATE_LIMITED" }.count == 4, "\(codes)")
            #expect(try await server.services.users.allUsers().count == 20)
            let refused = try await server.error(
                "mutation($i: SignUpInput!) { signUp(input: $i) { token } }",
                ["i": ["email": "late@example.org", "password": "correct horse", "displayName": "Late"]])
            #expect(refused.message == "Too many accounts were created from your address. Try again in 900 seconds.")
            #expect(refused.extensions["retryAfter"] as? Int == 900)
        }
    }

    /// The server-wide gate: with one hashing slot and two waiting places, ten checks at once run
    /// one at a time (never two together), three in all, and the rest are refused as busy.
    @Test func hashingIsBoundedServerWide() async throws {
        let hasher = PasswordHasher(cost: 13, concurrency: 1, maxWaiting: 2)
        let hash = try await hasher.hash("correct horse")
        let outcomes = await withTaskGroup(of: String.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do {
                        let load = hasher.load
                        let verified = try await hasher.verify("correct horse", against: hash)
                        return verified && load.running <= 1 ? "checked" : "wrong"
                    } catch let error as ServiceError {
                        return error == .busy(retryAfter: 1) ? "busy" : "wrong: \(error)"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            var all: [String] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.filter { $0 == "checked" }.count == 3, "\(outcomes)")
        #expect(outcomes.filter { $0 == "busy" }.count == 7, "\(outcomes)")
        #expect(hasher.load == (0, 0))
    }
}
