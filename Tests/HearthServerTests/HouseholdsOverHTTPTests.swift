import Foundation
import HearthCore
import HearthTestSupport
import Testing

/// Households, members, invitations, activity and permissions end to end over real HTTP with a
/// real PostgreSQL: every mutation, each role's limits, and attempts on another household's
/// things, which must answer NOT_FOUND or FORBIDDEN and change nothing.
@Suite struct HouseholdsOverHTTPTests {
    typealias Server = UsersOverHTTPTests.Server

    /// A signed-up person: token and id.
    struct Person {
        let token: String
        let id: String
    }

    static func person(_ server: Server, _ name: String) async throws -> Person {
        let token = try await server.signUp("\(name.lowercased())@example.org", name: name)
        let me = try #require(try await server.data("{ me { id } }", token: token)["me"] as? [String: Any])
        return Person(token: token, id: try #require(me["id"] as? String))
    }

    static func createHousehold(_ server: Server, _ owner: Person, name: String = "Home") async throws -> String {
        let data = try await server.data(
            #"mutation($n: String!) { createHousehold(input: {name: $n, timeZone: "Europe/Berlin"}) { id name timeZone myRole } }"#,
            ["n": name], token: owner.token)
        let household = try #require(data["createHousehold"] as? [String: Any])
        #expect(household["myRole"] as? String == "OWNER")
        return try #require(household["id"] as? String)
    }

    static func add(_ server: Server, _ by: Person, _ household: String, _ person: Person, _ role: String) async throws {
        let data = try await server.data(
            "mutation($h: UUID!, $u: UUID!, $r: HouseholdRole!) { addMember(householdId: $h, userId: $u, role: $r) { role user { id } } }",
            ["h": household, "u": person.id, "r": role], token: by.token)
        #expect((data["addMember"] as? [String: Any])?["role"] as? String == role)
    }

    /// A household (`name`, Europe/Berlin) of three: an owner, a member and a viewer, by these names.
    static func householdOfThree(_ server: Server, _ names: (owner: String, member: String, viewer: String), name: String = "Home")
        async throws -> (owner: Person, member: Person, viewer: Person, household: String)
    {
        let owner = try await person(server, names.owner)
        let member = try await person(server, names.member)
        let viewer = try await person(server, names.viewer)
        let household = try await createHousehold(server, owner, name: name)
        try await add(server, owner, household, member, "MEMBER")
        try await add(server, owner, household, viewer, "VIEWER")
        return (owner, member, viewer, household)
    }

    static func roles(_ server: Server, _ household: String, as person: Person) async throws -> [String: String] {
        let data = try await server.data(
            "query($h: UUID!) { household(id: $h) { members(first: 100) { totalCount edges { node { role user { displayName } } } } } }",
            ["h": household], token: person.token)
        let edges = ((data["household"] as? [String: Any])?["members"] as? [String: Any])?["edges"] as? [[String: Any]] ?? []
        var roles: [String: String] = [:]
        for edge in edges {
            let node = edge["node"] as? [String: Any] ?? [:]
            roles[(node["user"] as? [String: Any])?["displayName"] as? String ?? "?"] = node["role"] as? String
        }
        return roles
    }

    static let changeRole = "mutation($h: UUID!, $u: UUID!, $r: HouseholdRole!) { changeMemberRole(householdId: $h, userId: $u, role: $r) { role } }"
    static let remove = "mutation($h: UUID!, $u: UUID!) { removeMember(householdId: $h, userId: $u) }"
    static let leave = "mutation($h: UUID!) { leaveHousehold(householdId: $h) }"

    @Test func createReadUpdateAndListHouseholds() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let ada = try await Self.person(server, "Ada")
            let first = try await Self.createHousehold(server, ada, name: "  Home  ")
            // Lists order by creation time, then id: a clock that stands still would leave the order to random ids.
            server.clock.advance(by: 1)
            let second = try await Self.createHousehold(server, ada, name: "Cabin")
            let data = try await server.data("{ households(first: 1) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id name } } } }", token: ada.token)
            let page = try #require(data["households"] as? [String: Any])
            #expect(page["totalCount"] as? Int == 2)
            let edges = try #require(page["edges"] as? [[String: Any]])
            #expect(edges.map { ($0["node"] as? [String: Any])?["name"] as? String } == ["Home"])
            let pageInfo = try #require(page["pageInfo"] as? [String: Any])
            #expect(pageInfo["hasNextPage"] as? Bool == true)
            let next = try await server.data(
                "query($a: String) { households(first: 1, after: $a) { pageInfo { hasNextPage } edges { node { id } } } }",
                ["a": pageInfo["endCursor"] as? String ?? ""], token: ada.token)
            let nextPage = try #require(next["households"] as? [String: Any])
            #expect(((nextPage["edges"] as? [[String: Any]])?.first?["node"] as? [String: Any])?["id"] as? String == second)
            #expect((nextPage["pageInfo"] as? [String: Any])?["hasNextPage"] as? Bool == false)

            let updated = try await server.data(
                #"mutation($h: UUID!) { updateHousehold(id: $h, input: {name: "House", description: "Our place"}) { name description timeZone } }"#,
                ["h": first], token: ada.token)
            #expect((updated["updateHousehold"] as? [String: Any])?["name"] as? String == "House")
            #expect((updated["updateHousehold"] as? [String: Any])?["timeZone"] as? String == "Europe/Berlin")

            // Bad input names the field and changes nothing.
            let badCases: [(String, String)] = [
                (#"mutation { createHousehold(input: {name: "   "}) { id } }"#, "name"),
                (#"mutation { createHousehold(input: {name: "X", timeZone: "Mars/Olympus"}) { id } }"#, "timeZone"),
                (#"mutation { createHousehold(input: {name: "X", description: "\#(String(repeating: "d", count: 1001))"}) { id } }"#, "description"),
                (#"mutation { createHousehold(input: {name: "Robert'); DROP TABLE households;--\u0007"}) { id } }"#, "name"),
                (#"{ households(first: 0) { totalCount } }"#, "first"),
                (#"{ households(after: "garbage") { totalCount } }"#, "after"),
            ]
            for (query, field) in badCases {
                let error = try await server.error(query, token: ada.token)
                #expect(error.code == "BAD_USER_INPUT", "\(query)")
                #expect(error.extensions["field"] as? String == field, "\(query)")
            }
            let count = try await server.data("{ households { totalCount } }", token: ada.token)
            #expect((count["households"] as? [String: Any])?["totalCount"] as? Int == 2)
            // SQL metacharacters and non-ASCII are kept as text.
            let odd = try await Self.createHousehold(server, ada, name: "Zoë's \"place\"; DROP TABLE users;--")
            let read = try await server.data("query($h: UUID!) { household(id: $h) { name } }", ["h": odd], token: ada.token)
            #expect((read["household"] as? [String: Any])?["name"] as? String == "Zoë's \"place\"; DROP TABLE users;--")
            #expect(try await server.error("{ households { totalCount } }").code == "UNAUTHENTICATED")
        }
    }

    /// A household created without a zone takes its creator's preferred one; UTC only when they chose
    /// none (preferences tell "not set", null, from UTC).
    @Test func aHouseholdWithoutAZoneTakesTheCreatorsPreferredOne() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let ada = try await Self.person(server, "Ada")
            let fresh = try #require(try await server.data("{ me { preferences { timeZone } } }", token: ada.token)["me"] as? [String: Any])
            #expect((fresh["preferences"] as? [String: Any])?["timeZone"] is NSNull, "a new account has chosen no zone")
            let create = "mutation($n: String!) { createHousehold(input: {name: $n}) { timeZone } }"
            let first = try await server.data(create, ["n": "Before"], token: ada.token)
            #expect((first["createHousehold"] as? [String: Any])?["timeZone"] as? String == "UTC")
            _ = try await server.data(#"mutation { updatePreferences(input: {timeZone: "Asia/Tokyo"}) { timeZone } }"#, token: ada.token)
            let second = try await server.data(create, ["n": "After"], token: ada.token)
            #expect((second["createHousehold"] as? [String: Any])?["timeZone"] as? String == "Asia/Tokyo")
            let exported = try #require(try await server.data("{ exportPreferences }", token: ada.token)["exportPreferences"] as? [String: Any])
            #expect(exported["timeZone"] as? String == "Asia/Tokyo")
            let given = try await server.data(#"mutation { createHousehold(input: {name: "Given", timeZone: "Europe/Lisbon"}) { timeZone } }"#, token: ada.token)
            #expect((given["createHousehold"] as? [String: Any])?["timeZone"] as? String == "Europe/Lisbon")
        }
    }

    @Test func rolesDecideWhoManagesWhom() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let (owner, admin, member, viewer) = (try await Self.person(server, "Olive"), try await Self.person(server, "Adam"),
                                                  try await Self.person(server, "Mia"), try await Self.person(server, "Vic"))
            let home = try await Self.createHousehold(server, owner)
            try await Self.add(server, owner, home, admin, "ADMIN")
            // Admins add members and viewers, not admins or owners.
            try await Self.add(server, admin, home, member, "MEMBER")
            let extra = try await Self.person(server, "Xena")
            let refused = try await server.error(
                "mutation($h: UUID!, $u: UUID!) { addMember(householdId: $h, userId: $u, role: ADMIN) { role } }",
                ["h": home, "u": extra.id], token: admin.token)
            #expect(refused.code == "FORBIDDEN")
            #expect(refused.message == #"Admins can't add admins in "Home"; ask an owner for the owner role."#)
            #expect(refused.extensions["action"] as? String == "create" && refused.extensions["subject"] as? String == "Member")
            #expect(refused.extensions["reason"] as? String == #"Cannot execute "create" on "Member""#)
            try await Self.add(server, admin, home, viewer, "VIEWER")
            // Adding someone twice is a conflict.
            #expect(try await server.error(
                "mutation($h: UUID!, $u: UUID!) { addMember(householdId: $h, userId: $u, role: VIEWER) { role } }",
                ["h": home, "u": viewer.id], token: owner.token).code == "CONFLICT")

            // Admins cannot touch owners or other admins, nor promote anyone to admin.
            #expect(try await server.error(Self.changeRole, ["h": home, "u": owner.id, "r": "VIEWER"], token: admin.token).code == "FORBIDDEN")
            #expect(try await server.error(Self.remove, ["h": home, "u": owner.id], token: admin.token).code == "FORBIDDEN")
            #expect(try await server.error(Self.changeRole, ["h": home, "u": member.id, "r": "ADMIN"], token: admin.token).code == "FORBIDDEN")
            // …but manage members and viewers.
            let promoted = try await server.data(Self.changeRole, ["h": home, "u": viewer.id, "r": "MEMBER"], token: admin.token)
            #expect((promoted["changeMemberRole"] as? [String: Any])?["role"] as? String == "MEMBER")
            // Members and viewers manage nobody.
            #expect(try await server.error(Self.changeRole, ["h": home, "u": viewer.id, "r": "VIEWER"], token: member.token).code == "FORBIDDEN")
            #expect(try await server.error(Self.remove, ["h": home, "u": viewer.id], token: member.token).code == "FORBIDDEN")
            #expect(try await server.error(
                #"mutation($h: UUID!) { updateHousehold(id: $h, input: {name: "Mine"}) { name } }"#, ["h": home], token: member.token).code == "FORBIDDEN")
            #expect(try await server.error("mutation($h: UUID!) { deleteHousehold(id: $h) }", ["h": home], token: admin.token).code == "FORBIDDEN")
            #expect(try await Self.roles(server, home, as: viewer) == ["Olive": "OWNER", "Adam": "ADMIN", "Mia": "MEMBER", "Vic": "MEMBER"])

            // Only owners make owners; the last owner can neither leave nor step down.
            let lastOwner = try await server.error(Self.leave, ["h": home], token: owner.token)
            #expect(lastOwner.code == "CONFLICT")
            #expect(lastOwner.message?.contains("keeps an owner") == true)
            #expect(try await server.error(Self.changeRole, ["h": home, "u": owner.id, "r": "ADMIN"], token: owner.token).code == "CONFLICT")
            let made = try await server.data(Self.changeRole, ["h": home, "u": admin.id, "r": "OWNER"], token: owner.token)
            #expect((made["changeMemberRole"] as? [String: Any])?["role"] as? String == "OWNER")
            // With a second owner, the first may leave; a member may leave too.
            #expect(try await server.data(Self.leave, ["h": home], token: owner.token)["leaveHousehold"] as? Bool == true)
            #expect(try await server.data(Self.leave, ["h": home], token: viewer.token)["leaveHousehold"] as? Bool == true)
            #expect(try await server.error("query($h: UUID!) { household(id: $h) { name } }", ["h": home], token: owner.token).code == "NOT_FOUND")
            #expect(try await server.data(Self.remove, ["h": home, "u": member.id], token: admin.token)["removeMember"] as? Bool == true)
            #expect(try await Self.roles(server, home, as: admin) == ["Adam": "OWNER"])
        }
    }

    @Test func transferOwnership() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let (owner, admin) = (try await Self.person(server, "Olive"), try await Self.person(server, "Adam"))
            let home = try await Self.createHousehold(server, owner)
            try await Self.add(server, owner, home, admin, "ADMIN")
            let transfer = "mutation($h: UUID!, $u: UUID!) { transferOwnership(householdId: $h, userId: $u) { myRole } }"
            #expect(try await server.error(transfer, ["h": home, "u": owner.id], token: admin.token).code == "FORBIDDEN")
            #expect(try await server.error(transfer, ["h": home, "u": owner.id], token: owner.token).code == "BAD_USER_INPUT")
            let stranger = try await Self.person(server, "Sam")
            #expect(try await server.error(transfer, ["h": home, "u": stranger.id], token: owner.token).code == "NOT_FOUND")
            let done = try await server.data(transfer, ["h": home, "u": admin.id], token: owner.token)
            #expect((done["transferOwnership"] as? [String: Any])?["myRole"] as? String == "ADMIN")
            #expect(try await Self.roles(server, home, as: owner) == ["Olive": "ADMIN", "Adam": "OWNER"])
            #expect(try await server.data(Self.leave, ["h": home], token: owner.token)["leaveHousehold"] as? Bool == true)
        }
    }

    static let createInvitation = """
        mutation($h: UUID!, $r: HouseholdRole!, $e: Int, $m: Int) {
          createInvitation(householdId: $h, role: $r, expiresIn: $e, maxUses: $m) { code invitation { id role state maxUses uses createdBy { displayName } } }
        }
        """
    static let accept = "mutation($c: String!) { acceptInvitation(code: $c) { id myRole } }"

    static func invite(_ server: Server, _ by: Person, _ household: String, role: String = "MEMBER", expiresIn: Int? = nil, maxUses: Int = 1)
        async throws -> (code: String, id: String)
    {
        var variables: [String: Any] = ["h": household, "r": role, "m": maxUses]
        if let expiresIn { variables["e"] = expiresIn }
        let data = try await server.data(createInvitation, variables, token: by.token)
        let created = try #require(data["createInvitation"] as? [String: Any])
        let invitation = try #require(created["invitation"] as? [String: Any])
        #expect(invitation["state"] as? String == "ACTIVE")
        return (try #require(created["code"] as? String), try #require(invitation["id"] as? String))
    }

    @Test func invitationsJoinUntilExpiredUsedOrRevoked() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let owner = try await Self.person(server, "Olive")
            let home = try await Self.createHousehold(server, owner)
            let (bea, cal, dan, eve) = (try await Self.person(server, "Bea"), try await Self.person(server, "Cal"),
                                        try await Self.person(server, "Dan"), try await Self.person(server, "Eve"))

            // Two uses, then used up.
            let shared = try await Self.invite(server, owner, home, role: "VIEWER", maxUses: 2)
            #expect(shared.code.count >= 40 && !shared.code.contains("/") && !shared.code.contains("+"))
            let joined = try await server.data(Self.accept, ["c": shared.code], token: bea.token)
            #expect((joined["acceptInvitation"] as? [String: Any])?["myRole"] as? String == "VIEWER")
            #expect(try await server.error(Self.accept, ["c": shared.code], token: bea.token).code == "CONFLICT")
            _ = try await server.data(Self.accept, ["c": shared.code], token: cal.token)
            let usedUp = try await server.error(Self.accept, ["c": shared.code], token: dan.token)
            #expect(usedUp.code == "BAD_USER_INPUT" && usedUp.message == "This invitation has already been used.")

            // Expiry by the server's clock.
            let brief = try await Self.invite(server, owner, home, expiresIn: 3600)
            server.clock.advance(by: 3601)
            let expired = try await server.error(Self.accept, ["c": brief.code], token: dan.token)
            #expect(expired.message == "This invitation has expired.")

            // Revoked.
            let revoked = try await Self.invite(server, owner, home)
            let revoke = try await server.data("mutation($i: UUID!) { revokeInvitation(id: $i) { state revokedAt } }", ["i": revoked.id], token: owner.token)
            #expect((revoke["revokeInvitation"] as? [String: Any])?["state"] as? String == "REVOKED")
            #expect(try await server.error(Self.accept, ["c": revoked.code], token: dan.token).message == "This invitation has been revoked.")
            #expect(try await server.error(Self.accept, ["c": "not-a-code"], token: dan.token).message == "This invitation code is not valid.")
            #expect(try await Self.roles(server, home, as: owner) == ["Olive": "OWNER", "Bea": "VIEWER", "Cal": "VIEWER"])

            // Bad limits name their argument.
            for (variables, field) in [(["h": home, "r": "MEMBER", "e": 10], "expiresIn"), (["h": home, "r": "MEMBER", "m": 0], "maxUses")] as [([String: Any], String)] {
                let error = try await server.error(Self.createInvitation, variables, token: owner.token)
                #expect(error.code == "BAD_USER_INPUT" && error.extensions["field"] as? String == field)
            }

            // Listing: owners see every invitation; admins only those below admin; viewers none.
            let list = "query($h: UUID!) { invitations(householdId: $h) { totalCount edges { node { role state } } } }"
            let all = try await server.data(list, ["h": home], token: owner.token)
            let states = ((all["invitations"] as? [String: Any])?["edges"] as? [[String: Any]] ?? []).map { ($0["node"] as? [String: Any])?["state"] as? String }
            #expect(states.compactMap { $0 }.sorted() == ["EXPIRED", "REVOKED", "USED_UP"])
            try await Self.add(server, owner, home, eve, "ADMIN")
            _ = try await Self.invite(server, owner, home, role: "ADMIN")
            #expect(try await server.error(Self.createInvitation, ["h": home, "r": "ADMIN"], token: eve.token).code == "FORBIDDEN")
            let adminView = try await server.data(list, ["h": home], token: eve.token)
            #expect((adminView["invitations"] as? [String: Any])?["totalCount"] as? Int == 3)
            let ownerView = try await server.data(list, ["h": home], token: owner.token)
            #expect((ownerView["invitations"] as? [String: Any])?["totalCount"] as? Int == 4)
            #expect(try await server.error(list, ["h": home], token: bea.token).code == "FORBIDDEN")
        }
    }

    @Test func anotherHouseholdsThingsAnswerNotFoundAndStayUnchanged() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let (ada, bob, eve) = (try await Self.person(server, "Ada"), try await Self.person(server, "Bob"), try await Self.person(server, "Eve"))
            let adas = try await Self.createHousehold(server, ada, name: "Ada's")
            try await Self.add(server, ada, adas, bob, "MEMBER")
            let invitation = try await Self.invite(server, ada, adas)
            _ = try await Self.createHousehold(server, eve, name: "Eve's")

            let attempts: [(String, [String: Any])] = [
                ("query($h: UUID!) { household(id: $h) { name } }", ["h": adas]),
                ("query($h: UUID!) { invitations(householdId: $h) { totalCount } }", ["h": adas]),
                (#"mutation($h: UUID!) { updateHousehold(id: $h, input: {name: "Eve's now"}) { name } }"#, ["h": adas]),
                ("mutation($h: UUID!) { deleteHousehold(id: $h) }", ["h": adas]),
                (Self.changeRole, ["h": adas, "u": bob.id, "r": "VIEWER"]),
                (Self.remove, ["h": adas, "u": bob.id]),
                ("mutation($h: UUID!, $u: UUID!) { addMember(householdId: $h, userId: $u, role: OWNER) { role } }", ["h": adas, "u": eve.id]),
                ("mutation($h: UUID!, $u: UUID!) { transferOwnership(householdId: $h, userId: $u) { id } }", ["h": adas, "u": eve.id]),
                ("mutation($h: UUID!) { createInvitation(householdId: $h, role: OWNER) { code } }", ["h": adas]),
                ("mutation($i: UUID!) { revokeInvitation(id: $i) { state } }", ["i": invitation.id]),
                (Self.leave, ["h": adas]),
                ("query($h: UUID!) { household(id: $h) { name } }", ["h": UUID().uuidString.lowercased()]),
            ]
            for (query, variables) in attempts {
                let error = try await server.error(query, variables, token: eve.token)
                #expect(error.code == "NOT_FOUND", "\(query) → \(error)")
            }
            #expect(try await Self.roles(server, adas, as: bob) == ["Ada": "OWNER", "Bob": "MEMBER"])
            let read = try await server.data("query($h: UUID!) { household(id: $h) { name activity { totalCount } } }", ["h": adas], token: ada.token)
            let household = try #require(read["household"] as? [String: Any])
            #expect(household["name"] as? String == "Ada's")
            #expect((household["activity"] as? [String: Any])?["totalCount"] as? Int == 3)  // created, added, invited
            let list = try await server.data("query($h: UUID!) { invitations(householdId: $h) { edges { node { state } } } }", ["h": adas], token: ada.token)
            #expect(((list["invitations"] as? [String: Any])?["edges"] as? [[String: Any]])?.count == 1)
            // Eve's own list holds only her household.
            let eves = try await server.data("{ households { totalCount edges { node { name } } } }", token: eve.token)
            #expect((eves["households"] as? [String: Any])?["totalCount"] as? Int == 1)
        }
    }

    @Test func activityIsLoggedNewestFirstAndPaged() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let (ada, bob) = (try await Self.person(server, "Ada"), try await Self.person(server, "Bob"))
            let home = try await Self.createHousehold(server, ada)
            try await Self.add(server, ada, home, bob, "VIEWER")
            _ = try await server.data(Self.changeRole, ["h": home, "u": bob.id, "r": "MEMBER"], token: ada.token)
            let invitation = try await Self.invite(server, ada, home)
            let carl = try await Self.person(server, "Carl")
            _ = try await server.data(Self.accept, ["c": invitation.code], token: carl.token)
            _ = try await server.data(Self.leave, ["h": home], token: bob.token)

            let query = """
                query($h: UUID!, $a: String) { household(id: $h) { activity(first: 4, after: $a) {
                  totalCount pageInfo { hasNextPage endCursor } edges { node { kind actor { displayName } member { displayName } role previousRole } } } } }
                """
            let first = try await server.data(query, ["h": home], token: carl.token)
            let activity = try #require((first["household"] as? [String: Any])?["activity"] as? [String: Any])
            #expect(activity["totalCount"] as? Int == 6)
            let nodes = (activity["edges"] as? [[String: Any]] ?? []).compactMap { $0["node"] as? [String: Any] }
            #expect(nodes.map { $0["kind"] as? String } == ["MEMBER_LEFT", "MEMBER_JOINED", "INVITATION_CREATED", "MEMBER_ROLE_CHANGED"])
            #expect((nodes[1]["actor"] as? [String: Any])?["displayName"] as? String == "Carl")
            #expect(nodes[3]["role"] as? String == "MEMBER" && nodes[3]["previousRole"] as? String == "VIEWER")
            let cursor = try #require((activity["pageInfo"] as? [String: Any])?["endCursor"] as? String)
            let second = try await server.data(query, ["h": home, "a": cursor], token: carl.token)
            let rest = try #require((second["household"] as? [String: Any])?["activity"] as? [String: Any])
            #expect((rest["edges"] as? [[String: Any]] ?? []).map { ($0["node"] as? [String: Any])?["kind"] as? String } == ["MEMBER_ADDED", "HOUSEHOLD_CREATED"])
            #expect((rest["pageInfo"] as? [String: Any])?["hasNextPage"] as? Bool == false)
        }
    }

    @Test func deletingAHouseholdRemovesEverythingItOwns() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let (ada, bob) = (try await Self.person(server, "Ada"), try await Self.person(server, "Bob"))
            let home = try await Self.createHousehold(server, ada)
            let other = try await Self.createHousehold(server, ada, name: "Other")
            try await Self.add(server, ada, home, bob, "ADMIN")
            _ = try await Self.invite(server, ada, home)
            let deleted = try await server.data("mutation($h: UUID!) { deleteHousehold(id: $h) }", ["h": home], token: ada.token)
            #expect(deleted["deleteHousehold"] as? String == home)
            #expect(try await server.error("query($h: UUID!) { household(id: $h) { name } }", ["h": home], token: bob.token).code == "NOT_FOUND")
            let database = server.database
            for table in ["household_members", "household_invitations", "household_activity"] {
                #expect(try await database.strings("SELECT count(*)::text FROM \(table) WHERE household_id = '\(home)'") == ["0"], "\(table)")
            }
            #expect(try await database.strings("SELECT count(*)::text FROM household_members WHERE household_id = '\(other)'") == ["1"])
        }
    }

    @Test func permissionsArePackedCASLRulesPerHousehold() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let (ada, bob) = (try await Self.person(server, "Ada"), try await Self.person(server, "Bob"))
            let adas = try await Self.createHousehold(server, ada, name: "Ada's")
            let bobs = try await Self.createHousehold(server, bob, name: "Bob's")
            try await Self.add(server, ada, adas, bob, "VIEWER")
            let data = try await server.data("{ me { permissions } }", token: bob.token)
            let rules = try #require((data["me"] as? [String: Any])?["permissions"] as? [[Any]])
            func has(_ action: String, _ subject: String, _ conditions: [String: String]) -> Bool {
                rules.contains { rule in
                    rule.count >= 3 && rule[0] as? String == action && rule[1] as? String == subject
                        && (rule[2] as? [String: Any])?.mapValues { "\($0)" } == conditions
                }
            }
            // Everyone's rules, first and unconditional where CASL packs them short.
            #expect(rules.first?.count == 5 && rules.first?[0] as? String == "read" && rules.first?[4] as? String == "id,displayName,avatarURL")
            #expect(rules.contains { $0.count == 2 && $0[0] as? String == "create" && $0[1] as? String == "Household" })
            #expect(has("read,update", "User", ["id": bob.id]))
            // A viewer in Ada's household, an owner in his own: each household's rules on its id.
            #expect(has("read", "Household", ["id": adas]))
            #expect(has("read", "Household", ["id": bobs]))
            #expect(has("manage", "all", ["householdId": bobs]))
            #expect(!has("manage", "all", ["householdId": adas]))
            #expect(!has("create,update,complete", "Task", ["householdId": adas]))
            #expect(has("create,update,complete", "Task", ["householdId": bobs]))
            // The rules load back into the engine and allow what the server allows.
            let json = try #require(JSONValue.parse(try JSONSerialization.data(withJSONObject: rules)))
            guard case .array(let packed) = json else { return }
            let unpacked: [JSONValue] = packed.compactMap { rule in
                guard case .array(let parts) = rule, parts.count >= 2 else { return nil }
                var raw: [String: JSONValue] = [
                    "action": .array((parts[0].stringValue ?? "").split(separator: ",").map { .string(String($0)) }),
                    "subject": .array((parts[1].stringValue ?? "").split(separator: ",").map { .string(String($0)) }),
                ]
                if parts.count > 2, case .object = parts[2] { raw["conditions"] = parts[2] }
                if parts.count > 3, parts[3] == .number(1) { raw["inverted"] = .bool(true) }
                if parts.count > 4, let fields = parts[4].stringValue { raw["fields"] = .array(fields.split(separator: ",").map { .string(String($0)) }) }
                return .object(raw)
            }
            let ability = try Ability(json: .array(unpacked))
            let task: (String) -> AbilitySubject = { .instance(type: "Task", fields: ["householdId": .string($0)]) }
            #expect(ability.can("create", task(bobs)))
            #expect(!ability.can("create", task(adas)))
            #expect(ability.can("read", task(adas)))
        }
    }

    @Test func inviteOnlySignUpTakesACode() async throws {
        try await UsersOverHTTPTests.withServer(signUpMode: .inviteOnly) { server in
            let owner = try await server.services.users.createUser(
                email: "olive@example.org", password: "correct horse", displayName: "Olive", isAdmin: false)
            let home = try await server.services.households.createHousehold(try await server.services.households.caller(for: owner.id), name: "Home", description: nil, timeZone: "UTC")
            let created = try await server.services.households.createInvitation(
                try await server.services.households.caller(for: owner.id), householdID: home.id, role: .member, expiresIn: nil, maxUses: 1)
            let signUp = "mutation($i: SignUpInput!) { signUp(input: $i) { token user { currentHousehold { id } } } }"
            let input: [String: Any] = ["email": "new@example.org", "password": "correct horse", "displayName": "New"]
            #expect(try await server.error(signUp, ["i": input]).code == "FORBIDDEN")
            var withBadCode = input
            withBadCode["invitationCode"] = "wrong"
            let bad = try await server.error(signUp, ["i": withBadCode])
            #expect(bad.code == "BAD_USER_INPUT" && bad.extensions["field"] as? String == "code")
            #expect(try await server.services.users.user(email: "new@example.org") == nil, "an unusable code creates no account")
            var withCode = input
            withCode["invitationCode"] = created.code
            let data = try await server.data(signUp, ["i": withCode])
            let token = try #require((data["signUp"] as? [String: Any])?["token"] as? String)
            let households = try await server.data("{ households { edges { node { id myRole } } } }", token: token)
            let node = ((households["households"] as? [String: Any])?["edges"] as? [[String: Any]])?.first?["node"] as? [String: Any]
            #expect(node?["id"] as? String == home.id.uuidString.lowercased() && node?["myRole"] as? String == "MEMBER")
        }
    }

    @Test func deletingAnAccountLeavesHouseholdsAndAPlaceholder() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let (ada, bob) = (try await Self.person(server, "Ada"), try await Self.person(server, "Bob"))
            let home = try await Self.createHousehold(server, ada)
            try await Self.add(server, ada, home, bob, "MEMBER")
            let bobs = try await Self.createHousehold(server, bob, name: "Bob's")
            let delete = #"mutation { deleteAccount(password: "correct horse") }"#
            // Bob owns a household alone: refused, naming it; nothing changes.
            let refused = try await server.error(delete, token: bob.token)
            #expect(refused.code == "CONFLICT" && refused.message?.contains("\"Bob's\"") == true)
            #expect(try await Self.roles(server, home, as: ada)["Bob"] == "MEMBER")
            _ = try await server.data("mutation($h: UUID!) { deleteHousehold(id: $h) }", ["h": bobs], token: bob.token)
            #expect(try await server.data(delete, token: bob.token)["deleteAccount"] as? Bool == true)
            #expect(try await Self.roles(server, home, as: ada) == ["Ada": "OWNER"])
            let data = try await server.data(
                "query($h: UUID!) { household(id: $h) { activity { edges { node { kind actor { id displayName } member { displayName } } } } } }",
                ["h": home], token: ada.token)
            let nodes = (((data["household"] as? [String: Any])?["activity"] as? [String: Any])?["edges"] as? [[String: Any]] ?? [])
                .compactMap { $0["node"] as? [String: Any] }
            #expect(nodes.first?["kind"] as? String == "MEMBER_LEFT")
            #expect((nodes.first?["actor"] as? [String: Any])?["displayName"] as? String == "Deleted user")
            #expect((nodes.first?["actor"] as? [String: Any])?["id"] as? String == "00000000-0000-0000-0000-000000000000")
            #expect(nodes.contains { ($0["member"] as? [String: Any])?["displayName"] as? String == "Deleted user" && $0["kind"] as? String == "MEMBER_ADDED" })
        }
    }

    @Test func currentHouseholdFollowsPreferences() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let ada = try await Self.person(server, "Ada")
            // The first household someone creates becomes their current one; a second does not.
            let home = try await Self.createHousehold(server, ada)
            let cabin = try await Self.createHousehold(server, ada, name: "Cabin")
            func current(_ person: Person) async throws -> String? {
                let data = try await server.data("{ me { currentHousehold { id } preferences { lastHouseholdId } } }", token: person.token)
                return ((data["me"] as? [String: Any])?["currentHousehold"] as? [String: Any])?["id"] as? String
            }
            #expect(try await current(ada) == home)
            _ = try await server.data("mutation($h: UUID!) { updatePreferences(input: {lastHouseholdId: $h}) { lastHouseholdId } }", ["h": cabin], token: ada.token)
            #expect(try await current(ada) == cabin)

            // A household the person is not in is refused like any id they may not read, and nothing is stored.
            let bob = try await Self.person(server, "Bob")
            let foreign = try await server.error(
                "mutation($h: UUID!) { updatePreferences(input: {lastHouseholdId: $h}) { lastHouseholdId } }", ["h": home], token: bob.token)
            #expect(foreign.code == "NOT_FOUND")
            let missing = try await server.error(
                "mutation($h: UUID!) { updatePreferences(input: {lastHouseholdId: $h}) { lastHouseholdId } }",
                ["h": UUID().uuidString], token: bob.token)
            #expect(missing.code == "NOT_FOUND")
            let imported = try await server.error(
                "mutation($j: JSON!) { importPreferences(preferences: $j) { lastHouseholdId } }", ["j": ["lastHouseholdId": home]], token: bob.token)
            #expect(imported.code == "NOT_FOUND")
            let exported = try await server.data("{ me { preferences { lastHouseholdId } } }", token: bob.token)
            #expect(((exported["me"] as? [String: Any])?["preferences"] as? [String: Any])?["lastHouseholdId"] is NSNull)

            // Someone joining with no current household gets the one they join.
            try await Self.add(server, ada, cabin, bob, "VIEWER")
            #expect(try await current(bob) == cabin)

            _ = try await server.data("mutation($h: UUID!) { deleteHousehold(id: $h) }", ["h": cabin], token: ada.token)
            #expect(try await current(ada) == nil)
            // With the current one gone, the next household joined becomes current.
            let attic = try await Self.createHousehold(server, ada, name: "Attic")
            #expect(try await current(ada) == attic)
        }
    }

    /// A refusal is a sentence naming the role, the household and the way out; CASL's details stay in extensions.
    @Test func refusalsSpeakToPeople() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let (_, member, viewer, street) = try await Self.householdOfThree(server, ("Olive", "Mia", "Vic"), name: "Elm Street")
            let task = try await server.error(
                #"mutation($h: UUID!) { createTask(householdId: $h, input: {title: "Bins"}) { id } }"#, ["h": street], token: viewer.token)
            #expect(task.code == "FORBIDDEN")
            #expect(task.message == #"Viewers can't create tasks in "Elm Street"; ask an admin for the member role."#)
            #expect(task.extensions["action"] as? String == "create")
            #expect(task.extensions["subject"] as? String == "Task")
            #expect(task.extensions["reason"] as? String == #"Cannot execute "create" on "Task""#)
            #expect(task.extensions["neededRole"] as? String == "MEMBER")
            let rename = try await server.error(
                #"mutation($h: UUID!) { updateHousehold(id: $h, input: {name: "Oak"}) { id } }"#, ["h": street], token: member.token)
            #expect(rename.message == #"Members can't change the settings of "Elm Street"; ask an owner for the admin role."#)
            let delete = try await server.error("mutation($h: UUID!) { deleteHousehold(id: $h) }", ["h": street], token: member.token)
            #expect(delete.message == #"Members can't delete "Elm Street"; ask an owner for the owner role."#)
        }
    }
}
