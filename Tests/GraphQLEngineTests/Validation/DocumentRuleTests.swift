import Testing

@testable import GraphQLEngine

// Rules about a document's definitions: one suite per rule, cases from the specification's
// examples (valid and invalid), messages and locations as graphql-js reports them.

@Suite("ExecutableDefinitions") struct ExecutableDefinitionsTests {
    @Test func operationsAndFragmentsOnly() throws {
        try RuleHarness.expectValid("ExecutableDefinitions", "query Q { dog { ...F } } fragment F on Dog { name }")
    }

    @Test func typeSystemDefinitionsAreNotExecutable() throws {
        try RuleHarness.expectErrors(
            "ExecutableDefinitions",
            "query Q { dog { name } }\ntype Cow { name: String }\nextend type Dog { color: String }\nschema { query: Query }",
            [
                .init("The \"Cow\" definition is not executable.", "2:1"),
                .init("The \"Dog\" definition is not executable.", "3:1"),
                .init("The schema definition is not executable.", "4:1"),
            ])
    }

    /// graphql-js keeps validating type-system definitions with every other rule (its output for
    /// this document, in its order).
    @Test func theOtherRulesStillCheckTypeSystemDefinitions() throws {
        let document = try Parser.parse(
            """
            { dog { name } }
            schema @x { query: Query }
            extend schema @local(a: 1) @local(a: 2)
            directive @local(a: Int!) on SCHEMA | FIELD_DEFINITION
            type Cow @local { moo(level: Levl = {a: 1, a: 2}): Strin @deprecated(reason: 5, why: "x") }
            """)
        let found = Validator.validate(document, against: RuleHarness.zoo).map { error in
            var expected = ExpectedError(error.message)
            expected.locations = error.locations.map { "\($0.line):\($0.column)" }
            return expected
        }
        #expect(
            found == [
                .init("The schema definition is not executable.", "2:1"),
                .init("The schema definition is not executable.", "3:1"),
                .init("The \"local\" definition is not executable.", "4:1"),
                .init("The \"Cow\" definition is not executable.", "5:1"),
                .init("Unknown directive \"@x\".", "2:8"),
                .init("The directive \"@local\" can only be used once at this location.", "3:15", "3:28"),
                .init("Directive \"@local\" may not be used on OBJECT.", "5:10"),
                .init("Directive \"@local\" argument \"a\" of type \"Int!\" is required, but it was not provided.", "5:10"),
                .init("Unknown type \"Levl\".", "5:30"),
                .init("There can be only one input field named \"a\".", "5:38", "5:44"),
                .init("Unknown type \"Strin\". Did you mean \"String\"?", "5:52"),
                .init("Unknown argument \"why\" on directive \"@deprecated\".", "5:81"),
                .init("String cannot represent a non string value: 5", "5:78"),
            ], "\(found)")
    }
}

@Suite("UniqueOperationNames") struct UniqueOperationNamesTests {
    @Test func distinctNames() throws {
        try RuleHarness.expectValid("UniqueOperationNames", "query A { dog { name } } query B { cat { lives } } { me { id } }")
    }

    @Test func sameNameTwiceEvenAcrossKinds() throws {
        try RuleHarness.expectErrors(
            "UniqueOperationNames", "query getName { dog { name } }\nmutation getName { completeTask(id: 1) { id } }",
            [.init("There can be only one operation named \"getName\".", "1:7", "2:10")])
    }
}

@Suite("LoneAnonymousOperation") struct LoneAnonymousOperationTests {
    @Test func oneAnonymousOperationAlone() throws {
        try RuleHarness.expectValid("LoneAnonymousOperation", "{ dog { name } } fragment F on Dog { name }")
    }

    @Test func anonymousWithOthers() throws {
        try RuleHarness.expectErrors(
            "LoneAnonymousOperation", "{ dog { name } }\nquery getName { dog { owner { name } } }",
            [.init("This anonymous operation must be the only defined operation.", "1:1")])
        try RuleHarness.expectErrors(
            "LoneAnonymousOperation", "{ dog { name } }\n{ cat { lives } }",
            [
                .init("This anonymous operation must be the only defined operation.", "1:1"),
                .init("This anonymous operation must be the only defined operation.", "2:1"),
            ])
    }
}

