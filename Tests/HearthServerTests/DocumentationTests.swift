import FixtureShop
import Foundation
import GraphQLEngine
import HearthCore
import HearthServer
import HearthTestSupport
import Testing

/// The README and the guides in `docs/` show GraphQL as people will paste it: every operation in
/// a `graphql` block, and every query a `curl` example sends, is validated against the real
/// `schema.graphql` and then run, in the order a reader meets them, against a running Hearth as
/// a person who owns a household (subscriptions are validated only: they never end).
///
/// Placeholders (`"…"`, `"5d0c…"`) are filled in: a household's id with the reader's household,
/// other ids with fresh UUIDs, addresses with one on loopback. A query whose placeholders are only
/// the household must answer without errors; any other operation may be refused by a resolver (a
/// made-up id is NOT_FOUND), but never for its shape: no syntax, validation or variable errors.
@Suite struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The documents: the README and every guide.
    static func documents() throws -> [(name: String, text: String)] {
        let docs = root.appendingPathComponent("docs")
        let guides = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        return try (["README.md"] + guides.map { "docs/\($0)" }).map { name in
            (name, try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8))
        }
    }

    /// One operation as a document shows it, and where.
    struct Shown: CustomStringConvertible {
        let document: String
        let line: Int
        let text: String
        var description: String { "\(document):\(line): \(text.prefix(120))" }
    }

    /// The operations of a document: each top-level definition of its `graphql` blocks, and the
    /// queries of its `sh` blocks (`"query":"…"` JSON bodies and `query=…` URL parameters).
    static func operations(in document: String, _ text: String) -> [Shown] {
        var shown: [Shown] = []
        var language: String?
        var block: [String] = []
        var start = 0
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                if let fenced = language {
                    if fenced == "graphql" {
                        shown += definitions(block.joined(separator: "\n")).map { Shown(document: document, line: start + 1, text: $0) }
                    } else if fenced == "sh" {
                        shown += shellQueries(block.joined(separator: "\n")).map { Shown(document: document, line: start + 1, text: $0) }
                    }
                    language = nil
                } else {
                    language = String(line.dropFirst(3))
                    block = []
                    start = index + 1
                }
            } else if language != nil {
                block.append(String(line))
            }
        }
        return shown
    }

    /// A block's top-level definitions: text up to each closing brace that ends a selection set
    /// at depth 0 (strings and comments skipped).
    static func definitions(_ block: String) -> [String] {
        var definitions: [String] = []
        var current = ""
        var depth = 0
        var inString = false, inComment = false, escaped = false
        for character in block {
            current.append(character)
            if inComment {
                if character == "\n" { inComment = false }
                continue
            }
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            switch character {
            case "#": inComment = true
            case "\"": inString = true
            case "{": depth += 1
            case "}":
                depth -= 1
                if depth == 0 {
                    definitions.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
                    current = ""
                }
            default: break
            }
        }
        // A trailing comment line (after the last definition) is no definition.
        return definitions.map { definition in
            definition.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }.joined(separator: "\n")
        }
    }

    /// The queries `curl` examples send.
    static func shellQueries(_ block: String) -> [String] {
        var queries: [String] = []
        for match in block.matches(of: /"query":"((?:[^"\\]|\\.)*)"/) {
            if let data = "\"\(match.1)\"".data(using: .utf8), let query = try? JSONDecoder().decode(String.self, from: data) {
                queries.append(query)
            }
        }
        for match in block.matches(of: /'query=([^']*)'/) { queries.append(String(match.1)) }
        return queries
    }

    /// The operation with its placeholders filled, and whether any was not the reader's household.
    static func filled(_ operation: String, household: String, origin: String) -> (text: String, madeUp: Bool) {
        var madeUp = false
        let text = operation.replacing(/(\w+)(\s*[:(]\s*(?:id:\s*)?)"([^"]*…[^"]*)"/) { match -> String in
            let (key, separator) = (String(match.1), String(match.2))
            let value: String
            if key == "householdId" || (key == "household" && separator.contains("id")) {
                value = household
            } else if key.lowercased().hasSuffix("id") || separator.contains("id") {
                value = UUID().uuidString.lowercased()
                madeUp = true
            } else if ["endpoint", "url", "serverUrl"].contains(key) {
                value = origin + "/hook"
                madeUp = true
            } else {
                value = String(match.3).replacingOccurrences(of: "…", with: "x")
                madeUp = true
            }
            return "\(key)\(separator)\"\(value)\""
        }
        return (text, madeUp)
    }

    /// The codes that mean an operation's shape is wrong, not its data.
    static let shapeCodes: Set<String> = ["GRAPHQL_PARSE_FAILED", "GRAPHQL_VALIDATION_FAILED", "QUERY_TOO_COMPLEX", "BAD_REQUEST"]

    @Test func everyQueryInTheDocsRunsAgainstTheSchema() async throws {
        let schema = try HearthGraphQLSchema.load(from: HearthGraphQLSchemaTests.schemaURL, facts: HearthGraphQLSchemaTests.facts,
                                                  services: HearthGraphQLSchemaTests.offlineServices)
        let validator = Executor(schema.executable)
        let documents = try Self.documents()
        let shown = documents.flatMap { Self.operations(in: $0.name, $0.text) }
        // Every guide that shows GraphQL is read (a change of fence or layout cannot hide them).
        let documentsWithOperations = Set(shown.map(\.document))
        #expect(documentsWithOperations.isSuperset(of: ["README.md", "docs/graphql-api.md", "docs/sync-protocol.md", "docs/notifications.md",
                                                        "docs/assistants.md", "docs/repeating.md"]), "\(documentsWithOperations.sorted())")
        #expect(shown.count >= 30, "only \(shown.count) operations found")

        let shop = FixtureShop()
        try await shop.withRunning { port in
            // The tour's store (www.allbirds.com) is the fixture shop's "alpha", on loopback.
            let allowed = [ShopifyClientConfiguration.AllowedHost(host: "www.allbirds.com", origin: FixtureShop.origin(port: port, shop: "alpha"))]
            try await UsersOverHTTPTests.withServer(shopify: ShopifyClientConfiguration(requestTimeout: .seconds(5), allowedHosts: allowed)) { server in
                let reader = try await HouseholdsOverHTTPTests.person(server, "Reader")
                let household = try await HouseholdsOverHTTPTests.createHousehold(server, reader)
                var ran = 0, strict = 0
                for operation in shown {
                    let (text, madeUp) = Self.filled(operation.text, household: household, origin: "http://127.0.0.1:\(port)")
                    let prepared = validator.prepareUncached(text)
                    #expect(prepared.errors.isEmpty, "\(operation): \(prepared.errors.map(\.message))")
                    guard prepared.errors.isEmpty else { continue }
                    let kind = prepared.chosenOperation(named: nil)?.operation
                    if kind == .subscription { continue }
                    // signUp and signIn make their own session; everything else is the reader's.
                    let (status, json) = try await server.graphQL(text, token: text.contains("signUp") || text.contains("signIn") ? nil : reader.token)
                    let errors = json["errors"] as? [[String: Any]] ?? []
                    let codes = errors.compactMap { ($0["extensions"] as? [String: Any])?["code"] as? String }
                    #expect(status == .ok && Self.shapeCodes.isDisjoint(with: codes), "\(operation): \(status) \(json)")
                    if kind == .query && !madeUp {
                        #expect(errors.isEmpty, "\(operation): \(json)")
                        strict += 1
                    }
                    ran += 1
                }
                print("documentation: \(shown.count) operations validated, \(ran) run, \(strict) of them queries that must answer without errors")
                #expect(ran >= 25, "ran \(ran) operations")
            }
        }
    }
}
