import Foundation
import Testing

@testable import GraphQLEngine

/// Validates several hundred generated operations against three or four schemas (GitHub's, the
/// zoo, the household API draft, and `schema.graphql` when the repository has it) with Hearth and with
/// graphql-js and requires the same set of errors (message and locations) for each; builds a
/// corpus of broken SDL documents with both and requires the same errors; and requires
/// `printSchema` output identical to graphql-js's for the GitHub schema, and the same type-map
/// order (what introspection lists) for every schema.
///
/// The runnable reference is graphql-js 16.6 (Debian's node-graphql); the target is 16.11.
/// Differences, all from what 16.6 lacks (graphql-js 16.9 added them), are left out of the
/// comparison when the oracle lacks `@oneOf`:
/// - ValuesOfCorrectType's `@oneOf` errors ("OneOf Input Object … must specify exactly one key.",
///   "Field "….…" must be non-null." for a `@oneOf` type, "Variable "…" must be non-nullable to be
///   used for OneOf Input Object …"); the SDL is given a `directive @oneOf` so 16.6 can build it;
/// - MaxIntrospectionDepth ("Maximum introspection depth exceeded");
/// - schema validation's "OneOf input field … must be nullable." / "… cannot have a default value.".
///
/// graphql-js 16 (16.11 too) throws from `validate` when SingleFieldSubscriptionsRule meets a
/// root field whose `@skip`/`@include` lacks `if`; those few operations have no verdict to compare.
@Suite("Differential: schemas and validation against graphql-js")
struct DifferentialValidationTests {
    static let oracle = ReferenceOracle.find()
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    struct Request: Encodable {
        struct Operation: Encodable {
            var schema: String
            var document: String
        }
        var schemas: [String: String]
        var operations: [Operation]
        var sdl: [String]
        var print: [String]
    }

    struct Reply: Decodable {
        struct Location: Decodable { var line: Int; var column: Int }
        struct Problem: Decodable {
            var message: String
            var locations: [Location]
        }
        var version: String
        var hasOneOf: Bool
        /// nil where graphql-js threw instead of answering.
        var operations: [[Problem]?]
        var sdl: [[Problem]]
        var print: [String: String]
        var typeNames: [String: [String]]
    }

    static func key(_ message: String, _ locations: [(Int, Int)]) -> String {
        message + " @ " + locations.map { "\($0.0):\($0.1)" }.joined(separator: ", ")
    }

    static func isNewerThan16_6(_ message: String) -> Bool {
        message.contains("OneOf") || message == "Maximum introspection depth exceeded"
            || (message.hasPrefix("Field \"") && message.hasSuffix("\" must be non-null."))
    }

