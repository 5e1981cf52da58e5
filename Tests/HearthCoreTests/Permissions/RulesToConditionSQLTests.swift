import Foundation
import HearthCore
import HearthTestSupport
import PostgresNIO
import Testing

/// `rulesToCondition` as SQL: for many rule sets, the rows a generated `WHERE` selects from a real
/// table are exactly the rows the ability engine allows when it checks each row as an instance.
@Suite struct RulesToConditionSQLTests {
    static let columns = SQLColumns([
        "id": .init("id", .number),
        "ownerId": .init("owner_id", .uuid),
        "status": .init("status", .text),
        "views": .init("views", .number),
        "published": .init("published", .boolean),
        "tags": .init("tags", .textArray),
    ])

    static let owners = ["6f1c1d58-94a1-4a53-9c56-0a1d8c1b5a01", "a3b2c1d0-0000-4000-8000-000000000002"]

    /// Twelve rows covering NULLs, both owners, several statuses and tag sets.
    static let rows: [(id: Int, owner: String?, status: String?, views: Double?, published: Bool?, tags: [String]?)] = [
        (1, owners[0], "draft", 0, false, []),
        (2, owners[0], "published", 10, true, ["red"]),
        (3, owners[1], "published", 25.5, true, ["red", "blue"]),
        (4, owners[1], "review", 5, false, ["blue"]),
        (5, nil, "draft", nil, nil, nil),
        (6, owners[0], nil, 100, true, ["green", "red", "blue"]),
        (7, owners[1], "Draft", -1, nil, ["RED"]),
        (8, nil, "archived", 10, false, ["red", "red"]),
        (9, owners[0], "review", 9.99, true, nil),
        (10, owners[1], "", 0, true, [""]),
        (11, owners[0], "published", 42, false, ["green"]),
        (12, owners[1], "draft", 7, true, ["blue", "green"]),
    ]

    /// Condition fragments the rule sets draw from: every operator SQL can express, on each kind.
    static let conditionPool: [String] = [
        #"{"ownerId": "\#(owners[0])"}"#,
        #"{"ownerId": {"$ne": "\#(owners[1])"}}"#,
        #"{"ownerId": null}"#,
        #"{"ownerId": "not-a-uuid"}"#,
        #"{"ownerId": {"$in": ["\#(owners[1])", null]}}"#,
        #"{"status": "draft"}"#,
        #"{"status": {"$in": ["draft", "review"]}}"#,
        #"{"status": {"$nin": ["published"]}}"#,
        #"{"status": {"$regex": "^dr"}}"#,
        #"{"status": {"$regex": "^dr", "$options": "i"}}"#,
        #"{"status": {"$gt": "d"}}"#,
        #"{"status": {"$lte": "draft"}}"#,
        #"{"status": {"$exists": false}}"#,
        #"{"status": 3}"#,
        #"{"views": {"$gte": 10}}"#,
        #"{"views": {"$lt": 10, "$gt": 0}}"#,
        #"{"views": 10}"#,
        #"{"views": {"$ne": 0}}"#,
        #"{"views": "10"}"#,
        #"{"views": {"$lt": "z"}}"#,
        #"{"published": true}"#,
        #"{"published": {"$ne": true}}"#,
        #"{"published": {"$exists": true}}"#,
        #"{"tags": "red"}"#,
        #"{"tags": {"$all": ["red", "blue"]}}"#,
        #"{"tags": {"$all": []}}"#,
        #"{"tags": {"$size": 1}}"#,
        #"{"tags": {"$in": ["green", "RED"]}}"#,
        #"{"tags": {"$nin": ["red"]}}"#,
        #"{"tags": {"$regex": "^gr"}}"#,
        #"{"tags": null}"#,
        #"{"id": {"$in": [1, 3, 5, 7]}}"#,
        "{}",
        #"{"status": "draft", "published": {"$ne": false}}"#,
    ]

    /// Hand-picked rule sets for each branch of the folding, then seeded random ones.
    static func ruleSets() -> [String] {
        let c = conditionPool
        let sets = [
            "[]",
            #"[{"action": "read", "subject": "Doc"}]"#,
            #"[{"action": "read", "subject": "Doc", "inverted": true}]"#,
            #"[{"action": "read", "subject": "Doc", "conditions": \#(c[0])}]"#,
            #"[{"action": "read", "subject": "Doc"}, {"action": "read", "subject": "Doc", "inverted": true, "conditions": \#(c[5])}]"#,
            #"[{"action": "read", "subject": "Doc", "conditions": \#(c[5])}, {"action": "read", "subject": "Doc", "inverted": true}]"#,
            #"[{"action": "read", "subject": "Doc", "inverted": true, "conditions": \#(c[5])}, {"action": "read", "subject": "Doc"}]"#,
            #"[{"action": "manage", "subject": "all", "conditions": \#(c[20])}, {"action": "read", "subject": "Doc", "inverted": true, "conditions": \#(c[23])}]"#,
            #"[{"action": "read", "subject": "Doc", "fields": ["title"], "conditions": \#(c[14])}, {"action": "read", "subject": "Doc", "fields": ["title"], "inverted": true}]"#,
            #"[{"action": "read", "subject": "Other"}, {"action": "update", "subject": "Doc"}]"#,
            // CASL v7: empty conditions are none, in SQL as in checks.
            #"[{"action": "read", "subject": "Doc"}, {"action": "read", "subject": "Doc", "inverted": true, "conditions": {}}]"#,
            #"[{"action": "manage", "subject": "Doc", "conditions": {}}, {"action": "read", "subject": "Doc", "fields": ["admin"], "conditions": {}, "inverted": true}]"#,
            #"[{"action": "read", "subject": "Doc", "conditions": {}}, {"action": "read", "subject": "Doc", "inverted": true, "conditions": \#(c[5])}]"#,
        ]
        return sets + AbilityJSON.generatedRuleSets(subject: "Doc", conditions: c)
    }

