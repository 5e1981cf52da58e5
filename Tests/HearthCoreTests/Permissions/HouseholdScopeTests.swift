import Foundation
import HearthCore
import Testing

/// `householdScope`: where it reduces a caller's rules to households, a subject is allowed exactly
/// when its household is in that scope, as the ability engine decides it subject by subject.
@Suite struct HouseholdScopeTests {
    static let households = [
        "6f1c1d58-94a1-4a53-9c56-0a1d8c1b5a01", "a3b2c1d0-0000-4000-8000-000000000002", "0b7e4f2a-5c3d-4e1f-9a8b-7c6d5e4f3a2b",
    ]

    /// Conditions the rule sets draw from: on the household (each spelling and operator the SQL
    /// form treats specially) and on other fields.
    static let conditionPool: [String] = [
        #"{"householdId": "\#(households[0])"}"#,
        #"{"householdId": {"$in": ["\#(households[1])", "\#(households[2])"]}}"#,
        #"{"householdId": {"$in": []}}"#,
        #"{"householdId": "\#(households[0].uppercased())"}"#,
        #"{"householdId": "not-a-uuid"}"#,
        #"{"householdId": 7}"#,
        #"{"householdId": null}"#,
        #"{"householdId": {"$in": ["\#(households[0])", null]}}"#,
        #"{"householdId": {"$ne": "\#(households[1])"}}"#,
        #"{"householdId": {"$eq": "\#(households[2])"}}"#,
        #"{"householdId": "\#(households[1])", "id": "\#(households[1])"}"#,
        #"{"id": "\#(households[0])"}"#,
        "{}",
    ]

    static func ruleSets() -> [String] {
        ["[]", #"[{"action": "read", "subject": "Store"}]"#, #"[{"action": "manage", "subject": "all"}]"#]
            + AbilityJSON.generatedRuleSets(subject: "Store", conditions: conditionPool)
    }

    @Test func aScopeAllowsExactlyTheHouseholdsTheEngineAllows() throws {
        var reduced = 0
        var beyond = 0
        let ids = Self.households.compactMap(UUID.init(uuidString:)) + [UUID()]
        for rules in Self.ruleSets() {
            let ability = try AbilityJSON.ability(rules)
            guard let allowed = ability.householdScope("read", subjectType: "Store").allowed(ids) else {
                beyond += 1
                continue
            }
            let expected = ids.filter { id in
                ability.can("read", .instance(type: "Store", fields: ["householdId": .string(id.lowercasedString)]))
            }
            #expect(allowed == expected, "\(rules)")
            reduced += 1
        }
        #expect(reduced > 100)
        #expect(beyond > 50)
    }

    @Test func aMembersRulesAreTheirHouseholds() throws {
        let member = try AbilityJSON.ability(#"[{"action": "read", "subject": "Store", "conditions": {"householdId": {"$in": ["\#(Self.households[0])", "\#(Self.households[1])"]}}}]"#)
        #expect(member.householdScope("read", subjectType: "Store") == .households(Set(Self.households[0...1].compactMap(UUID.init(uuidString:)))))
        #expect(member.householdScope("update", subjectType: "Store") == .households([]))
        let admin = try AbilityJSON.ability(#"[{"action": "manage", "subject": "all"}]"#)
        #expect(admin.householdScope("read", subjectType: "Store") == .everyHousehold)
        let byStore = try AbilityJSON.ability(#"[{"action": "read", "subject": "Store", "conditions": {"id": "\#(Self.households[0])"}}]"#)
        #expect(byStore.householdScope("read", subjectType: "Store") == .beyondHouseholds)
        let denied = try AbilityJSON.ability(#"[{"action": "read", "subject": "Store"}, {"action": "read", "subject": "Store", "inverted": true, "conditions": {"householdId": "\#(Self.households[0])"}}]"#)
        #expect(denied.householdScope("read", subjectType: "Store") == .beyondHouseholds)
    }
}
