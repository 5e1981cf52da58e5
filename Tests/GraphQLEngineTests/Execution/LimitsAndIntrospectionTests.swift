import Synchronization
import Foundation
import Testing

@testable import GraphQLEngine

/// Operation cost limits, the document cache, and introspection (on, off, and a round trip
/// through graphql-core's `build_client_schema` on GitHub's schema).
@Suite struct LimitsAndIntrospectionTests {
    static let sdl = """
        "The household API."
        schema { query: Query }
        type Query { node(id: ID!): Node, nodes: [Node] }
        interface Node { id: ID!, parent: Node, children(first: Int = 10, after: String @deprecated): [Node] }
        type Item implements Node { id: ID!, parent: Node, children(first: Int = 10, after: String @deprecated): [Node], legacy: Int @deprecated(reason: "Use id.") }
        enum Mood { HAPPY, SAD @deprecated }
        input Filter { mood: Mood, text: String = "x" }
        input Pick @oneOf { a: Int, b: Int }
        scalar Stamp @specifiedBy(url: "https://example.com/stamp")
        """

    @Test func limitsRefuseDeepWideAndAliasedOperationsBeforeExecution() async throws {
        let harness = try ExecutionHarness(
            Self.sdl, configuration: ExecutorConfiguration(limits: OperationLimits(maxDepth: 3, maxFields: 6, maxAliases: 2)))
        let deep = try await harness.run("{ nodes { parent { parent { id } } } }")
        #expect(ExecutionHarness.messages(deep) == ["The operation is nested 4 levels deep; the maximum is 3."])
        #expect(ExecutionHarness.codes(deep) == ["QUERY_TOO_COMPLEX"])
        #expect(deep["data"] == nil)
        // Fragments count once per use: 2 spreads × 3 fields + 1.
        let wide = try await harness.run("{ nodes { ...F } more: nodes { ...F } } fragment F on Node { id a: id b: id }")
        #expect(ExecutionHarness.messages(wide) == [
            "The operation selects 8 fields once fragments are expanded; the maximum is 6.",
            "The operation uses 5 aliases once fragments are expanded; the maximum is 2.",
        ])
        #expect(try await harness.plain("{ nodes { id } }", root: ["nodes": []]) == json(#"{"data":{"nodes":[]}}"#))
        let measure = OperationLimits.measure(
            try #require(try Parser.parse(BenchQueries.introspection).definitions.compactMap {
                if case .operation(let operation) = $0 { return operation } else { return nil }
            }.first),
            fragments: Dictionary(uniqueKeysWithValues: try Parser.parse(BenchQueries.introspection).definitions.compactMap {
                if case .fragment(let fragment) = $0 { return (fragment.name.value, fragment) } else { return nil }
            }))
        // The default limits admit the standard introspection query.
        #expect(measure.depth <= OperationLimits().maxDepth)
    }

    @Test func theDocumentCacheCountsHitsAndEvictsTheLeastRecentlyUsed() async throws {
        let harness = try ExecutionHarness(Self.sdl, configuration: ExecutorConfiguration(documentCacheCapacity: 2))
        let cache = harness.executor.documentCache
        for query in ["{ a: nodes { id } }", "{ b: nodes { id } }", "{ a: nodes { id } }", "{ c: nodes { id } }", "{ b: nodes { id } }"] {
            _ = try await harness.run(query, root: ["nodes": []])
        }
        // a miss, b miss, a hit, c miss (evicts b), b miss.
        #expect(cache.hits == 1)
        #expect(cache.misses == 4)
        #expect(cache.count == 2)
        // Refused documents are not kept: prepared again each time, evicting nothing.
        _ = try await harness.run("{ nope }")
        _ = try await harness.run("{ nope }")
        _ = try await harness.run("{ a: nodes { id")
        #expect(cache.hits == 1)
        #expect(cache.misses == 7)
        #expect(cache.count == 2)
        _ = try await harness.run("{ c: nodes { id } }")
        #expect(cache.hits == 2, "c is still cached")
    }

    /// The byte bound: documents are evicted (oldest first) to keep their texts' total under it,
    /// one larger than all of it is never cached, and the key is the host's digest of the text.
    @Test func theDocumentCacheIsBoundedByBytesAndKeyedByTheHostsDigest() async throws {
        let keys = Mutex<[String]>([])
        let configuration = ExecutorConfiguration(
            documentCacheCapacity: 100, documentCacheBytes: 60,
            documentKey: { text in
                let key = "digest-\(text.utf8.count)-\(text.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF })"
                keys.withLock { $0.append(key) }
                return key
            })
        let harness = try ExecutionHarness(Self.sdl, configuration: configuration)
        let cache = harness.executor.documentCache
        let first = "{ first: nodes { id } }"  // 23 bytes
        let second = "{ second: nodes { id } }"  // 24 bytes
        let third = "{ third: nodes { id } }"  // 23 bytes: the three are over 60
        for query in [first, second, third] { _ = try await harness.run(query, root: ["nodes": []]) }
        #expect(cache.count == 2)
        #expect(cache.bytes == second.utf8.count + third.utf8.count)
        _ = try await harness.run(first, root: ["nodes": []])
        #expect(cache.hits == 0, "first was evicted for third")
        let large = "{ " + (0..<10).map { "n\($0): nodes { id }" }.joined(separator: " ") + " }"
        _ = try await harness.run(large, root: ["nodes": []])
        _ = try await harness.run(large, root: ["nodes": []])
        #expect(cache.hits == 0, "a document over the whole bound is never cached")
        #expect(cache.bytes <= 60)
        #expect(keys.withLock { $0 }.count == 4, "keys for the four lookups that could be cached")
        #expect(keys.withLock { $0 }.allSatisfy { $0.hasPrefix("digest-") })
    }

    @Test func introspectionDescribesTypesFieldsArgumentsAndDeprecations() async throws {
        let harness = try ExecutionHarness(Self.sdl)
        let response = try await harness.plain("""
            {
              __schema { description queryType { name } mutationType { name } }
              item: __type(name: "Item") { kind name fields { name isDeprecated deprecationReason args { name defaultValue } } interfaces { name } }
              all: __type(name: "Item") { fields(includeDeprecated: true) { name deprecationReason args(includeDeprecated: true) { name isDeprecated } } }
              mood: __type(name: "Mood") { enumValues { name } every: enumValues(includeDeprecated: true) { name isDeprecated } }
              filter: __type(name: "Filter") { isOneOf inputFields { name defaultValue type { kind name ofType { name } } } }
              stamp: __type(name: "Stamp") { kind specifiedByURL }
              pick: __type(name: "Pick") { isOneOf }
              node: __type(name: "Node") { possibleTypes { name } fields { type { kind ofType { kind name } } } }
              missing: __type(name: "Nope") { name }
            }
            """)
        #expect(response == json("""
            {"data":{
              "__schema":{"description":"The household API.","queryType":{"name":"Query"},"mutationType":null},
              "item":{"kind":"OBJECT","name":"Item","fields":[
                {"name":"id","isDeprecated":false,"deprecationReason":null,"args":[]},
                {"name":"parent","isDeprecated":false,"deprecationReason":null,"args":[]},
                {"name":"children","isDeprecated":false,"deprecationReason":null,"args":[{"name":"first","defaultValue":"10"}]}],
                "interfaces":[{"name":"Node"}]},
              "all":{"fields":[
                {"name":"id","deprecationReason":null,"args":[]},
                {"name":"parent","deprecationReason":null,"args":[]},
                {"name":"children","deprecationReason":null,"args":[{"name":"first","isDeprecated":false},{"name":"after","isDeprecated":true}]},
                {"name":"legacy","deprecationReason":"Use id.","args":[]}]},
              "mood":{"enumValues":[{"name":"HAPPY"}],"every":[{"name":"HAPPY","isDeprecated":false},{"name":"SAD","isDeprecated":true}]},
              "filter":{"isOneOf":false,"inputFields":[
                {"name":"mood","defaultValue":null,"type":{"kind":"ENUM","name":"Mood","ofType":null}},
                {"name":"text","defaultValue":"\\"x\\"","type":{"kind":"SCALAR","name":"String","ofType":null}}]},
              "stamp":{"kind":"SCALAR","specifiedByURL":"https://example.com/stamp"},
              "pick":{"isOneOf":true},
              "node":{"possibleTypes":[{"name":"Item"}],"fields":[
                {"type":{"kind":"NON_NULL","ofType":{"kind":"SCALAR","name":"ID"}}},
                {"type":{"kind":"INTERFACE","ofType":null}},
                {"type":{"kind":"LIST","ofType":{"kind":"INTERFACE","name":"Node"}}}]},
              "missing":null}}
            """))
    }

    @Test func introspectionCanBeSwitchedOff() async throws {
        let harness = try ExecutionHarness(Self.sdl, configuration: ExecutorConfiguration(introspection: false))
        let response = await harness.executor.execute(GraphQLRequest(query: "{ __schema { queryType { name } } __typename }"))
        #expect(response.refusal == .validation)
        // As graphql-js's NoSchemaIntrospectionCustomRule: every field returning an introspection type.
        #expect(response.errors.map(\.message) == [
            "GraphQL introspection has been disabled, but the requested query contained the field \"__schema\".",
            "GraphQL introspection has been disabled, but the requested query contained the field \"queryType\".",
        ])
        #expect(try await harness.plain("{ __typename }") == json(#"{"data":{"__typename":"Query"}}"#))
    }

    static let roundTrip = ReferenceOracle.repositoryRoot.appendingPathComponent("scripts/reference/introspection-roundtrip.py")
    static let github = BenchInputs.available().first { $0.name == "github-schema.graphql" }
    static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        .flatMap { _ in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", "import graphql"]
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return nil }
            process.waitUntilExit()
            return process.terminationStatus == 0 ? "python3" : nil
        }

    @Test(
        "graphql-core rebuilds GitHub's schema from Hearth's introspection and prints it as it prints the SDL",
        .enabled(if: github != nil && (python != nil || DifferentialExecutionTests.isCI),
                 "SKIPPED: needs ../shared/bench/github-schema.graphql and python3 with graphql-core"))
    func introspectionRoundTripThroughGraphQLCore() async throws {
        let github = try #require(Self.github, "the GitHub schema is missing (../shared/bench)")
        try #require(Self.python != nil, "python3 with graphql-core is missing (pip install graphql-core)")
        let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("hearth-introspection-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The query comes from graphql-core itself, with every option on.
        let query = try Self.runPython(["--print-query"], directory: directory)
        let harness = try ExecutionHarness(github.text, configuration: ExecutorConfiguration(limits: .unlimited))
        let response = await harness.executor.execute(GraphQLRequest(query: query))
        #expect(response.errors.isEmpty)
        let result = directory.appendingPathComponent("introspection.json")
        let sdl = directory.appendingPathComponent("schema.graphql")
        try Data(response.json).write(to: result)
        try Data(github.text.utf8).write(to: sdl)
        let verdict = try Self.runPython([result.path, sdl.path], directory: directory)
        #expect(verdict.hasPrefix("equal"), "\(verdict.prefix(3000))")
    }

    static func runPython(_ arguments: [String], directory: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", roundTrip.path] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// Queries shared by tests and benchmarks.
enum BenchQueries {
    /// graphql-js 16's `getIntrospectionQuery()` with descriptions.
    static let introspection = """
        query IntrospectionQuery {
          __schema {
            queryType { name } mutationType { name } subscriptionType { name }
            types { ...FullType }
            directives { name description locations args { ...InputValue } }
          }
        }
        fragment FullType on __Type {
          kind name description
          fields(includeDeprecated: true) { name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
          inputFields { ...InputValue }
          interfaces { ...TypeRef }
          enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
          possibleTypes { ...TypeRef }
        }
        fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
        fragment TypeRef on __Type {
          kind name
          ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }
        }
        """
}
