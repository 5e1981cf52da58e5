import HearthCore
import Testing

/// Rule precedence, `manage`/`all`, aliases, subject types against instances and fields, each
/// case as CASL's documentation describes it.
@Suite struct AbilityTests {
    typealias J = AbilityJSON

    @Test func rulesAllowOnlyWhatTheyName() throws {
        let ability = try J.ability(#"[{"action": "read", "subject": "Post"}]"#)
        #expect(ability.can("read", .type("Post")))
        #expect(!ability.can("update", .type("Post")))
        #expect(!ability.can("read", .type("Comment")))
        #expect(ability.cannot("read", .type("Comment")))
        #expect(!(try J.ability("[]")).can("read", .type("Post")))
    }

    @Test func manageMeansEveryActionAndAllEverySubject() throws {
        let managePosts = try J.ability(#"[{"action": "manage", "subject": "Post"}]"#)
        #expect(managePosts.can("read", .type("Post")))
        #expect(managePosts.can("archive", .type("Post")))
        #expect(!managePosts.can("read", .type("User")))
        let readAll = try J.ability(#"[{"action": "read", "subject": "all"}]"#)
        #expect(readAll.can("read", .type("User")))
        #expect(readAll.can("read", .none))
        #expect(!readAll.can("delete", .type("User")))
        let everything = try J.ability(#"[{"action": "manage", "subject": "all"}]"#)
        #expect(everything.can("delete", .type("Anything")))
        // A rule with no subject is a rule on `all`.
        let claim = try J.ability(#"[{"action": "review"}]"#)
        #expect(claim.can("review", .none))
        #expect(claim.can("review", .type("Post")))
        // Checking `manage` needs a manage rule; a read rule is not enough.
        #expect(!readAll.can("manage", .type("User")))
        #expect(everything.can("manage", .type("User")))
    }

    @Test func laterRulesTakePrecedence() throws {
        let cannotLast = try J.ability(#"[{"action": "manage", "subject": "Post"}, {"action": "delete", "subject": "Post", "inverted": true}]"#)
        #expect(cannotLast.can("read", .type("Post")))
        #expect(!cannotLast.can("delete", .type("Post")))
        let canLast = try J.ability(#"[{"action": "delete", "subject": "Post", "inverted": true}, {"action": "manage", "subject": "Post"}]"#)
        #expect(canLast.can("delete", .type("Post")))
        // A later rule on `all` outranks an earlier rule on the type, and the other way round.
        let allLast = try J.ability(#"[{"action": "read", "subject": "Post"}, {"action": "read", "subject": "all", "inverted": true}]"#)
        #expect(!allLast.can("read", .type("Post")))
        let typeLast = try J.ability(#"[{"action": "read", "subject": "all", "inverted": true}, {"action": "read", "subject": "Post"}]"#)
        #expect(typeLast.can("read", .type("Post")))
        #expect(!typeLast.can("read", .type("User")))
    }

    @Test func conditionsOnTypesAndInstances() throws {
        let ability = try J.ability(#"[{"action": "read", "subject": "Post", "conditions": {"authorId": 1}}]"#)
        // A conditional `can` passes a check on the type: some post may be readable.
        #expect(ability.can("read", .type("Post")))
        #expect(ability.can("read", J.subject("Post", #"{"authorId": 1}"#)))
        #expect(!ability.can("read", J.subject("Post", #"{"authorId": 2}"#)))
        #expect(!ability.can("read", J.subject("Post", "{}")))

        let hidden = try J.ability(#"""
            [{"action": "read", "subject": "Post"},
             {"action": "read", "subject": "Post", "inverted": true, "conditions": {"private": true}}]
            """#)
        // A conditional `cannot` does not deny the type…
        #expect(hidden.can("read", .type("Post")))
        // …but does deny the instances it matches.
        #expect(!hidden.can("read", J.subject("Post", #"{"private": true}"#)))
        #expect(hidden.can("read", J.subject("Post", #"{"private": false}"#)))
    }

    /// CASL v7 ("treats empty conditions as always matching"): `{}` is no condition at all, so such
    /// a rule also decides checks on the subject type (v6 counted `{}` as conditions and skipped it).
    @Test func emptyConditionsMatchEverythingAndApplyToTypes() throws {
        let ability = try J.ability(#"[{"action": "read", "subject": "Post", "conditions": {}}]"#)
        #expect(ability.can("read", J.subject("Post", #"{"anything": 1}"#)))
        #expect(ability.can("read", .type("Post")))
        let denied = try J.ability(#"[{"action": "read", "subject": "Post"}, {"action": "read", "subject": "Post", "conditions": {}, "inverted": true}]"#)
        #expect(!denied.can("read", J.subject("Post", "{}")))
        #expect(!denied.can("read", .type("Post")))
        #expect(try denied.sqlCondition("read", subjectType: "Post", columns: SQLColumns([:])) == nil)

        let noAdminFlag = try J.ability(#"""
            [{"action": "manage", "subject": "User", "conditions": {}},
             {"action": "update", "subject": "User", "fields": ["admin"], "conditions": {}, "inverted": true}]
            """#)
        #expect(!noAdminFlag.can("update", .type("User"), field: "admin"))
        #expect(!noAdminFlag.can("update", J.subject("User", #"{"id": 1}"#), field: "admin"))
        #expect(noAdminFlag.can("update", .type("User"), field: "name"))
        #expect(noAdminFlag.can("read", .type("User")))
        // Packed for clients without the empty conditions, so a CASL v6 client decides the same.
        #expect(noAdminFlag.rules.allSatisfy { $0.conditions == nil })
    }

    @Test func aliasesExpandRecursively() throws {
        let ability = try J.ability(
            #"[{"action": "modify", "subject": "Post"}]"#,
            aliases: #"{"modify": ["update", "remove"], "remove": "delete"}"#)
        #expect(ability.can("modify", .type("Post")))
        #expect(ability.can("update", .type("Post")))
        #expect(ability.can("remove", .type("Post")))
        #expect(ability.can("delete", .type("Post")))
        #expect(!ability.can("read", .type("Post")))
        #expect(J.loadError("[]", aliases: #"{"a": "b", "b": "a"}"#)?.contains("cycle") == true)
        #expect(J.loadError("[]", aliases: #"{"manage": "update"}"#)?.contains("reserved") == true)
        #expect(J.loadError("[]", aliases: #"{"everything": ["read", "manage"]}"#)?.contains("reserved") == true)
    }

    @Test func fieldRules() throws {
        let ability = try J.ability(#"""
            [{"action": "read", "subject": "User", "fields": ["id", "displayName"]},
             {"action": "update", "subject": "User"},
             {"action": "update", "subject": "User", "fields": "isAdmin", "inverted": true}]
            """#)
        #expect(ability.can("read", .type("User"), field: "displayName"))
        #expect(!ability.can("read", .type("User"), field: "email"))
        // Without a field, a field-restricted `can` counts and a field-restricted `cannot` does not.
        #expect(ability.can("read", .type("User")))
        #expect(ability.can("update", .type("User")))
        #expect(ability.can("update", .type("User"), field: "displayName"))
        #expect(!ability.can("update", .type("User"), field: "isAdmin"))
        #expect(J.loadError(#"[{"action": "read", "subject": "User", "fields": []}]"#)?.contains("empty array") == true)
    }

    @Test(arguments: [
        ("author.*", "author", true), ("author.*", "author.name", true), ("author.*", "author.address.city", false),
        ("author.**", "author.address.city", true), ("author.**", "author", true), ("author.**", "authors", false),
        ("*.name", "author.name", true), ("*.name", "name", false), ("*.name", "author.pet.name", false),
        ("**.name", "author.pet.name", true),
        ("street*", "street", true), ("street*", "street1", true), ("street*", "street.name", false),
        ("author.*.name", "author.pet.name", true), ("author.*.name", "author.name", false),
        ("**", "anything.at.all", true), ("*", "top", true), ("*", "two.levels", false),
        ("title", "title", true), ("title", "titles", false), ("a-b.(c)", "a-b.(c)", true),
    ])
    func fieldPatterns(pattern: String, field: String, covered: Bool) throws {
        let ability = try J.ability(#"[{"action": "read", "subject": "Post", "fields": ["\#(pattern)"]}]"#)
        #expect(ability.can("read", .type("Post"), field: field) == covered)
    }

    @Test func aFieldHoldingAStarMatchesOnlyLiterally() throws {
        let ability = try J.ability(#"[{"action": "read", "subject": "Post", "fields": ["author.*"]}]"#)
        #expect(ability.can("read", .type("Post"), field: "author.*"))
        #expect(!ability.can("read", .type("Post"), field: "*"))
    }

    @Test func forbiddenErrorsGiveTheDecidingReason() throws {
        let ability = try J.ability(#"""
            [{"action": "manage", "subject": "Post"},
             {"action": "delete", "subject": "Post", "inverted": true, "conditions": {"published": true},
              "reason": "Published posts cannot be deleted"}]
            """#)
        #expect(throws: Never.self) { try ability.authorize("delete", J.subject("Post", #"{"published": false}"#)) }
        #expect(throws: ForbiddenError.self) { try ability.authorize("delete", J.subject("Post", #"{"published": true}"#)) }
        do {
            try ability.authorize("delete", J.subject("Post", #"{"published": true}"#))
        } catch {
            #expect(error.message == "Published posts cannot be deleted")
        }
        do {
            try ability.authorize("read", .type("Comment"))
            Issue.record("reading comments was allowed")
        } catch {
            #expect(error.message == #"Cannot execute "read" on "Comment""#)
            #expect(error.reason == nil)
        }
    }

    @Test func subjectsReadFromJSON() throws {
        #expect(try AbilitySubject(json: nil) == .none)
        #expect(try AbilitySubject(json: .string("Post")) == .type("Post"))
        let tagged = try AbilitySubject(json: J.value(#"{"__caslSubjectType__": "Post", "id": 1}"#))
        #expect(tagged == .instance(type: "Post", fields: ["id": .number(1)]))
        #expect(try AbilitySubject(json: J.value(#"{"id": 1}"#)).typeName == "Object")
        #expect(throws: PermissionRuleError.self) { try AbilitySubject(json: .number(3)) }
    }

    @Test func packedRulesFollowPackRules() throws {
        let ability = try J.ability(#"""
            [{"action": "read", "subject": "Post"},
             {"action": ["create", "update"], "subject": ["Post", "Comment"], "conditions": {"authorId": 1}},
             {"action": "delete", "subject": "Post", "inverted": true, "reason": "never"},
             {"action": "read", "subject": "User", "fields": ["id", "displayName"]},
             {"action": "update", "subject": "User", "conditions": {}}]
            """#)
        // Empty conditions are none (CASL v7): packed without them, so every CASL version agrees.
        #expect(ability.packedRules.jsonText == #"""
            [["read","Post"],["create,update","Post,Comment",{"authorId":1}],["delete","Post",0,1,0,"never"],\#
            ["read","User",0,0,"id,displayName"],["update","User"]]
            """#)
    }

    @Test func badRulesAreRefusedWhenLoaded() {
        let cases: [(String, String)] = [
            (#"[{"action": "read", "subject": "Post", "conditions": {"$where": "1"}}]"#, #"unsupported operator "$where""#),
            (#"[{"action": "read", "subject": "Post", "conditions": {"$or": [{"a": 1}]}}]"#, #"unsupported operator "$or""#),
            (#"[{"action": "read", "subject": "Post", "conditions": {"a": {"$mod": [2, 0]}}}]"#, #"unsupported operator "$mod""#),
            (#"[{"action": "read", "subject": "Post", "conditions": {"a": {"$not": {"$eq": 1}}}}]"#, #"unsupported operator "$not""#),
            (#"[{"action": "read", "subject": "Post", "conditions": {"a": {"$in": 5}}}]"#, #""$in" on "a" expects an array"#),
            (#"[{"action": "read", "subject": "Post", "conditions": {"a": {"$lt": true}}}]"#, #""$lt" on "a" expects a string or a number"#),
            (#"[{"action": "read", "subject": "Post", "conditions": {"a": {"$exists": "yes"}}}]"#, #""$exists" on "a" expects true or false"#),
            (#"[{"action": "read", "subject": "Post", "conditions": {"a": {"$size": "2"}}}]"#, #""$size" on "a" expects a number"#),
            (#"[{"action": "read", "subject": "Post", "conditions": {"a": {"$regex": "("}}}]"#, "invalid regular expression"),
            (#"[{"action": "read", "subject": "Post", "conditions": {"a": {"$regex": "x", "$options": "q"}}}]"#, #"flag "q""#),
            (#"[{"action": "read", "subject": "Post", "conditions": {"a": {"$gt": 1, "b": 2}}}]"#, #"only operators"#),
            (#"[{"action": "read", "subject": "Post", "conditions": {"a": {"$elemMatch": 3}}}]"#, #""$elemMatch" on "a" expects an object"#),
            (#"[{"action": "read", "subject": "Post", "conditions": {"a": {"$elemMatch": {"$foo": 1}}}}]"#, #"unsupported operator "$foo""#),
            (#"[{"action": "read", "subject": "Post", "priority": 1}]"#, #"unknown rule key "priority""#),
            (#"[{"subject": "Post"}]"#, #"needs "action""#),
            (#"[{"action": "read", "subject": "Post"}, {"action": "", "subject": "Post"}]"#, "rule 1:"),
            (#"[{"action": "read", "subject": "Post", "inverted": "yes"}]"#, #""inverted" must be true or false"#),
            (#"[{"action": "read", "subject": "Post", "conditions": [1]}]"#, #""conditions" must be an object"#),
            (#"{"action": "read"}"#, "rules must be a JSON array"),
        ]
        for (rules, expected) in cases {
            let error = J.loadError(rules)
            #expect(error?.contains(expected) == true, "\(rules) → \(error ?? "loaded")")
        }
    }
}
