import Testing

@testable import GraphQLEngine

// Rules about variables, arguments, values and directives: one suite per rule.

@Suite("VariablesAreInputTypes") struct VariablesAreInputTypesTests {
    @Test func inputTypes() throws {
        try RuleHarness.expectValid("VariablesAreInputTypes", "query ($a: Int, $b: [Color!]!, $c: Complex) { dog { name } }")
    }

    @Test func outputTypes() throws {
        try RuleHarness.expectErrors(
            "VariablesAreInputTypes", "query ($a: Dog, $b: [[Pet!]]!, $c: Being) { dog { name } }",
            [
                .init("Variable \"$a\" cannot be non-input type \"Dog\".", "1:12"),
                .init("Variable \"$b\" cannot be non-input type \"[[Pet!]]!\".", "1:21"),
                .init("Variable \"$c\" cannot be non-input type \"Being\".", "1:36"),
            ])
    }
}

@Suite("UniqueVariableNames") struct UniqueVariableNamesTests {
    @Test func distinct() throws {
        try RuleHarness.expectValid("UniqueVariableNames", "query A($x: Int, $y: Int) { dog { name } } query B($x: Int) { dog { name } }")
    }

    @Test func duplicates() throws {
        try RuleHarness.expectErrors(
            "UniqueVariableNames", "query ($x: Int, $x: String, $x: ID) { dog { name } }",
            [.init("There can be only one variable named \"$x\".", "1:9", "1:18", "1:30")])
    }
}

@Suite("NoUndefinedVariables") struct NoUndefinedVariablesTests {
    @Test func definedIncludingThroughFragments() throws {
        try RuleHarness.expectValid(
            "NoUndefinedVariables", "query Q($c: Command!) { dog { ...F } } fragment F on Dog { doesKnowCommand(command: $c) }")
    }

    @Test func undefined() throws {
        try RuleHarness.expectErrors(
            "NoUndefinedVariables",
            "query Q { dog { doesKnowCommand(command: $c) ...F } }\nfragment F on Dog { isHousetrained(atOtherHomes: $h) }",
            [
                .init("Variable \"$c\" is not defined by operation \"Q\".", "1:42", "1:1"),
                .init("Variable \"$h\" is not defined by operation \"Q\".", "2:50", "1:1"),
            ])
        try RuleHarness.expectErrors(
            "NoUndefinedVariables", "{ dog { isHousetrained(atOtherHomes: $h) } }",
            [.init("Variable \"$h\" is not defined.", "1:38", "1:1")])
    }
}

@Suite("NoUnusedVariables") struct NoUnusedVariablesTests {
    @Test func usedIncludingThroughFragments() throws {
        try RuleHarness.expectValid(
            "NoUnusedVariables", "query Q($h: Boolean) { dog { ...F } } fragment F on Dog { isHousetrained(atOtherHomes: $h) }")
    }

    @Test func unused() throws {
        try RuleHarness.expectErrors(
            "NoUnusedVariables", "query Q($a: Int, $b: Int) { complicated(nonNullInt: $a) }",
            [.init("Variable \"$b\" is never used in operation \"Q\".", "1:18")])
        try RuleHarness.expectErrors(
            "NoUnusedVariables", "query ($b: Int) { dog { name } }", [.init("Variable \"$b\" is never used.", "1:8")])
    }
}

@Suite("KnownDirectives") struct KnownDirectivesTests {
    @Test func knownAndWellPlaced() throws {
        try RuleHarness.expectValid(
            "KnownDirectives", "query Q @cached(ttl: 1) { dog @include(if: true) { name @skip(if: false) ...F @tag(name: \"a\") } } fragment F on Dog { name }")
    }

    @Test func unknownAndMisplaced() throws {
        try RuleHarness.expectErrors(
            "KnownDirectives", "query Q @skip(if: true) { dog @unknown { ... @cached(ttl: 1) { name } } }",
            [
                .init("Directive \"@skip\" may not be used on QUERY.", "1:9"),
                .init("Unknown directive \"@unknown\".", "1:31"),
                .init("Directive \"@cached\" may not be used on INLINE_FRAGMENT.", "1:46"),
            ])
    }
}