@Suite("SingleFieldSubscriptions") struct SingleFieldSubscriptionsTests {
    @Test func oneRootField() throws {
        try RuleHarness.expectValid("SingleFieldSubscriptions", "subscription S { petAdopted { id } }")
        try RuleHarness.expectValid(
            "SingleFieldSubscriptions", "subscription S { ...F } fragment F on Subscription { petAdopted { id } }")
        // Fields excluded by a literal @skip do not count.
        try RuleHarness.expectValid(
            "SingleFieldSubscriptions", "subscription S { petAdopted { id } a: petAdopted @skip(if: true) { id } }")
    }

    @Test func severalRootFields() throws {
        try RuleHarness.expectErrors(
            "SingleFieldSubscriptions", "subscription S { petAdopted { id } taskChanged(householdId: 1) { id } }",
            [.init("Subscription \"S\" must select only one top level field.", "1:36")])
        try RuleHarness.expectErrors(
            "SingleFieldSubscriptions", "subscription { ...F }\nfragment F on Subscription { petAdopted { id } a: petAdopted { id } }",
            [.init("Anonymous Subscription must select only one top level field.", "2:48")])
    }

    @Test func introspectionRootField() throws {
        try RuleHarness.expectErrors(
            "SingleFieldSubscriptions", "subscription S { __typename }",
            [.init("Subscription \"S\" must not select an introspection top level field.", "1:18")])
    }
}

@Suite("UniqueFragmentNames") struct UniqueFragmentNamesTests {
    @Test func distinctNames() throws {
        try RuleHarness.expectValid(
            "UniqueFragmentNames", "{ dog { ...A ...B } } fragment A on Dog { name } fragment B on Dog { barkVolume }")
    }

    @Test func duplicateName() throws {
        try RuleHarness.expectErrors(
            "UniqueFragmentNames", "{ dog { ...A } }\nfragment A on Dog { name }\nfragment A on Dog { barkVolume }",
            [.init("There can be only one fragment named \"A\".", "2:10", "3:10")])
    }
}

@Suite("KnownFragmentNames") struct KnownFragmentNamesTests {
    @Test func knownFragments() throws {
        try RuleHarness.expectValid("KnownFragmentNames", "{ dog { ...A ... on Dog { ...A } } } fragment A on Dog { name }")
    }

    @Test func unknownFragment() throws {
        try RuleHarness.expectErrors(
            "KnownFragmentNames", "{ dog { ...Missing } }", [.init("Unknown fragment \"Missing\".", "1:12")])
    }
}

@Suite("NoUnusedFragments") struct NoUnusedFragmentsTests {
    @Test func usedDirectlyOrThroughOthers() throws {
        try RuleHarness.expectValid(
            "NoUnusedFragments", "{ dog { ...A } } fragment A on Dog { ...B } fragment B on Dog { name }")
    }

    @Test func unusedFragments() throws {
        try RuleHarness.expectErrors(
            "NoUnusedFragments",
            "query Q { dog { ...A } }\nfragment A on Dog { name }\nfragment Unused on Dog { ...Unused2 }\nfragment Unused2 on Dog { name }",
            [
                .init("Fragment \"Unused\" is never used.", "3:1"),
                .init("Fragment \"Unused2\" is never used.", "4:1"),
            ])
    }
}

@Suite("NoFragmentCycles") struct NoFragmentCyclesTests {
    @Test func noCycle() throws {
        try RuleHarness.expectValid(
            "NoFragmentCycles", "fragment A on Dog { ...B } fragment B on Dog { name } fragment C on Dog { ...B ...A }")
    }

    @Test func directCycle() throws {
        try RuleHarness.expectErrors(
            "NoFragmentCycles", "fragment A on Dog { ...A }", [.init("Cannot spread fragment \"A\" within itself.", "1:21")])
    }

    @Test func cycleThroughOthers() throws {
        try RuleHarness.expectErrors(
            "NoFragmentCycles", "fragment A on Dog { ...B }\nfragment B on Dog { ...C }\nfragment C on Dog { ...A }",
            [.init("Cannot spread fragment \"A\" within itself via \"B\", \"C\".", "1:21", "2:21", "3:21")])
    }
}
