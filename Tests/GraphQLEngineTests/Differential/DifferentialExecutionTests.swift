import Foundation
import Testing

@testable import GraphQLEngine

/// Executes generated operations over generated JSON data through `hearth graphql execute` and
/// through graphql-js (`graphql()` with its default resolver and type resolver), and compares the
/// response JSON byte for byte.
///
/// Normalised difference: Hearth gives every error `extensions.code` (checked here to be present),
/// graphql-js gives none; the comparison drops `extensions` from Hearth's errors.
@Suite struct DifferentialExecutionTests {
    static let oracle = ReferenceOracle.find()
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    struct Case: Encodable {
        var schema: String
        var query: String
        var data: JSONText
        var variables: JSONText
        var operationName: String?
    }

    /// Raw JSON embedded in the request to the oracle.
    struct JSONText: Encodable {
        var value: GraphQLValue
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(Wrapper(value))
        }
        private struct Wrapper: Encodable {
            let value: GraphQLValue
            init(_ value: GraphQLValue) { self.value = value }
            func encode(to encoder: any Encoder) throws {
                switch value {
                case .null:
                    var container = encoder.singleValueContainer()
                    try container.encodeNil()
                case .bool(let bool):
                    var container = encoder.singleValueContainer()
                    try container.encode(bool)
                case .int(let int):
                    var container = encoder.singleValueContainer()
                    try container.encode(int)
                case .float(let double):
                    var container = encoder.singleValueContainer()
                    try container.encode(double)
                case .string(let string):
                    var container = encoder.singleValueContainer()
                    try container.encode(string)
                case .list(let items):
                    var container = encoder.unkeyedContainer()
                    for item in items { try container.encode(Wrapper(item)) }
                case .object(let object):
                    var container = encoder.container(keyedBy: Key.self)
                    for (key, item) in object { try container.encode(Wrapper(item), forKey: Key(key)) }
                }
            }
        }
        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ string: String) { stringValue = string }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
    }

    struct Request: Encodable {
        var schemas: [String: String]
        var cases: [Case]
    }

    struct Reply: Decodable {
        var version: String
        var responses: [String]
    }

    static var hearthBinary: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("hearth")
    }

    /// Builds `count` valid operations with data and variables for `schemaName`.
    static func cases(_ schemaName: String, _ schema: GraphQLSchema, count: Int, seed: UInt64) -> [Case] {
        var generator = OperationGenerator(schema: schema, seed: seed)
        var cases: [Case] = []
        var attempts = 0
        while cases.count < count && attempts < count * 20 {
            attempts += 1
            let text = generator.document()
            guard let document = try? Parser.parse(text), Validator.validate(document, against: schema).isEmpty else { continue }
            let operations = document.definitions.compactMap { definition -> OperationDefinition? in
                if case .operation(let operation) = definition { return operation }
                return nil
            }
            guard let operation = operations.first else { continue }
            var data = ExecutionDataGenerator(schema: schema, document: document, seed: seed &+ UInt64(attempts) &* 7919)
            let variables = data.variables(for: operation)
            let root = data.rootData(for: operation)
            cases.append(Case(
                schema: schemaName, query: text, data: JSONText(value: root), variables: JSONText(value: .object(variables)),
                operationName: operations.count > 1 ? operation.name?.value : nil))
        }
        return cases
    }

    /// Runs the CLI on one case in `directory`; returns its standard output.
    static func runHearth(_ item: Case, index: Int, schemaFile: URL, directory: URL) throws -> String {
        let query = directory.appendingPathComponent("q\(index).graphql")
        let data = directory.appendingPathComponent("d\(index).json")
        let variables = directory.appendingPathComponent("v\(index).json")
        try Data(item.query.utf8).write(to: query)
        try Data(item.data.value.json.utf8).write(to: data)
        try Data(item.variables.value.json.utf8).write(to: variables)
        let process = Process()
        process.executableURL = hearthBinary
        var arguments = ["graphql", "execute", "--schema", schemaFile.path, "--data", data.path, "--variables", variables.path]
        if let name = item.operationName { arguments += ["--operation", name] }
        process.arguments = arguments + [query.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    /// Hearth's response without `extensions` in errors; nil (and an issue) when an error lacks a code.
    static func normalised(_ text: String) throws -> (text: String, missingCode: Bool) {
        let value = try JSONParser.parse(text)
        guard case .object(var response) = value else { return (text, true) }
        var missingCode = false
        if case .list(let errors)? = response["errors"] {
            response["errors"] = .list(errors.map { error in
                guard case .object(var fields) = error else { return error }
                if case .object(let extensions)? = fields["extensions"], case .string? = extensions["code"] {} else { missingCode = true }
                fields["extensions"] = nil
                return .object(fields)
            })
        }
        return (GraphQLValue.object(response).json, missingCode)
    }

    @Test(
        "hearth graphql execute agrees with graphql-js on 300+ operations over generated data",
        .enabled(if: oracle.oracle != nil || isCI, "SKIPPED: \(oracle.reason)"))
    func agreesWithReference() async throws {
        let oracle = try #require(Self.oracle.oracle, "graphql-js reference missing: \(Self.oracle.reason)")
        try #require(FileManager.default.isExecutableFile(atPath: Self.hearthBinary.path), "hearth is not built beside the tests")
        let sdl = ["zoo": TestSchemas.zoo, "household-api": TestSchemas.householdAPI]
        var cases: [Case] = []
        for name in sdl.keys.sorted() {
            let schema = try SchemaBuilder.build(sdl: try #require(sdl[name]), name: name)
            cases += Self.cases(name, schema, count: 170, seed: 0x4558_4543 &+ UInt64(name.utf8.count))
        }
        #expect(cases.count >= 300)

        let script = ReferenceOracle.repositoryRoot.appendingPathComponent("scripts/reference/graphql-js-execution-oracle.js")
        let reply = try JSONDecoder().decode(
            Reply.self, from: oracle.runScript(script, input: JSONEncoder().encode(Request(schemas: sdl, cases: cases))))
        try #require(reply.responses.count == cases.count)

        let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("hearth-exec-diff-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var schemaFiles: [String: URL] = [:]
        for (name, text) in sdl {
            let file = directory.appendingPathComponent("\(name).graphql")
            try Data(text.utf8).write(to: file)
            schemaFiles[name] = file
        }

        let outputs = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            var results = Array(repeating: "", count: cases.count)
            var nextIndex = 0
            func add(_ index: Int) {
                let item = cases[index]
                let schemaFile = schemaFiles[item.schema] ?? directory
                group.addTask { (index, try Self.runHearth(item, index: index, schemaFile: schemaFile, directory: directory)) }
            }
            while nextIndex < min(4, cases.count) { add(nextIndex); nextIndex += 1 }
            while let (index, output) = try await group.next() {
                results[index] = output
                if nextIndex < cases.count { add(nextIndex); nextIndex += 1 }
            }
            return results
        }

        var mismatches: [String] = []
        var withErrors = 0
        var withData = 0
        for (index, item) in cases.enumerated() {
            let ours = try Self.normalised(outputs[index])
            #expect(!ours.missingCode, "an error without extensions.code: \(outputs[index])")
            let theirs = reply.responses[index]
            if theirs.contains("\"errors\"") { withErrors += 1 }
            if theirs.contains("\"data\":{") { withData += 1 }
            if ours.text != theirs {
                mismatches.append("""
                    [\(item.schema)] \(item.query)
                      data: \(item.data.value.json)
                      variables: \(item.variables.value.json)
                      Hearth:     \(ours.text)
                      graphql-js: \(theirs)
                    """)
            }
        }
        print("execution differential: \(cases.count) cases, \(withErrors) with errors, \(withData) with data")
        // Field errors, refusals and clean results must all be well represented.
        #expect(withErrors > cases.count / 4 && withData > cases.count / 2)
        if !mismatches.isEmpty {
            Issue.record(Comment(rawValue: "\(mismatches.count) of \(cases.count) responses differ (graphql-js \(reply.version)):\n"
                + mismatches.prefix(8).joined(separator: "\n")))
        }
    }
}