    @Test func generatedSQLSelectsExactlyTheRowsTheEngineAllows() async throws {
        try await withTestDatabase { database, _ in
            let logger = database.logger
            try await database.client.query(
                "CREATE TABLE docs (id int PRIMARY KEY, owner_id uuid, status text, views float8, published boolean, tags text[])",
                logger: logger)
            for row in Self.rows {
                try await database.client.query(
                    "INSERT INTO docs VALUES (\(row.id), \(row.owner.flatMap(UUID.init(uuidString:))), \(row.status), \(row.views), \(row.published), \(row.tags))",
                    logger: logger)
            }
            var compared = 0
            var emptyWithoutQuery = 0
            for rules in Self.ruleSets() {
                let ability = try AbilityJSON.ability(rules)
                let expected = Self.rows.filter { ability.can("read", .instance(type: "Doc", fields: Self.fields(of: $0))) }.map(\.id)
                guard let condition = try ability.sqlCondition("read", subjectType: "Doc", columns: Self.columns) else {
                    #expect(expected.isEmpty, "nothing allowed by SQL, but the engine allows \(expected) for \(rules)")
                    emptyWithoutQuery += 1
                    continue
                }
                let rows = try await database.client.query("SELECT id FROM docs WHERE \(condition) ORDER BY id", logger: logger)
                var selected: [Int] = []
                for try await id in rows.decode(Int.self) { selected.append(id) }
                #expect(selected == expected, "\(rules)")
                compared += 1
            }
            #expect(compared > 150)
            #expect(emptyWithoutQuery > 5)
        }
    }

    /// The two CASL v7 cases: an empty-conditions `cannot` denies everything (no query at all), and
    /// an empty-conditions `manage` allows every row whatever a field-level `cannot` says of one field.
    @Test func emptyConditionsAreNoConditionsInSQL() throws {
        let denied = try AbilityJSON.ability(
            #"[{"action": "read", "subject": "Doc"}, {"action": "read", "subject": "Doc", "inverted": true, "conditions": {}}]"#)
        #expect(try denied.sqlCondition("read", subjectType: "Doc", columns: Self.columns) == nil)
        let managed = try AbilityJSON.ability(
            #"[{"action": "manage", "subject": "Doc", "conditions": {}}, {"action": "update", "subject": "Doc", "fields": ["admin"], "conditions": {}, "inverted": true}]"#)
        let condition = try #require(try managed.sqlCondition("update", subjectType: "Doc", columns: Self.columns))
        guard case .and(let parts) = condition else {
            Issue.record("expected TRUE (an empty AND), got \(condition)")
            return
        }
        #expect(parts.isEmpty)
        #expect(!managed.can("update", .type("Doc"), field: "admin"))
    }

    @Test func fieldsSQLCannotExpressAreRefused() throws {
        let unknown = try AbilityJSON.ability(#"[{"action": "read", "subject": "Doc", "conditions": {"secret": 1}}]"#)
        #expect(throws: PermissionRuleError.self) { try unknown.sqlCondition("read", subjectType: "Doc", columns: Self.columns) }
        let elemMatch = try AbilityJSON.ability(#"[{"action": "read", "subject": "Doc", "conditions": {"tags": {"$elemMatch": {"$eq": "a"}}}}]"#)
        #expect(throws: PermissionRuleError.self) { try elemMatch.sqlCondition("read", subjectType: "Doc", columns: Self.columns) }
        let multiline = try AbilityJSON.ability(#"[{"action": "read", "subject": "Doc", "conditions": {"status": {"$regex": "^a", "$options": "m"}}}]"#)
        #expect(throws: PermissionRuleError.self) { try multiline.sqlCondition("read", subjectType: "Doc", columns: Self.columns) }
    }

    /// A row as the engine sees it: NULL columns are missing fields.
    static func fields(of row: (id: Int, owner: String?, status: String?, views: Double?, published: Bool?, tags: [String]?)) -> [String: JSONValue] {
        var fields: [String: JSONValue] = ["id": .number(Double(row.id))]
        if let owner = row.owner { fields["ownerId"] = .string(owner) }
        if let status = row.status { fields["status"] = .string(status) }
        if let views = row.views { fields["views"] = .number(views) }
        if let published = row.published { fields["published"] = .bool(published) }
        if let tags = row.tags { fields["tags"] = .array(tags.map(JSONValue.string)) }
        return fields
    }
}

