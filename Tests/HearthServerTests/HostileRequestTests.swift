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
}
