import Testing

@testable import GraphQLEngine

// Rules about fields, fragments and types: one suite per rule.

@Suite("KnownTypeNames") struct KnownTypeNamesTests {
    @Test func knownTypes() throws {
        try RuleHarness.expectValid(
            "KnownTypeNames", "query Q($a: [Color!], $b: Complex) { dog { ... on Pet { name } ...F } } fragment F on Dog { name }")
    }

    @Test func unknownTypesWithSuggestions() throws {
        try RuleHarness.expectErrors(
            "KnownTypeNames", "query Q($a: Colour) { dog { ... on Badger { name } ...F } }\nfragment F on Peat { name }",
            [
                .init("Unknown type \"Colour\". Did you mean \"Color\"?", "1:13"),
                .init("Unknown type \"Badger\".", "1:36"),
                .init("Unknown type \"Peat\". Did you mean \"Pet\" or \"Cat\"?", "2:15"),
            ])
    }
}

@Suite("FragmentsOnCompositeTypes") struct FragmentsOnCompositeTypesTests {
    @Test func compositeConditions() throws {
        try RuleHarness.expectValid(
            "FragmentsOnCompositeTypes", "fragment A on Pet { name } fragment B on Being { __typename } fragment C on Dog { ... on Node { id } ... { name } }")
    }

    @Test func scalarOrInputConditions() throws {
        try RuleHarness.expectErrors(
            "FragmentsOnCompositeTypes", "fragment A on Boolean { x }\nfragment B on Dog { ... on TaskInput { x } }",
            [
                .init("Fragment \"A\" cannot condition on non composite type \"Boolean\".", "1:15"),
                .init("Fragment cannot condition on non composite type \"TaskInput\".", "2:28"),
            ])
    }
}

@Suite("ScalarLeafs") struct ScalarLeafsTests {
    @Test func leavesAndSelections() throws {
        try RuleHarness.expectValid("ScalarLeafs", "{ dog { name barkVolume owner { id } } }")
    }

    @Test func leafWithSelectionAndObjectWithout() throws {
        try RuleHarness.expectErrors(
            "ScalarLeafs", "{ dog { barkVolume { sinceWhen } } me }",
            [
                .init("Field \"barkVolume\" must not have a selection since type \"Int\" has no subfields.", "1:20"),
                .init("Field \"me\" of type \"Person\" must have a selection of subfields. Did you mean \"me { ... }\"?", "1:36"),
            ])
        try RuleHarness.expectErrors(
            "ScalarLeafs", "{ households { members } }",
            [.init("Field \"members\" of type \"[Person!]!\" must have a selection of subfields. Did you mean \"members { ... }\"?", "1:16")])
    }
}

@Suite("FieldsOnCorrectType") struct FieldsOnCorrectTypeTests {
    @Test func knownFieldsAndMetaFields() throws {
        try RuleHarness.expectValid(
            "FieldsOnCorrectType", "{ __typename __schema { queryType { name } } dog { __typename name ... on Pet { name } } being(id: 1) { __typename } }")
    }

    @Test func unknownFieldWithFieldSuggestion() throws {
        try RuleHarness.expectErrors(
            "FieldsOnCorrectType", "{ dog { nmae meowVolume } }",
            [
                .init("Cannot query field \"nmae\" on type \"Dog\". Did you mean \"name\"?", "1:9"),
                .init("Cannot query field \"meowVolume\" on type \"Dog\". Did you mean \"barkVolume\"?", "1:14"),
            ])
    }

    @Test func abstractTypeSuggestsFragments() throws {
        try RuleHarness.expectErrors(
            "FieldsOnCorrectType", "{ being(id: 1) { name lives } }",
            [
                .init(
                    "Cannot query field \"name\" on type \"Being\". Did you mean to use an inline fragment on \"Named\", \"Pet\", \"Cat\", \"Dog\", or \"Person\"?",
                    "1:18"),
                .init("Cannot query field \"lives\" on type \"Being\". Did you mean to use an inline fragment on \"Cat\"?", "1:23"),
            ])
    }

    @Test func noSuggestionForFarNames() throws {
        try RuleHarness.expectErrors(
            "FieldsOnCorrectType", "{ dog { elephant } }", [.init("Cannot query field \"elephant\" on type \"Dog\".", "1:9")])
    }
}

@Suite("PossibleFragmentSpreads") struct PossibleFragmentSpreadsTests {
    @Test func overlappingTypes() throws {
        try RuleHarness.expectValid(
            "PossibleFragmentSpreads",
            "{ dog { ... on Pet { name } ... on Being { __typename } ...P } being(id: 1) { ... on Dog { name } ... on Named { name } } } fragment P on Pet { name }")
    }

