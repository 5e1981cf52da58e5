import Foundation
import GraphQLEngine
import HearthCore
import HearthServer
import HearthTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// `/graphql` over real HTTP on 127.0.0.1: the GraphQL-over-HTTP status codes for both media
/// types, GET rules, and requests refused before the engine sees them.
@Suite struct GraphQLHTTPTests {
    static let graphQLResponse = "application/graphql-response+json; charset=utf-8"
    static let legacyJSON = "application/json; charset=utf-8"

    /// Runs `body` against a server with schema.graphql on a fresh database.
    static func withServer(
        maxBodyBytes: Int = 1 << 20, corsOrigins: [String] = [], connections: HTTPConnectionLimits = HTTPConnectionLimits(),
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        try await withTestDatabase { database, _ throws in
            try await withServer(database: database, maxBodyBytes: maxBodyBytes, corsOrigins: corsOrigins, connections: connections, body)
        }
    }

    /// Runs `body` against a server with schema.graphql on `database`.
    static func withServer(
        database: Database, maxBodyBytes: Int = 1 << 20, corsOrigins: [String] = [],
        connections: HTTPConnectionLimits = HTTPConnectionLimits(),
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        do {
            let runtime = try HearthRuntime.testing(on: database)
            let app = buildApplication(
                configuration: .init(
                    host: "127.0.0.1", port: 0, graphQL: GraphQLHTTPConfiguration(maxBodyBytes: maxBodyBytes), corsOrigins: corsOrigins,
                    connections: connections),
                dependencies: runtime.dependencies, logger: TestPostgres.logger)
            try await app.test(.live) { client throws in try await body(client) }
        }
    }

