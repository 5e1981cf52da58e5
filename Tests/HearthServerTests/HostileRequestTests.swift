import Foundation
import HearthServer
import Hummingbird
import HummingbirdTesting
import Testing

/// Hostile GraphQL documents and variables against the real schema over real HTTP: each is
/// refused with a 4xx and a code, at a bounded cost, and the server answers normally after it.
@Suite struct HostileRequestTests {
    static func post(_ client: any TestClientProtocol, _ body: String) async throws -> (TestResponse, [String: Any]) {
        let response = try await client.execute(
            uri: "/graphql", method: .post,
            headers: [.contentType: "application/json", .accept: "application/graphql-response+json"], body: ByteBuffer(string: body))
        let json = (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any] ?? [:]
        return (response, json)
    }

    static func codes(_ json: [String: Any]) -> [String?] {
        (json["errors"] as? [[String: Any]] ?? []).map { ($0["extensions"] as? [String: Any])?["code"] as? String }
    }

    static func stillServes(_ client: any TestClientProtocol) async throws {
        let (response, json) = try await post(client, #"{"query":"{ serverInfo { version } }"}"#)
        #expect(response.status == .ok && json["data"] != nil, "the server answers normally afterwards")
    }

    /// 3 330 alternating fields under one alias (55 KB): refused by the alias limit before any
    /// validation rule runs, instead of millions of overlapping-field conflicts.
    @Test func anAliasBombIsRefusedBeforeValidation() async throws {
        try await GraphQLHTTPTests.withServer { client in
            let fields = (0..<3_330).map { $0.isMultiple(of: 2) ? "a:__typename" : "a:exportPreferences" }
            let (response, json) = try await Self.post(client, #"{"query":"{ \#(fields.joined(separator: " ")) }"}"#)
            #expect(response.status == .unprocessableContent)
            let codes = Self.codes(json)
            #expect(!codes.isEmpty && codes.allSatisfy { $0 == "QUERY_TOO_COMPLEX" }, "\(String(buffer: response.body).prefix(400))")
            #expect(String(buffer: response.body).contains("uses 3330 aliases"))
            try await Self.stillServes(client)
        }
    }

    /// Under the alias limit, conflicts still stop at the validation error limit (100, then
    /// "Too many validation errors"), every error with its code.
    @Test func conflictsStopAtTheErrorLimit() async throws {
        try await GraphQLHTTPTests.withServer { client in
            let fields = (0..<98).map { $0.isMultiple(of: 2) ? "a:__typename" : "a:exportPreferences" }
            let (response, json) = try await Self.post(client, #"{"query":"{ \#(fields.joined(separator: " ")) }"}"#)
            #expect(response.status == .unprocessableContent)
            let errors = json["errors"] as? [[String: Any]] ?? []
            #expect(errors.count == 101)
            #expect(errors.last?["message"] as? String == "Too many validation errors, error limit reached. Validation aborted.")
            #expect(Self.codes(json).allSatisfy { $0 == "GRAPHQL_VALIDATION_FAILED" })
        }
    }

    /// 100 000 bad values in one variable: at most 50 errors, the last saying so, each with a code.
    @Test func tooManyVariableErrorsAllHaveACode() async throws {
        try await GraphQLHTTPTests.withServer { client in
            let ids = Array(repeating: #""nope""#, count: 100_000).joined(separator: ",")
            let query = "query($h: UUID!, $ids: [UUID!]) { tasks(householdId: $h, filter: {labelIds: $ids}) { totalCount } }"
            let body = #"{"query":"\#(query)","variables":{"h":"00000000-0000-4000-8000-000000000000","ids":[\#(ids)]}}"#
            let (response, json) = try await Self.post(client, body)
            #expect(response.status == .badRequest)
            let errors = json["errors"] as? [[String: Any]] ?? []
            #expect(errors.count == 51)
            #expect(errors.last?["message"] as? String == "Too many errors processing variables, error limit reached. Execution aborted.")
            #expect(Self.codes(json).allSatisfy { $0 == "BAD_USER_INPUT" }, "\(Self.codes(json).suffix(3))")
            try await Self.stillServes(client)
        }
    }

    /// Found by the fuzz run: a NUL character reached PostgreSQL (which cannot store it) and came
    /// back as INTERNAL_SERVER_ERROR. String and JSON values holding one are refused at the API.
    @Test func theNULCharacterIsRefusedAtTheAPI() async throws {
        try await GraphQLHTTPTests.withServer { client in
            let variable = #"{"query":"mutation($e: String!) { signIn(email: $e, password: \"x\") { token } }","variables":{"e":"a\u0000b@example.org"}}"#
            let (byVariable, variableJSON) = try await Self.post(client, variable)
            #expect(byVariable.status == .badRequest)
            #expect(Self.codes(variableJSON) == ["BAD_USER_INPUT"])
            #expect(String(buffer: byVariable.body).contains("String cannot represent text containing the NUL character (U+0000)."))
            let literal = #"{"query":"mutation { signIn(email: \"a\\u0000b\", password: \"x\") { token } }"}"#
            let (byLiteral, literalJSON) = try await Self.post(client, literal)
            #expect(byLiteral.status == .unprocessableContent, "\(String(buffer: byLiteral.body))")
            #expect(Self.codes(literalJSON) == ["GRAPHQL_VALIDATION_FAILED"])
            let json = #"{"query":"mutation($p: JSON!) { importPreferences(preferences: $p) { theme } }","variables":{"p":{"the\u0000me":"DARK"}}}"#
            let (byJSON, jsonJSON) = try await Self.post(client, json)
            #expect(byJSON.status == .badRequest && Self.codes(jsonJSON) == ["BAD_USER_INPUT"], "\(String(buffer: byJSON.body))")
            try await Self.stillServes(client)
        }
    }

    /// A few dozen hostile bodies: each gets a 4xx whose errors all carry a code, and the server
    /// answers normally after each.
    @Test func hostileDocumentsGetA4xxWithACode() async throws {
        func query(_ text: String) -> String {
            let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return #"{"query":"\#(escaped)"}"#
        }
        let fragments = (0..<30).map { "fragment F\($0) on Query { ...F\($0 + 1) ...F\($0 + 1) }" }.joined(separator: " ")
            + " fragment F30 on Query { serverInfo { version } }"
        let cases: [(name: String, body: String)] = [
            ("nesting 1 000 deep", query(String(repeating: "{ a ", count: 1_000) + String(repeating: "}", count: 1_000))),
            ("fragments doubling 30 times", query("{ ...F0 } " + fragments)),
            ("5 000 directives", query("{ serverInfo " + String(repeating: "@skip(if: false) ", count: 5_000) + "{ version } }")),
            ("a list literal of 100 000 items", query("{ serverInfo(x: [" + String(repeating: "1,", count: 100_000) + "]) { version } }")),
            ("a list literal nested 10 000 deep", query("{ serverInfo(x: " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + ") { version } }")),
            ("an object literal nested 10 000 deep", query("{ serverInfo(x: " + String(repeating: "{a: ", count: 10_000) + "1" + String(repeating: "}", count: 10_000) + ") { version } }")),
            ("a 900 KB string literal", query("{ serverInfo(x: \"" + String(repeating: "a", count: 900_000) + "\") { version } }")),
            ("introspection 20 levels deep", query("{ __schema { types { " + String(repeating: "fields { type { ", count: 10) + "name" + String(repeating: " } }", count: 10) + " } } }")),
            ("variables nested 100 000 deep", #"{"query":"query($v: JSON) { serverInfo { version } }","variables":{"v":"# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}}"),
            ("a batch", #"[{"query":"{ serverInfo { version } }"},{"query":"{ serverInfo { version } }"}]"#),
            ("an empty body", ""),
            ("a JSON string", #""{ serverInfo { version } }""#),
            ("a query that is a number", #"{"query":42}"#),
            ("variables that are a list", #"{"query":"{ serverInfo { version } }","variables":[1]}"#),
            ("an empty query", #"{"query":""}"#),
            ("only a comment", ##"{"query":"# nothing"}"##),
            ("an unknown operation name", #"{"query":"query A { serverInfo { version } }","operationName":"B"}"#),
            ("two anonymous operations", query("{ serverInfo { version } } { serverInfo { version } }")),
            ("a subscription over POST without a stream", query("subscription { heartbeat { sequence } }")),
            ("an unterminated string", query("{ serverInfo(x: \"abc) { version } }")),
            ("a NUL in the document", #"{"query":"{ server\u0000Info { version } }"}"#),
        ]
        try await GraphQLHTTPTests.withServer { client in
            for item in cases {
                let (response, json) = try await Self.post(client, item.body)
                let codes = Self.codes(json)
                #expect((400..<500).contains(Int(response.status.code)), "\(item.name): \(response.status) \(String(buffer: response.body).prefix(300))")
                #expect(!codes.isEmpty && codes.allSatisfy { $0 != nil && $0 != "INTERNAL_SERVER_ERROR" }, "\(item.name): \(codes)")
            }
            // Invalid UTF-8, and bodies that are not JSON at all.
            for (name, bytes, contentType) in [
                ("invalid UTF-8", [UInt8](#"{"query":"{ a"#.utf8) + [0xC3, 0x28, 0xFF] + [UInt8](#" }"}"#.utf8), "application/json"),
                ("plain text", [UInt8]("{ serverInfo { version } }".utf8), "text/plain"),
                ("a form", [UInt8]("query=%7B+serverInfo+%7B+version+%7D+%7D".utf8), "application/x-www-form-urlencoded"),
                ("multipart", [UInt8]("--x\r\n\r\n{}\r\n--x--".utf8), "multipart/form-data; boundary=x"),
            ] as [(String, [UInt8], String)] {
                let response = try await client.execute(
                    uri: "/graphql", method: .post, headers: [.contentType: contentType, .accept: "application/graphql-response+json"],
                    body: ByteBuffer(bytes: bytes))
                #expect((400..<500).contains(Int(response.status.code)), "\(name): \(response.status)")
                #expect(String(buffer: response.body).contains(#""code":""#), "\(name): \(String(buffer: response.body).prefix(200))")
            }
            try await Self.stillServes(client)
        }
    }
}
