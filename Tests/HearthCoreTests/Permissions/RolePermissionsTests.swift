import Foundation
import HearthCore
import HearthTestSupport
import Testing

/// The role rules stored in `role_permissions`: the shipped ones load and give each role what
/// the role table in docs/graphql-api.md says; bad ones are refused naming the role and the rule.
@Suite struct RolePermissionsTests {
    static func ability(_ permissions: RolePermissions, user: UUID, _ households: [(UUID, String)]) throws -> Ability {
        Ability(rules: try permissions.rules(userID: user, households: households.map { (id: $0.0, role: $0.1) }))
    }

    static func subject(_ type: String, _ household: UUID, _ extra: [String: JSONValue] = [:]) -> AbilitySubject {
        .instance(type: type, fields: extra.merging(["householdId": .string(household.uuidString.lowercased())]) { $1 })
    }

    /// Every shipped role reads stores by household alone, so a page of stores is read by the
    /// prepared statement (``HouseholdScope``), not by SQL written for each caller.
    @Test func shippedRulesReadStoresByHousehold() async throws {
        try await withTestDatabase { database, _ in
            let permissions = try await RolePermissions.load(from: database, logger: database.logger)
            let (user, home, other) = (UUID(), UUID(), UUID())
            for role in ["VIEWER", "MEMBER", "ADMIN", "OWNER"] {
                let ability = try Self.ability(permissions, user: user, [(home, role), (other, "VIEWER")])
                #expect(ability.householdScope("read", subjectType: "Store") == .households([home, other]), "\(role)")
            }
            #expect(try Self.ability(permissions, user: user, []).householdScope("read", subjectType: "Store") == .households([]))
        }
    }

    @Test func shippedRulesGiveEachRoleItsRights() async throws {
        try await withTestDatabase { database, _ in
            let permissions = try await RolePermissions.load(from: database, logger: database.logger)
            let (user, home, other) = (UUID(), UUID(), UUID())
            let table: [(role: String, allowed: [(String, String)], denied: [(String, String)])] = [
                ("VIEWER", [("read", "Member"), ("read", "Store"), ("read", "Product"), ("read", "Event"), ("read", "Task"), ("read", "Label"), ("read", "Activity"),
                  ("markRead", "Event")],
                 [("create", "Task"), ("sync", "Store"), ("create", "Label"), ("read", "Invitation")]),
                ("MEMBER", [("create", "Task"), ("update", "Task"), ("complete", "Task"), ("create", "Label"), ("sync", "Store"), ("markRead", "Event")],
                 [("delete", "Task"), ("delete", "Label"), ("create", "Store"), ("create", "Invitation")]),
                ("ADMIN", [("delete", "Task"), ("delete", "Label"), ("create", "Store"), ("delete", "Store"), ("update", "Label")],
                 [("delete", "Household")]),
                ("OWNER", [("delete", "Household"), ("create", "Invitation"), ("delete", "Member"), ("anything", "Task")], []),
            ]
            for (role, allowed, denied) in table {
                let ability = try Self.ability(permissions, user: user, [(home, role)])
                for (action, type) in allowed {
                    let subject = type == "Household"
                        ? AbilitySubject.instance(type: type, fields: ["id": .string(home.uuidString.lowercased()), "householdId": .string(home.uuidString.lowercased())])
                        : Self.subject(type, home, ["role": .string("OWNER")])
                    #expect(ability.can(action, type == "Member" || type == "Invitation" ? Self.subject(type, home, ["role": .string("MEMBER")]) : subject),
                            "\(role) may \(action) \(type)")
                    // Never in a household they do not belong to.
                    #expect(!ability.can(action, Self.subject(type, other, ["role": .string("MEMBER")])), "\(role) may not \(action) another household's \(type)")
                }
                for (action, type) in denied {
                    let subject = type == "Household"
                        ? AbilitySubject.instance(type: type, fields: ["id": .string(home.uuidString.lowercased()), "householdId": .string(home.uuidString.lowercased())])
                        : Self.subject(type, home, ["role": .string("MEMBER")])
                    #expect(!ability.can(action, subject), "\(role) may not \(action) \(type)")
                }
            }
            // Admins manage members below admin only.
            let admin = try Self.ability(permissions, user: user, [(home, "ADMIN")])
            #expect(admin.can("update", Self.subject("Member", home, ["role": .string("VIEWER"), "userId": .string("x")])))
            #expect(!admin.can("update", Self.subject("Member", home, ["role": .string("ADMIN"), "userId": .string("x")])))
            #expect(!admin.can("delete", Self.subject("Member", home, ["role": .string("OWNER"), "userId": .string("x")])))
            // Everyone signed in reads public user fields, updates only themselves, creates households.
            let anyone = try Self.ability(permissions, user: user, [])
            #expect(anyone.can("read", .type("User"), field: "displayName"))
            #expect(!anyone.can("read", .instance(type: "User", fields: ["id": .string("someone-else")]), field: "email"))
            #expect(anyone.can("update", .instance(type: "User", fields: ["id": .string(user.uuidString.lowercased())])))
            #expect(!anyone.can("update", .instance(type: "User", fields: ["id": .string(UUID().uuidString.lowercased())])))
            #expect(anyone.can("create", .type("Household")))
        }
    }

    @Test func badTemplatesAreRefusedNamingRoleAndRule() {
        let cases: [([String: [JSONValue]], String)] = [
            (["MEMBER": [AbilityJSON.value(#"{"action": "read", "subject": "Task"}"#),
                         AbilityJSON.value(#"{"action": "read", "subject": "Task", "conditions": {"a": {"$where": 1}}}"#)]],
             #"role MEMBER, rule 1: unsupported operator "$where""#),
            (["VIEWER": [AbilityJSON.value(#"{"action": "read", "subject": "Task", "conditions": {"householdId": "${household.name}"}}"#)]],
             "unknown placeholder ${household.name}"),
            (["SIGNED_IN": [AbilityJSON.value(#"{"action": "read", "subject": "Task", "conditions": {"householdId": "${household.id}"}}"#)]],
             "only known in household roles"),
            (["GUEST": []], #"unknown role "GUEST""#),
        ]
        for (templates, expected) in cases {
            do {
                _ = try RolePermissions(templates: templates)
                Issue.record("loaded: \(templates)")
            } catch {
                #expect(error.description.contains(expected), "\(error)")
            }
        }
    }
}