    @Test func disjointTypes() throws {
        try RuleHarness.expectErrors(
            "PossibleFragmentSpreads", "{ dog { ... on Cat { lives } ...T } }\nfragment T on Task { title }",
            [
                .init("Fragment cannot be spread here as objects of type \"Dog\" can never be of type \"Cat\".", "1:9"),
                .init("Fragment \"T\" cannot be spread here as objects of type \"Dog\" can never be of type \"Task\".", "1:30"),
            ])
        try RuleHarness.expectErrors(
            "PossibleFragmentSpreads", "{ search(text: \"x\") { ... on Pet { name } } }",
            [.init("Fragment cannot be spread here as objects of type \"SearchResult\" can never be of type \"Pet\".", "1:23")])
    }
}

@Suite("OverlappingFieldsCanBeMerged") struct OverlappingFieldsCanBeMergedTests {
    @Test func mergeableFields() throws {
        try RuleHarness.expectValid(
            "OverlappingFieldsCanBeMerged",
            "{ dog { name name otherName: name doesKnowCommand(command: SIT) doesKnowCommand(command: SIT) ... on Dog { name } } }")
        // Different object types never overlap, so differing fields and arguments may share a name.
        try RuleHarness.expectValid(
            "OverlappingFieldsCanBeMerged", "{ being(id: 1) { ... on Dog { x: barkVolume } ... on Cat { x: meowVolume } } }")
    }

    @Test func differentFieldsOneName() throws {
        try RuleHarness.expectErrors(
            "OverlappingFieldsCanBeMerged", "{ dog { name: barkVolume name } }",
            [.init("Fields \"name\" conflict because \"barkVolume\" and \"name\" are different fields. Use different aliases on the fields to fetch both if this was intentional.", "1:9", "1:26")])
    }

    @Test func differingArguments() throws {
        try RuleHarness.expectErrors(
            "OverlappingFieldsCanBeMerged", "{ dog { doesKnowCommand(command: SIT) doesKnowCommand(command: HEEL) } }",
            [.init("Fields \"doesKnowCommand\" conflict because they have differing arguments. Use different aliases on the fields to fetch both if this was intentional.", "1:9", "1:39")])
    }

    @Test func conflictingTypesAcrossObjectTypes() throws {
        try RuleHarness.expectErrors(
            "OverlappingFieldsCanBeMerged", "{ me { pets { ... on Dog { x: barkVolume } ... on Cat { x: name } } } }",
            [.init("Fields \"x\" conflict because they return conflicting types \"Int\" and \"String\". Use different aliases on the fields to fetch both if this was intentional.", "1:28", "1:57")])
    }

    @Test func conflictsInSubfieldsAndFragments() throws {
        try RuleHarness.expectErrors(
            "OverlappingFieldsCanBeMerged", "{ dog { owner { id } ...F } }\nfragment F on Dog { owner { id: name } }",
            [.init("Fields \"owner\" conflict because subfields \"id\" conflict because \"id\" and \"name\" are different fields. Use different aliases on the fields to fetch both if this was intentional.", "1:9", "1:17", "2:21", "2:29")])
    }

    @Test func manyRepeatedFieldsStillReportEachConflict() throws {
        // Many identical copies (compared once per shape) plus one conflicting field: every
        // copy still conflicts with it, each reported with its own location, as graphql-js does.
        let copies = Array(repeating: "name", count: 6).joined(separator: " ")
        let found = try RuleHarness.errors("OverlappingFieldsCanBeMerged", "{ dog { \(copies) name: barkVolume } }")
        #expect(found.count == 6)
        #expect(found.map { $0.locations } == (0..<6).map { ["1:\(9 + 5 * $0)", "1:39"] })
    }
}

@Suite("MaxIntrospectionDepth") struct MaxIntrospectionDepthTests {
    @Test func shallowIntrospection() throws {
        try RuleHarness.expectValid(
            "MaxIntrospectionDepth", "{ __schema { types { fields { type { name ofType { name } } } } } }")
    }

    @Test func tooDeepDirectlyOrThroughFragments() throws {
        try RuleHarness.expectErrors(
            "MaxIntrospectionDepth", "{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }",
            [.init("Maximum introspection depth exceeded", "1:3")])
        try RuleHarness.expectErrors(
            "MaxIntrospectionDepth",
            "{ __type(name: \"Dog\") { ...A } }\nfragment A on __Type { interfaces { ...B } }\nfragment B on __Type { possibleTypes { inputFields { name } } }",
            [.init("Maximum introspection depth exceeded", "1:3")])
    }
}
