import Testing

@testable import GraphQLEngine

/// An expected validation error: message and `line:column` locations.
struct ExpectedError: Equatable, CustomStringConvertible {
    var message: String
    var locations: [String]

    init(_ message: String, _ locations: String...) {
        self.message = message
        self.locations = locations
    }

    var description: String { "\(message) @ \(locations.joined(separator: ", "))" }
}

enum RuleHarness {
    /// The zoo schema (see ``TestSchemas/zoo``), built once.
    static let zoo: GraphQLSchema = {
        do { return try SchemaBuilder.build(sdl: TestSchemas.zoo, name: "zoo") } catch { fatalError("\(error)") }
    }()

    /// The errors one rule reports for `query`.
    static func errors(_ rule: String, _ query: String, schema: GraphQLSchema = zoo) throws -> [ExpectedError] {
        let document = try Parser.parse(query)
        let rules = Validator.rules(named: rule)
        precondition(rules.count == 1, "unknown rule \(rule)")
        return Validator.validate(document, against: schema, rules: rules).map { error in
            var expected = ExpectedError(error.message)
            expected.locations = error.locations.map { "\($0.line):\($0.column)" }
            return expected
        }
    }

    static func expectValid(
        _ rule: String, _ query: String, schema: GraphQLSchema = zoo, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let found = try errors(rule, query, schema: schema)
        #expect(found.isEmpty, "unexpected: \(found)", sourceLocation: sourceLocation)
    }

    static func expectErrors(
        _ rule: String, _ query: String, _ expected: [ExpectedError], schema: GraphQLSchema = zoo,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let found = try errors(rule, query, schema: schema)
        #expect(found == expected, sourceLocation: sourceLocation)
    }
}