    static func post(
        _ client: any TestClientProtocol, _ body: String, accept: String? = "application/graphql-response+json",
        contentType: String? = "application/json"
    ) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let accept { headers[.accept] = accept }
        if let contentType { headers[.contentType] = contentType }
        return try await client.execute(uri: "/graphql", method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    static func get(_ client: any TestClientProtocol, _ parameters: [(String, String)], accept: String = "application/graphql-response+json")
        async throws -> TestResponse
    {
        var components = URLComponents()
        components.path = "/graphql"
        components.queryItems = parameters.map { URLQueryItem(name: $0.0, value: $0.1) }
        // URLComponents leaves `+` alone; encode it so it is not read as a space.
        let uri = (components.percentEncodedQuery.map { "/graphql?" + $0.replacingOccurrences(of: "+", with: "%2B") }) ?? "/graphql"
        return try await client.execute(uri: uri, method: .get, headers: [.accept: accept])
    }

    static func text(_ response: TestResponse) -> String { String(buffer: response.body) }

    @Test func aQueryAnswers200WithTheNegotiatedMediaType() async throws {
        try await Self.withServer { client in
            let query = #"{"query":"{ serverInfo { version } }"}"#
            let modern = try await Self.post(client, query)
            #expect(modern.status == .ok)
            #expect(modern.headers[.contentType] == Self.graphQLResponse)
            #expect(Self.text(modern) == #"{"data":{"serverInfo":{"version":"9.8.7"}}}"#)
            let legacy = try await Self.post(client, query, accept: "application/json")
            #expect(legacy.headers[.contentType] == Self.legacyJSON)
            #expect(Self.text(legacy) == Self.text(modern))
            let noAccept = try await Self.post(client, query, accept: nil)
            #expect(noAccept.headers[.contentType] == Self.legacyJSON)
            let wildcard = try await Self.post(client, query, accept: "text/html;q=0.9, */*;q=0.8")
            #expect(wildcard.headers[.contentType] == Self.graphQLResponse)
            let both = try await Self.post(client, query, accept: "application/json, application/graphql-response+json;q=0")
            #expect(both.headers[.contentType] == Self.legacyJSON)
            let asGraphQLResponseBody = try await Self.post(client, query, contentType: "application/graphql-response+json")
            #expect(asGraphQLResponseBody.status == .ok)
        }
    }

    @Test func engineRefusalsGetTheSpecificationsStatusCodes() async throws {
        try await Self.withServer { client in
            let cases: [(body: String, status: HTTPResponse.Status, code: String)] = [
                (#"{"query":"{ serverInfo { "}"#, .badRequest, "GRAPHQL_PARSE_FAILED"),
                (#"{"query":"{ serverInfo { weather } }"}"#, .unprocessableContent, "GRAPHQL_VALIDATION_FAILED"),
                (#"{"query":"query ($v: Boolean!) { serverInfo @include(if: $v) { version } }","variables":{}}"#, .badRequest, "BAD_USER_INPUT"),
                (#"{"query":"query A { serverInfo { version } }","operationName":"B"}"#, .badRequest, "OPERATION_RESOLUTION_FAILURE"),
            ]
            for item in cases {
                let modern = try await Self.post(client, item.body)
                #expect(modern.status == item.status, "\(item.body)")
                #expect(Self.text(modern).contains(#""code":"\#(item.code)""#), "\(Self.text(modern))")
                #expect(!Self.text(modern).contains(#""data""#))
                // Legacy clients get 200 for every well-formed GraphQL response.
                let legacy = try await Self.post(client, item.body, accept: "application/json")
                #expect(legacy.status == .ok, "\(item.body)")
                #expect(Self.text(legacy) == Self.text(modern))
            }
        }
    }

    @Test func malformedRequestsAre400NamingTheProblem() async throws {
        try await Self.withServer { client in
            let cases: [(body: String, message: String)] = [
                ("{not json", "The request body is not valid JSON"),
                ("[1]", "The request body must be a JSON object"),
                (#"{"variables":{}}"#, #"The request has no \"query\"."#),
                (#"{"query":42}"#, #"The request's \"query\" must be a string."#),
                (#"{"query":"{ serverInfo { version } }","variables":[1]}"#, #"The request's \"variables\" must be a JSON object or null."#),
                (#"{"query":"{ serverInfo { version } }","operationName":7}"#, #"The request's \"operationName\" must be a string or null."#),
                (#"{"query":"{ serverInfo { version } }","extensions":"x"}"#, #"The request's \"extensions\" must be a JSON object or null."#),
            ]
            for item in cases {
                for accept in ["application/graphql-response+json", "application/json"] {
                    let response = try await Self.post(client, item.body, accept: accept)
                    #expect(response.status == .badRequest, "\(item.body)")
                    #expect(Self.text(response).contains(item.message), "\(Self.text(response))")
                    #expect(Self.text(response).contains(#""code":"BAD_REQUEST""#))
                }
            }
            let extra = try await Self.post(client, #"{"query":"{ serverInfo { version } }","variables":null,"id":"x","foo":[1]}"#)
            #expect(extra.status == .ok, "unknown properties are ignored")
        }
    }

    @Test func mediaTypesAndSizeAreChecked() async throws {
        try await Self.withServer(maxBodyBytes: 64) { client in
            let query = #"{"query":"{ serverInfo { version } }"}"#
            let plain = try await Self.post(client, query, contentType: "text/plain")
            #expect(plain.status == .unsupportedMediaType)
            #expect(Self.text(plain).contains(#""code":"UNSUPPORTED_MEDIA_TYPE""#))
            let missing = try await Self.post(client, query, contentType: nil)
            #expect(missing.status == .unsupportedMediaType)
            let latin1 = try await Self.post(client, query, contentType: "application/json; charset=iso-8859-1")
            #expect(latin1.status == .unsupportedMediaType)
            let html = try await Self.post(client, query, accept: "text/html")
            #expect(html.status == .notAcceptable)
            let large = try await Self.post(client, #"{"query":"{ serverInfo { version startedAt } }","padding":"\#(String(repeating: "x", count: 100))"}"#)
            #expect(large.status == .contentTooLarge)
            #expect(Self.text(large).contains(#""code":"PAYLOAD_TOO_LARGE""#))
            #expect(Self.text(large).contains("64 bytes"))
        }
    }

    @Test func getRunsQueriesAndRefusesMutations() async throws {
        try await Self.withServer { client in
            let query = try await Self.get(client, [("query", "query Q($v: Boolean!) { serverInfo @include(if: $v) { version } }"), ("variables", #"{"v":true}"#)])
            #expect(query.status == .ok)
            #expect(Self.text(query) == #"{"data":{"serverInfo":{"version":"9.8.7"}}}"#)
            let mutation = try await Self.get(client, [("query", "mutation { anything }")])
            #expect(mutation.status == .methodNotAllowed)
            #expect(mutation.headers[.allow] == "POST")
            #expect(Self.text(mutation).contains("A mutation cannot be sent with GET; use POST."))
            let chosen = try await Self.get(
                client, [("query", "query A { serverInfo { version } } mutation B { anything }"), ("operationName", "B")])
            #expect(chosen.status == .methodNotAllowed)
            let noQuery = try await Self.get(client, [("variables", "{}")])
            #expect(noQuery.status == .badRequest)
            let badVariables = try await Self.get(client, [("query", "{ serverInfo { version } }"), ("variables", "{nope")])
            #expect(badVariables.status == .badRequest)
            #expect(Self.text(badVariables).contains(#"The \"variables\" parameter is not valid JSON"#))
            let invalid = try await Self.get(client, [("query", "{ nothing }")])
            #expect(invalid.status == .unprocessableContent)
        }
    }

    /// GET parameters are form-encoded (what `requests`, `URLSearchParams` and browsers send):
    /// `+` is a space in every parameter, `%2B` a plus, as the GraphQL-over-HTTP specification says.
    @Test func getParametersAreFormEncoded() async throws {
        try await Self.withServer { client in
            func get(_ query: String) async throws -> TestResponse {
                try await client.execute(uri: "/graphql?" + query, method: .get, headers: [.accept: "application/graphql-response+json"])
            }
            let plain = try await get("query=query+Q+%7B+serverInfo+%7B+version+%7D+%7D")
            #expect(plain.status == .ok)
            #expect(Self.text(plain) == #"{"data":{"serverInfo":{"version":"9.8.7"}}}"#)
            let withVariables = try await get(
                "query=query+Q%28%24v%3A+Boolean%21%29+%7B+serverInfo+%40include%28if%3A+%24v%29+%7B+version+%7D+%7D"
                    + "&variables=%7B+%22v%22+%3A+true+%7D&operationName=Q")
            #expect(Self.text(withVariables) == #"{"data":{"serverInfo":{"version":"9.8.7"}}}"#, "\(Self.text(withVariables))")
            // In operationName too: `+` is a space, `%2B` a plus.
            let spaced = try await get("query=query+A+%7B+serverInfo+%7B+version+%7D+%7D&operationName=A+B")
            #expect(Self.text(spaced).contains(#"Unknown operation named \"A B\"."#), "\(Self.text(spaced))")
            let plus = try await get("query=query+A+%7B+serverInfo+%7B+version+%7D+%7D&operationName=A%2BB")
            #expect(Self.text(plus).contains(#"Unknown operation named \"A+B\"."#), "\(Self.text(plus))")
            // A persisted query over GET, its extensions form-encoded with spaces as `+`.
            _ = try await Self.post(client, #"{"query":"{ serverInfo { version } }","extensions":\#(Self.persisted)}"#)
            let persisted = try await get(
                "extensions=%7B+%22persistedQuery%22%3A+%7B+%22version%22%3A+1%2C+%22sha256Hash%22%3A+%22\(Self.hash)%22+%7D+%7D")
            #expect(persisted.status == .ok)
            #expect(Self.text(persisted) == #"{"data":{"serverInfo":{"version":"9.8.7"}}}"#)
            // Broken escapes and repeated parameters are refused, naming the parameter.
            let broken = try await get("query=%7B+serverInfo%ZZ")
            #expect(broken.status == .badRequest)
            #expect(Self.text(broken).contains(#"malformed percent-escape in the \"query\" parameter"#), "\(Self.text(broken))")
            let twice = try await get("query=%7B+a+%7D&query=%7B+b+%7D")
            #expect(twice.status == .badRequest)
            #expect(Self.text(twice).contains(#"gives the \"query\" parameter 2 times"#))
        }
    }

    /// `Accept` is read with its q-values: the highest acceptable quality wins, `q=0` refuses, an
    /// equal quality prefers a type named outright, then `application/graphql-response+json`.
    @Test func acceptQualitiesDecideTheMediaType() async throws {
        try await Self.withServer { client in
            let query = #"{"query":"{ serverInfo { version } }"}"#
            let cases: [(accept: String, contentType: String?)] = [
                ("application/graphql-response+json;q=0.5, application/json;q=0.9", Self.legacyJSON),
                ("application/graphql-response+json;q=0.9, application/json;q=0.5", Self.graphQLResponse),
                ("application/json;q=0.7, application/graphql-response+json;q=0.7", Self.graphQLResponse),
                ("application/json, */*;q=0.1", Self.legacyJSON),
                ("*/*", Self.graphQLResponse),
                ("application/*;q=0.4, application/json;q=0.3", Self.graphQLResponse),
                ("*/*;q=0.5, application/graphql-response+json;q=0", Self.legacyJSON),
                ("application/json; q=0, application/graphql-response+json; q=0", nil),
                ("application/json;q=0", nil),
                ("text/html, application/xml;q=0.9", nil),
            ]
            for item in cases {
                let response = try await Self.post(client, query, accept: item.accept)
                if let contentType = item.contentType {
                    #expect(response.status == .ok, "\(item.accept)")
                    #expect(response.headers[.contentType] == contentType, "\(item.accept)")
                } else {
                    #expect(response.status == .notAcceptable, "\(item.accept)")
                    #expect(Self.text(response).contains("NOT_ACCEPTABLE"))
                }
            }
        }
    }

    /// /graphql exists for every method: the others are 405 with `Allow`, not 404.
    @Test func otherMethodsAreNotAllowed() async throws {
        try await Self.withServer { client in
            for method in [HTTPRequest.Method.put, .delete, .patch] {
                let response = try await client.execute(
                    uri: "/graphql", method: method, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: #"{"query":"{ serverInfo { version } }"}"#))
                #expect(response.status == .methodNotAllowed, "\(method)")
                #expect(response.headers[.allow] == "GET, POST", "\(method)")
                #expect(Self.text(response).contains("METHOD_NOT_ALLOWED"))
            }
        }
    }

    // MARK: - Automatic persisted queries

    /// sha256("{ serverInfo { version } }"), computed with Python's hashlib.
    static let hash = "d987b06cb2c829f84516a37a46b353db8537ae43ad833bf50bbf56008b7ceb97"
    static let persisted = #"{"persistedQuery":{"version":1,"sha256Hash":"\#(hash)"}}"#

    @Test func persistedQueriesMissRegisterAndHit() async throws {
        try await withTestDatabase { database, _ throws in
            try await Self.withServer(database: database) { client in
                let miss = try await Self.post(client, #"{"extensions":\#(Self.persisted)}"#)
                #expect(miss.status == .ok)
                #expect(miss.headers[.cacheControl] == "private, no-store")
                #expect(Self.text(miss) == #"{"errors":[{"message":"PersistedQueryNotFound","extensions":{"code":"PERSISTED_QUERY_NOT_FOUND"}}]}"#)
                let getMiss = try await Self.get(client, [("extensions", Self.persisted)])
                #expect(Self.text(getMiss).contains("PERSISTED_QUERY_NOT_FOUND"))

                let wrong = try await Self.post(client, #"{"query":"{ serverInfo { startedAt } }","extensions":\#(Self.persisted)}"#)
                #expect(wrong.status == .badRequest)
                #expect(Self.text(wrong).contains("provided sha does not match query"))
                let afterWrong = try await Self.post(client, #"{"extensions":\#(Self.persisted)}"#)
                #expect(Self.text(afterWrong).contains("PERSISTED_QUERY_NOT_FOUND"), "a wrong hash registers nothing")

                let register = try await Self.post(client, #"{"query":"{ serverInfo { version } }","extensions":\#(Self.persisted)}"#)
                #expect(register.status == .ok)
                #expect(Self.text(register) == #"{"data":{"serverInfo":{"version":"9.8.7"}}}"#)

                let hit = try await Self.post(client, #"{"extensions":\#(Self.persisted)}"#)
                #expect(Self.text(hit) == #"{"data":{"serverInfo":{"version":"9.8.7"}}}"#)
                let upperCase = #"{"persistedQuery":{"version":1,"sha256Hash":"\#(Self.hash.uppercased())"}}"#
                let getHit = try await Self.get(client, [("extensions", upperCase)])
                #expect(getHit.status == .ok)
                #expect(Self.text(getHit) == #"{"data":{"serverInfo":{"version":"9.8.7"}}}"#)

                let version2 = try await Self.post(
                    client, #"{"extensions":{"persistedQuery":{"version":2,"sha256Hash":"\#(Self.hash)"}}}"#)
                #expect(version2.status == .badRequest)
                #expect(Self.text(version2).contains("PERSISTED_QUERY_NOT_SUPPORTED"))
            }
            // Stored in PostgreSQL: another instance (a fresh store, empty memory) knows the text.
            let otherInstance = PersistedQueryStore(database: database)
            #expect(try await otherInstance.text(forHash: Self.hash) == "{ serverInfo { version } }")
            #expect(try await otherInstance.text(forHash: String(repeating: "0", count: 64)) == nil)
        }
    }

    @Test func metricsCountOperationsByNameAndOutcome() async throws {
        try await Self.withServer { client in
            for _ in 0..<2 { _ = try await Self.post(client, #"{"query":"query MetricsProbe { serverInfo { version } }"}"#) }
            _ = try await Self.post(client, #"{"query":"query MetricsRefused { nope }"}"#)
            let longName = String(repeating: "N", count: 65)
            _ = try await Self.post(client, #"{"query":"query \#(longName) { serverInfo { version } }"}"#)
            let metrics = Self.text(try await client.execute(uri: "/metrics", method: .get))
            #expect(metrics.contains(#"hearth_graphql_operations_total{operation="MetricsProbe",outcome="ok"} 2"#), "\(metrics)")
            #expect(metrics.contains(#"hearth_graphql_operations_total{operation="MetricsRefused",outcome="refused"} 1"#))
            #expect(!metrics.contains(longName), "client-chosen names past 64 characters are not labels")
            #expect(metrics.contains("hearth_graphql_document_cache_hits "))
            #expect(metrics.contains("hearth_graphql_document_cache_misses "))
        }
    }

    @Test func corsIsOffByDefaultAndAllowsOnlyConfiguredOrigins() async throws {
        let preflight: HTTPFields = [.origin: "https://app.example", .accessControlRequestMethod: "POST"]
        try await Self.withServer { client in
            let response = try await client.execute(uri: "/graphql", method: .options, headers: preflight)
            #expect(response.headers[.accessControlAllowOrigin] == nil)
        }
        try await Self.withServer(corsOrigins: ["https://app.example"]) { client in
            let allowed = try await client.execute(uri: "/graphql", method: .options, headers: preflight)
            #expect(allowed.status == .noContent)
            #expect(allowed.headers[.accessControlAllowOrigin] == "https://app.example")
            #expect(allowed.headers[.accessControlAllowMethods]?.contains("POST") == true)
            let other = try await client.execute(
                uri: "/graphql", method: .options, headers: [.origin: "https://evil.example", .accessControlRequestMethod: "POST"])
            #expect(other.headers[.accessControlAllowOrigin] == nil)
            let query = try await client.execute(
                uri: "/graphql", method: .post,
                headers: [.origin: "https://app.example", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"query":"{ serverInfo { version } }"}"#))
            #expect(query.status == .ok)
            #expect(query.headers[.accessControlAllowOrigin] == "https://app.example")
            #expect(query.headers[.vary] == "Origin")
        }
    }
}