@Suite("UniqueDirectivesPerLocation") struct UniqueDirectivesPerLocationTests {
    @Test func uniqueOrRepeatable() throws {
        try RuleHarness.expectValid(
            "UniqueDirectivesPerLocation", "{ dog @skip(if: false) @include(if: true) { name @tag(name: \"a\") @tag(name: \"b\") } }")
    }

    @Test func repeatedNonRepeatable() throws {
        try RuleHarness.expectErrors(
            "UniqueDirectivesPerLocation", "{ dog @skip(if: false) @skip(if: true) @skip(if: false) { name } }",
            [
                .init("The directive \"@skip\" can only be used once at this location.", "1:7", "1:24"),
                .init("The directive \"@skip\" can only be used once at this location.", "1:7", "1:40"),
            ])
    }
}

@Suite("KnownArgumentNames") struct KnownArgumentNamesTests {
    @Test func knownArguments() throws {
        try RuleHarness.expectValid(
            "KnownArgumentNames", "{ dog { doesKnowCommand(command: SIT) @include(if: true) isHousetrained(atOtherHomes: true) } }")
    }

    @Test func unknownFieldAndDirectiveArguments() throws {
        try RuleHarness.expectErrors(
            "KnownArgumentNames", "{ dog { doesKnowCommand(comand: SIT) @skip(unless: true) } }",
            [
                .init("Unknown argument \"comand\" on field \"Dog.doesKnowCommand\". Did you mean \"command\"?", "1:25"),
                .init("Unknown argument \"unless\" on directive \"@skip\".", "1:44"),
            ])
    }
}

@Suite("UniqueArgumentNames") struct UniqueArgumentNamesTests {
    @Test func distinct() throws {
        try RuleHarness.expectValid("UniqueArgumentNames", "{ complicated(int: 1, nonNullInt: 2) @tag(name: \"a\") }")
    }

    @Test func duplicates() throws {
        try RuleHarness.expectErrors(
            "UniqueArgumentNames", "{ complicated(int: 1, int: 2, nonNullInt: 1) @cached(ttl: 1, ttl: 2) }",
            [
                .init("There can be only one argument named \"int\".", "1:15", "1:23"),
                .init("There can be only one argument named \"ttl\".", "1:54", "1:62"),
            ])
    }
}

@Suite("ValuesOfCorrectType") struct ValuesOfCorrectTypeTests {
    @Test func goodLiterals() throws {
        try RuleHarness.expectValid(
            "ValuesOfCorrectType",
            "{ complicated(int: 1, nonNullInt: -2, list: 3, ids: [\"a\", 4], color: TAN, arg: {nonNullInt: 1, nonNullList: [], float: 2, nested: null}) }")
    }

    @Test func badScalars() throws {
        try RuleHarness.expectErrors(
            "ValuesOfCorrectType", "{ complicated(int: \"1\", nonNullInt: 2147483648, ids: [1.5]) }",
            [
                .init("Int cannot represent non-integer value: \"1\"", "1:20"),
                .init("Int cannot represent non 32-bit signed integer value: 2147483648", "1:37"),
                .init("ID cannot represent a non-string and non-integer value: 1.5", "1:55"),
            ])
    }

    @Test func badEnumValues() throws {
        try RuleHarness.expectErrors(
            "ValuesOfCorrectType", "{ complicated(nonNullInt: 1, color: \"TAN\") a: complicated(nonNullInt: 1, color: tan) }",
            [
                .init("Enum \"Color\" cannot represent non-enum value: \"TAN\". Did you mean the enum value \"TAN\"?", "1:37"),
                .init("Value \"tan\" does not exist in \"Color\" enum. Did you mean the enum value \"TAN\"?", "1:81"),
            ])
    }