    @Test(
        "Hearth agrees with graphql-js on validation errors, SDL errors and printSchema",
        .enabled(if: oracle.oracle != nil || isCI, "SKIPPED: \(oracle.reason)"))
    func agreesWithReference() throws {
        let oracle = try #require(Self.oracle.oracle, "graphql-js reference missing: \(Self.oracle.reason)")
        var sdlByName: [String: String] = ["zoo": TestSchemas.zoo, "household-api": TestSchemas.householdAPI]
        if let github = BenchInputs.available().first(where: { $0.name == "github-schema.graphql" }) {
            sdlByName["github"] = github.text
        } else {
            print("SKIPPED part: the GitHub schema (set HEARTH_BENCH_INPUTS or provide ../shared/bench)")
        }
        if let hearth = TestSchemas.hearth { sdlByName["hearth"] = hearth }
        var schemas: [String: GraphQLSchema] = [:]
        for (name, sdl) in sdlByName { schemas[name] = try SchemaBuilder.build(sdl: sdl, name: name) }

        var operations: [Request.Operation] = []
        for name in sdlByName.keys.sorted() {
            let schema = try #require(schemas[name])
            var generator = OperationGenerator(schema: schema, seed: 0x5641_4C49_4400 &+ UInt64(name.utf8.count))
            let count = name == "zoo" ? 320 : 200
            for _ in 0..<count { operations.append(.init(schema: name, document: generator.document())) }
        }
        for document in HandWrittenOperations.zoo { operations.append(.init(schema: "zoo", document: document)) }
        let plainOperations = operations.count
        // Executable documents that also hold type-system definitions carrying directives.
        var typeSystemDocuments = 0
        for name in sdlByName.keys.sorted() {
            let schema = try #require(schemas[name])
            var operationGenerator = OperationGenerator(schema: schema, seed: 0x5459_5045_5300 &+ UInt64(name.utf8.count))
            var generator = TypeSystemDefinitionGenerator(schema: schema, seed: 0x5344_4C00 &+ UInt64(name.utf8.count))
            for _ in 0..<60 {
                var parts = generator.definitions()
                parts.insert(operationGenerator.document(), at: generator.int(parts.count + 1))
                operations.append(.init(schema: name, document: parts.joined(separator: "\n\n")))
                typeSystemDocuments += 1
            }
        }
        #expect(typeSystemDocuments >= 180)
        #expect(operations.count >= 500 + typeSystemDocuments)
        #expect(BadSchemas.all.count >= 50)

        let request = Request(
            schemas: sdlByName, operations: operations, sdl: BadSchemas.all,
            print: sdlByName.filter { !$0.value.contains("@oneOf") }.keys.sorted())
        let script = ReferenceOracle.repositoryRoot.appendingPathComponent("scripts/reference/graphql-js-validation-oracle.js")
        let reply = try JSONDecoder().decode(Reply.self, from: oracle.runScript(script, input: JSONEncoder().encode(request)))
        try #require(reply.operations.count == operations.count && reply.sdl.count == BadSchemas.all.count)
        let dropNewer = !reply.hasOneOf

        var mismatches: [String] = []
        var invalidCount = 0
        var noVerdict: [String] = []
        for (index, (operation, answer)) in zip(operations, reply.operations).enumerated() {
            guard let expected = answer else {
                noVerdict.append(operation.document)
                continue
            }
            let schema = try #require(schemas[operation.schema])
            let ours: [GraphQLError]
            do {
                ours = Validator.validate(try Parser.parse(operation.document), against: schema)
            } catch {
                ours = [error]
            }
            let oursSet = Set(ours.filter { !(dropNewer && Self.isNewerThan16_6($0.message)) }
                .map { Self.key($0.message, $0.locations.map { ($0.line, $0.column) }) })
            let theirs = Set(expected.map { Self.key($0.message, $0.locations.map { ($0.line, $0.column) }) })
            if !theirs.isEmpty && index < plainOperations { invalidCount += 1 }
            if oursSet != theirs {
                mismatches.append(
                    "[\(operation.schema)] \(operation.document)\n  only Hearth: \(oursSet.subtracting(theirs).sorted())\n  only graphql-js: \(theirs.subtracting(oursSet).sorted())")
            }
        }
        // graphql-js throws only on subscriptions whose root field has @skip/@include without `if`.
        #expect(noVerdict.allSatisfy { $0.contains("subscription") && ($0.contains("@skip") || $0.contains("@include")) }, "\(noVerdict)")
        #expect(noVerdict.count < operations.count / 20, "\(noVerdict.count) operations without a graphql-js verdict")
        // Both valid and invalid operations must be well represented.
        // The type-system documents exercise every rule that graphql-js runs over such definitions.
        let typeSystemMessages = reply.operations[plainOperations...].compactMap { $0 }.flatMap { $0.map(\.message) }
        for kind in [
            "definition is not executable.", "Unknown directive", "may not be used on", "can only be used once at this location",
            "Unknown argument", "is required, but it was not provided", "Unknown type", "There can be only one input field",
            "There can be only one argument", "cannot represent",
        ] {
            #expect(typeSystemMessages.contains { $0.contains(kind) }, "no generated type-system document gives \"\(kind)\"")
        }
        // (Documents with type-system definitions are all invalid: they are not executable.)
        #expect(invalidCount > plainOperations / 4 && invalidCount < plainOperations * 9 / 10)

        for (sdl, expected) in zip(BadSchemas.all, reply.sdl) {
            var ours: [GraphQLError] = []
            do {
                _ = try SchemaBuilder.build(sdl: sdl)
            } catch {
                ours = error.errors
            }
            let oursSet = Set(ours.filter { !(dropNewer && $0.message.hasPrefix("OneOf input field")) }
                .map { Self.key($0.message, $0.locations.map { ($0.line, $0.column) }) })
            let theirs = Set(expected.map { Self.key($0.message, $0.locations.map { ($0.line, $0.column) }) })
            if oursSet != theirs {
                mismatches.append(
                    "[SDL] \(sdl)\n  only Hearth: \(oursSet.subtracting(theirs).sorted())\n  only graphql-js: \(theirs.subtracting(oursSet).sorted())")
            }
        }

        for (name, printed) in reply.print {
            let schema = try #require(schemas[name])
            if SchemaPrinter.print(schema) != printed { mismatches.append("[printSchema] \(name) differs") }
        }
        #expect(reply.print["github"] != nil || sdlByName["github"] == nil)
        // The type map's order is what introspection lists.
        for (name, names) in reply.typeNames {
            if schemas[name]?.types.map(\.name) != names { mismatches.append("[type map order] \(name) differs") }
        }

        if !mismatches.isEmpty {
            let summary = "\(mismatches.count) disagreements with graphql-js \(reply.version):\n\n"
                + mismatches.prefix(15).joined(separator: "\n\n")
            Issue.record(Comment(rawValue: summary))
        }
    }
}
