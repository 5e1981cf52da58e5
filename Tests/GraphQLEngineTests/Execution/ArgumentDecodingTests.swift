import Testing

@testable import GraphQLEngine

/// Typed arguments: a resolver reads its arguments as a `Decodable` struct; defaults come from the
/// schema (also for an explicit null of an argument or input field that has one), an update input
/// tells absent from null, host scalars decode by their own rule, and a struct that does not fit
/// the schema is an internal error (the binding's mistake, not the client's).
@Suite struct ArgumentDecodingTests {
    enum Size: String, Decodable, Sendable { case small = "SMALL", large = "LARGE" }

    /// A host scalar: `Cents` is written as a decimal text ("3.50") and held as an integer.
    struct Cents: GraphQLScalarDecodable, Decodable, Sendable, Equatable {
        var value: Int
        init(graphQLScalar scalar: GraphQLValue) throws {
            guard case .string(let text) = scalar, let number = Double(text) else { throw CoercionError("not a price: \(scalar)") }
            value = Int((number * 100).rounded())
        }
        init(from decoder: any Decoder) throws { throw CoercionError("decoded without its scalar rule") }
    }

    struct Search: Decodable, Sendable {
        struct Filter: Decodable, Sendable { var size: Size, tags: [String]?, under: Cents? }
        var text: String
        var first: Int
        var size: Size
        var filter: Filter?
        var filters: [Filter]?
    }

    struct Rename: Decodable, Sendable {
        struct Changes: Decodable, Sendable { var name: InputPatch<String>, note: InputPatch<String> }
        var changes: Changes
    }

    struct Misfit: Decodable, Sendable { var text: Int }

    static let sdl = """
        type Query {
          search(text: String!, first: Int = 10, size: Size = SMALL, filter: Filter, filters: [Filter!]): String!
          misfit(text: String!): String!
        }
        type Mutation { rename(changes: Changes!): String! }
        enum Size { SMALL LARGE }
        scalar Price
        input Filter { size: Size = LARGE, tags: [String!], under: Price }
        input Changes { name: String, note: String }
        """

    static func harness() throws -> ExecutionHarness {
        var resolvers = Resolvers()
        resolvers.field("Query.search", arguments: Search.self) { _, search in
            let filters = (search.filter.map { [$0] } ?? []) + (search.filters ?? [])
            let described = filters.map { "\($0.size.rawValue)/\(($0.tags ?? []).joined(separator: "+"))/\($0.under?.value ?? -1)" }
            return .string("\(search.text) \(search.first) \(search.size.rawValue) [\(described.joined(separator: ", "))]")
        }
        resolvers.field("Query.misfit", arguments: Misfit.self) { _, misfit in .string("\(misfit.text)") }
        resolvers.field("Mutation.rename", arguments: Rename.self) { _, rename in
            func describe(_ patch: InputPatch<String>) -> String {
                switch patch {
                case .unchanged: "unchanged"
                case .cleared: "cleared"
                case .set(let value): "set \(value)"
                }
            }
            return .string("name \(describe(rename.changes.name)), note \(describe(rename.changes.note))")
        }
        return try ExecutionHarness(sdl, resolvers: resolvers)
    }

    @Test func defaultsComeFromTheSchemaEvenForAnExplicitNull() async throws {
        let harness = try Self.harness()
        #expect(try await harness.plain(#"{ search(text: "a") }"#) == json(#"{"data":{"search":"a 10 SMALL []"}}"#))
        #expect(try await harness.plain(#"{ search(text: "a", first: null, size: null, filter: {size: null}) }"#)
                == json(#"{"data":{"search":"a 10 SMALL [LARGE//-1]"}}"#))
        let fromVariables = try await harness.plain(
            #"query ($size: Size, $filters: [Filter!]) { search(text: "v", first: 3, size: $size, filters: $filters) }"#,
            variables: ["size": "LARGE", "filters": [["tags": ["red", "blue"], "under": "3.50"], ["size": "SMALL"]]])
        #expect(fromVariables == json(#"{"data":{"search":"v 3 LARGE [LARGE/red+blue/350, SMALL//-1]"}}"#))
    }

    @Test func anUpdateTellsAbsentFromNull() async throws {
        let harness = try Self.harness()
        #expect(try await harness.plain(#"mutation { rename(changes: {name: "Elm", note: null}) }"#)
                == json(#"{"data":{"rename":"name set Elm, note cleared"}}"#))
        #expect(try await harness.plain(#"mutation { rename(changes: {}) }"#)
                == json(#"{"data":{"rename":"name unchanged, note unchanged"}}"#))
    }

    @Test func aStructThatDoesNotFitTheSchemaIsAnInternalError() async throws {
        let harness = try Self.harness()
        let response = try await harness.run(#"{ misfit(text: "seven") }"#)
        #expect(ExecutionHarness.codes(response) == ["INTERNAL_SERVER_ERROR"])
        #expect(throws: GraphQLValueDecodingError.self) {
            try GraphQLValueDecoder.decode(Misfit.self, from: ["text": "seven"])
        }
        do {
            _ = try GraphQLValueDecoder.decode(Search.self, from: ["text": "x", "first": 1, "size": "SMALL", "filters": [["size": "HUGE"]]])
            Issue.record("an unknown enum value decoded")
        } catch let error as GraphQLValueDecodingError {
            #expect(error.path == ".filters[0].size")
        }
    }
}
