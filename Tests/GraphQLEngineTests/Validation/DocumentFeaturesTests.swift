import Testing

@testable import GraphQLEngine

// The validator skips rules a document cannot trip (DocumentFeatures); a feature it misses would
// silently skip a rule, so each is checked present and absent.

@Suite("DocumentFeatures") struct DocumentFeaturesTests {
    func features(_ text: String) throws -> DocumentFeatures {
        DocumentFeatures(of: try Parser.parse(Source(text)))
    }

    @Test func plainQueryHasNone() throws {
        #expect(try features("{ __typename a { b } }") == [])
    }

    @Test func eachFeatureIsFound() throws {
        #expect(try features("query ($a: Int) { a }") == [.variables, .arguments])
        #expect(try features("{ a @skip(if: true) }") == [.directives, .arguments])
        #expect(try features("{ ... on Query { a } }") == [.spreads])
        #expect(try features("{ ...F } fragment F on Query { a }") == [.spreads, .fragmentDefinitions])
        #expect(try features("{ a } { b }") == [.severalOperations])
        #expect(try features("subscription { a }") == [.subscription])
        #expect(try features("{ a } type T { a: Int }") == [.nonExecutableDefinitions])
    }

    @Test func introspectionFieldsButNotTypename() throws {
        #expect(try features("{ __schema { types { name } } }") == [.introspectionFields])
        #expect(try features("{ t: __type(name: \"Q\") { name } }") == [.introspectionFields, .arguments])
        #expect(try features("{ __typename __typenames }") == [])
        #expect(try features("{ __types }") == [])
    }

    @Test func bytesInStringsOnlyAddFeatures() throws {
        // A `$` or `@` inside a string runs a rule for nothing; it never hides one.
        #expect(try features("{ a(b: \"$x @y\") }") == [.arguments, .variables, .directives])
    }

    @Test func documentWithoutSourceTextHasEverything() {
        let document = Document(definitions: [], source: Source(""), range: SourceRange(start: 0, end: 0))
        #expect(DocumentFeatures(of: document) == .all)
    }

    @Test func skippedRulesStillReportWhatTheyFind() throws {
        // Each of these documents has exactly the feature that lets its rule run; the expected
        // errors are graphql-js 16's for the same documents.
        try RuleHarness.expectErrors(
            "UniqueDirectivesPerLocation", "{ dog @skip(if: false) @skip(if: false) { name } }",
            [.init("The directive \"@skip\" can only be used once at this location.", "1:7", "1:24")])
        try RuleHarness.expectErrors(
            "NoUndefinedVariables", "{ dog { isHousetrained(atOtherHomes: $x) } }",
            [.init("Variable \"$x\" is not defined.", "1:38", "1:1")])
        try RuleHarness.expectErrors(
            "LoneAnonymousOperation", "{ dog { name } } query Q { dog { name } }",
            [.init("This anonymous operation must be the only defined operation.", "1:1")])
    }
}
