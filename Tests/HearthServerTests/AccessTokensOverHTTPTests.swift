import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import Testing

/// Personal access tokens over real HTTP: made by a signed-in person, shown once, limited by
/// their scopes and by their owner's roles, and revoked at once on every instance.
@Suite struct AccessTokensOverHTTPTests {
    typealias Server = UsersOverHTTPTests.Server

    static let create = "mutation($i: AccessTokenInput!) { createAccessToken(input: $i) { token accessToken { id name scopes expiresAt lastUsedAt } } }"

    /// A token for `person` with `scopes`: the token and its id.
    static func token(_ server: Server, _ person: HouseholdsOverHTTPTests.Person, _ name: String, scopes: [String]) async throws -> (token: String, id: String) {
        let data = try await server.data(create, ["i": ["name": name, "scopes": scopes]], token: person.token)
        let created = try #require(data["createAccessToken"] as? [String: Any])
        let token = try #require(created["token"] as? String)
        return (token, try #require((created["accessToken"] as? [String: Any])?["id"] as? String))
    }

    @Test func tokensAreLimitedByTheirScopesAndTheirOwnersRoles() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let (owner, member, viewer, home) = try await HouseholdsOverHTTPTests.householdOfThree(server, ("Olive", "Max", "Vera"))
            let created = try await server.data(Self.create, ["i": ["name": "Claude on the laptop", "scopes": ["READ", "WRITE"]]], token: member.token)
            let record = try #require((created["createAccessToken"] as? [String: Any])?["accessToken"] as? [String: Any])
            let write = try #require((created["createAccessToken"] as? [String: Any])?["token"] as? String)
            #expect(write.hasPrefix("hpat_") && write.count == 48)
            #expect(record["scopes"] as? [String] == ["READ", "WRITE"] && record["lastUsedAt"] is NSNull)
            let expires = try #require(DateTimeScalar.date(from: record["expiresAt"] as? String ?? ""))
            #expect(abs(expires.timeIntervalSince(server.clock.now) - 90 * 86_400) < 5, "90 days by default")

            // The WRITE token reads and creates tasks as its owner; it is never an instance admin.
            let me = try await server.data("{ me { displayName isAdmin } }", token: write)
            #expect((me["me"] as? [String: Any])?["displayName"] as? String == "Max")
            let task = try await server.data("mutation($h: UUID!) { createTask(householdId: $h, input: {title: \"Oat milk\"}) { id } }", ["h": home], token: write)
            #expect((task["createTask"] as? [String: Any])?["id"] is String)
            let listed = try #require(try await server.data("{ accessTokens { id name lastUsedAt } }", token: member.token)["accessTokens"] as? [[String: Any]])
            #expect(listed.count == 1 && listed.first?["name"] as? String == "Claude on the laptop" && listed.first?["lastUsedAt"] is String)
            // It cannot do what is not tasks, events, labels, read marks or syncs: no new household, no new token.
            let household = try await server.error("mutation { createHousehold(input: {name: \"Mine\"}) { id } }", token: write)
            #expect(household.code == "FORBIDDEN" && household.message?.contains("createHousehold") == true, "\(household)")
            #expect(try await server.error(Self.create, ["i": ["name": "more", "scopes": ["READ"]]], token: write).code == "FORBIDDEN")
            #expect(try await server.error("mutation { signOutEverywhere }", token: write).code == "FORBIDDEN")

            // A READ token reads, and may not write.
            let read = try await Self.token(server, member, "dashboard", scopes: ["READ"])
            #expect((try await server.data("query($h: UUID!) { tasks(householdId: $h) { totalCount } }", ["h": home], token: read.token)["tasks"]
                     as? [String: Any])?["totalCount"] as? Int == 1)
            let refused = try await server.error("mutation($h: UUID!) { createTask(householdId: $h, input: {title: \"x\"}) { id } }", ["h": home], token: read.token)
            #expect(refused.code == "FORBIDDEN" && refused.message?.contains("WRITE") == true, "\(refused)")
            // A WRITE-only token may not read.
            let writeOnly = try await Self.token(server, member, "script", scopes: ["WRITE"])
            #expect(try await server.error("{ me { id } }", token: writeOnly.token).code == "FORBIDDEN")

            // A viewer's WRITE token is still a viewer's: it cannot create.
            let viewerToken = try await Self.token(server, viewer, "viewer's assistant", scopes: ["READ", "WRITE"])
            #expect(try await server.error("mutation($h: UUID!) { createTask(householdId: $h, input: {title: \"x\"}) { id } }", ["h": home],
                                           token: viewerToken.token).code == "FORBIDDEN")
            // Removing its owner from the household takes the household from the token at once.
            _ = try await server.data("mutation($h: UUID!, $u: UUID!) { removeMember(householdId: $h, userId: $u) }", ["h": home, "u": member.id], token: owner.token)
            #expect(try await server.error("query($h: UUID!) { tasks(householdId: $h) { totalCount } }", ["h": home], token: read.token).code == "NOT_FOUND")

            // Bad input names its field; the token text is never listed again.
            let days = try await server.error(Self.create, ["i": ["name": "x", "scopes": ["READ"], "expiresInDays": 400]], token: member.token)
            #expect(days.code == "BAD_USER_INPUT" && days.extensions["field"] as? String == "expiresInDays", "\(days)")
            let none = try await server.error(Self.create, ["i": ["name": "x", "scopes": []]], token: member.token)
            #expect(none.code == "BAD_USER_INPUT" && none.extensions["field"] as? String == "scopes")
            #expect(try await server.error(Self.create, ["i": ["name": "x", "scopes": ["ADMIN"]]], token: member.token).code != nil, "there is no ADMIN scope")
        }
    }

    /// Revoking a token, or its expiry, ends it at once on every instance (the other had it cached).
    @Test func aRevokedOrExpiredTokenIsRefusedEverywhere() async throws {
        try await UsersOverHTTPTests.withServers(count: 2) { servers in
            let (a, b) = (servers[0], servers[1])
            let ann = try await HouseholdsOverHTTPTests.person(a, "Ann")
            let token = try await Self.token(a, ann, "assistant", scopes: ["READ"])
            #expect(try await b.graphQL("{ me { id } }", token: token.token).status == .ok)
            let revoked = try await a.data("mutation($id: UUID!) { revokeAccessToken(id: $id) { id name } }", ["id": token.id], token: ann.token)
            #expect((revoked["revokeAccessToken"] as? [String: Any])?["name"] as? String == "assistant")
            #expect(try await eventually { try await b.graphQL("{ me { id } }", token: token.token).status == .unauthorized },
                    "instance B still accepts the revoked token")
            #expect(try await a.graphQL("{ me { id } }", token: token.token).status == .unauthorized)
            // Someone else's token (or none) is not found.
            let bob = try await HouseholdsOverHTTPTests.person(a, "Bob")
            let other = try await Self.token(a, bob, "bob's", scopes: ["READ"])
            #expect(try await a.error("mutation($id: UUID!) { revokeAccessToken(id: $id) { id } }", ["id": other.id], token: ann.token).code == "NOT_FOUND")

            // A day's token stops working after its day.
            let short = try await a.data(Self.create, ["i": ["name": "short", "scopes": ["READ"], "expiresInDays": 1]], token: bob.token)
            let shortToken = try #require((short["createAccessToken"] as? [String: Any])?["token"] as? String)
            #expect(try await b.graphQL("{ me { id } }", token: shortToken).status == .ok)
            a.clock.advance(by: 86_401)
            #expect(try await b.graphQL("{ me { id } }", token: shortToken).status == .unauthorized)
            #expect(try await a.graphQL("{ me { id } }", token: other.token).status == .ok, "the 90-day token still works")
        }
    }
}