    @Test func nullAndInputObjects() throws {
        try RuleHarness.expectErrors(
            "ValuesOfCorrectType", "{ complicated(nonNullInt: null, arg: {nonNulInt: 1, nonNullList: [null]}) }",
            [
                .init("Expected value of type \"Int!\", found null.", "1:27"),
                .init("Field \"Complex.nonNullInt\" of required type \"Int!\" was not provided.", "1:38"),
                .init("Field \"nonNulInt\" is not defined by type \"Complex\". Did you mean \"nonNullInt\" or \"nonNullList\"?", "1:39"),
                .init("Expected value of type \"Int!\", found null.", "1:67"),
            ])
        try RuleHarness.expectErrors(
            "ValuesOfCorrectType", "{ complicated(nonNullInt: 1, arg: [1]) }",
            [.init("Expected value of type \"Complex\", found [1].", "1:35")])
    }

    @Test func oneOfInputObjects() throws {
        try RuleHarness.expectValid("ValuesOfCorrectType", "query ($id: ID!) { pet(lookup: {id: $id}) { name } a: pet(lookup: {name: \"x\"}) { name } }")
        try RuleHarness.expectErrors(
            "ValuesOfCorrectType",
            "query ($id: ID) { a: pet(lookup: {id: 1, name: \"x\"}) { name } b: pet(lookup: {id: null}) { name } c: pet(lookup: {id: $id}) { name } }",
            [
                .init("OneOf Input Object \"PetLookup\" must specify exactly one key.", "1:34"),
                .init("Field \"PetLookup.id\" must be non-null.", "1:78"),
                .init("Variable \"id\" must be non-nullable to be used for OneOf Input Object \"PetLookup\".", "1:114"),
            ])
    }
}

@Suite("ProvidedRequiredArguments") struct ProvidedRequiredArgumentsTests {
    @Test func requiredGivenOptionalOmitted() throws {
        try RuleHarness.expectValid(
            "ProvidedRequiredArguments", "{ dog { doesKnowCommand(command: SIT) isHousetrained @skip(if: false) } complicated(nonNullInt: 1) }")
    }

    @Test func missingRequired() throws {
        try RuleHarness.expectErrors(
            "ProvidedRequiredArguments", "{ dog { doesKnowCommand @include } }",
            [
                .init("Directive \"@include\" argument \"if\" of type \"Boolean!\" is required, but it was not provided.", "1:25"),
                .init("Field \"doesKnowCommand\" argument \"command\" of type \"Command!\" is required, but it was not provided.", "1:9"),
            ])
    }
}

@Suite("VariablesInAllowedPosition") struct VariablesInAllowedPositionTests {
    @Test func allowedPositions() throws {
        try RuleHarness.expectValid(
            "VariablesInAllowedPosition",
            "query ($c: Command!, $b: Boolean = true, $i: Int) { dog { doesKnowCommand(command: $c) isHousetrained(atOtherHomes: $b) } complicated(nonNullInt: 1, list: [$i], flag: $b) }")
    }

    @Test func disallowedPositions() throws {
        try RuleHarness.expectErrors(
            "VariablesInAllowedPosition",
            "query ($c: Command, $i: [Int]) { dog { doesKnowCommand(command: $c) } complicated(nonNullInt: 1, list: [$i]) }",
            [
                .init("Variable \"$c\" of type \"Command\" used in position expecting type \"Command!\".", "1:8", "1:65"),
                .init("Variable \"$i\" of type \"[Int]\" used in position expecting type \"Int\".", "1:21", "1:105"),
            ])
    }
}

@Suite("UniqueInputFieldNames") struct UniqueInputFieldNamesTests {
    @Test func distinctFieldsAtEachLevel() throws {
        try RuleHarness.expectValid(
            "UniqueInputFieldNames", "{ complicated(nonNullInt: 1, arg: {int: 1, nested: {int: 2}}) }")
    }

    @Test func duplicates() throws {
        try RuleHarness.expectErrors(
            "UniqueInputFieldNames", "{ complicated(nonNullInt: 1, arg: {int: 1, int: 2, nested: {int: 3, int: 4}}) }",
            [
                .init("There can be only one input field named \"int\".", "1:36", "1:44"),
                .init("There can be only one input field named \"int\".", "1:61", "1:69"),
            ])
    }
}
