import Foundation
import GraphQLEngine
import HearthServer
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// `Authorization: Bearer <token>` on `/graphql` over real HTTP: no token runs anonymously, a
/// token the authenticator refuses (until accounts exist: every token) answers 401
/// `UNAUTHENTICATED` with an RFC 6750 challenge, and resolvers see the caller, client address and
/// request id.
@Suite struct GraphQLHTTPAuthenticationTests {
    static func withServer(
        authenticator: Authenticator = .noAccounts, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let router = Router(context: HearthRequestContext.self)
        GraphQLController(executor: try TestSubscriptionSchema.executor(), authenticator: authenticator).addRoutes(to: router)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: Logger(label: "test"))
        try await app.test(.live) { client in try await body(client) }
    }

    static func post(_ client: any TestClientProtocol, authorization: String?, accept: String = "application/graphql-response+json")
        async throws -> TestResponse
    {
        var headers: HTTPFields = [.contentType: "application/json", .accept: accept]
        if let authorization { headers[.authorization] = authorization }
        return try await client.execute(
            uri: "/graphql", method: .post, headers: headers, body: ByteBuffer(string: #"{"query":"{ requestContext }"}"#))
    }

    @Test func withoutATokenTheCallerIsAnonymous() async throws {
        try await Self.withServer { client in
            let response = try await Self.post(client, authorization: nil)
            #expect(response.status == .ok)
            #expect(String(buffer: response.body) == #"{"data":{"requestContext":"anonymous from 127.0.0.1, id set"}}"#)
        }
    }

    @Test(arguments: [
        ("Bearer c29tZS10b2tlbg", #"Bearer realm="hearth", error="invalid_token""#,
         "The bearer token is not valid: it is unknown, expired or revoked. Sign in again."),
        ("Basic dXNlcjpwYXNz", #"Bearer realm="hearth", error="invalid_request""#,
         #"The Authorization header must be \"Bearer <token>\"."#),
        ("Bearer", #"Bearer realm="hearth", error="invalid_request""#, #"The Authorization header must be \"Bearer <token>\"."#),
        ("Bearer a,b", #"Bearer realm="hearth", error="invalid_request""#,
         "The bearer token is not a token (1 to 512 characters of A-Z a-z 0-9 - . _ ~ + / =)."),
    ])
    func aRefusedTokenIs401WithAChallenge(header: String, challenge: String, message: String) async throws {
        try await Self.withServer { client in
            for accept in ["application/graphql-response+json", "application/json"] {
                let response = try await Self.post(client, authorization: header, accept: accept)
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate] == challenge)
                #expect(response.headers[.contentType]?.hasPrefix(accept) == true)
                #expect(String(buffer: response.body) == #"{"errors":[{"message":"\#(message)","extensions":{"code":"UNAUTHENTICATED"}}]}"#)
            }
            // GET and SSE check the token the same way.
            let get = try await client.execute(
                uri: "/graphql?query=%7Bhello%7D", method: .get, headers: [.authorization: header, .accept: "application/json"])
            #expect(get.status == .unauthorized)
            let sse = try await client.execute(
                uri: "/graphql", method: .post,
                headers: [.authorization: header, .accept: "text/event-stream", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"query":"subscription { count(to: 1) }"}"#))
            #expect(sse.status == .unauthorized)
            #expect(sse.headers[.contentType]?.hasPrefix("application/graphql-response+json") == true)
        }
    }

    @Test func aTokenTheAuthenticatorKnowsIsServed() async throws {
        let authenticator = Authenticator { token in token.value == "letmein" ? .anonymous : nil }
        try await Self.withServer(authenticator: authenticator) { client in
            let accepted = try await Self.post(client, authorization: "bearer letmein")
            #expect(accepted.status == .ok)
            #expect(String(buffer: accepted.body) == #"{"data":{"requestContext":"anonymous from 127.0.0.1, id set"}}"#)
            let refused = try await Self.post(client, authorization: "Bearer letmeout")
            #expect(refused.status == .unauthorized)
        }
    }

    @Test func aFailingLookupIsAnInternalErrorWithoutDetail() async throws {
        struct DatabaseDown: Error {}
        let authenticator = Authenticator { _ in throw DatabaseDown() }
        try await Self.withServer(authenticator: authenticator) { client in
            let response = try await Self.post(client, authorization: "Bearer letmein")
            #expect(response.status == .internalServerError)
            #expect(String(buffer: response.body) == #"{"errors":[{"message":"Internal server error","extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}"#)
            // Without a token the authenticator is not asked.
            #expect(try await Self.post(client, authorization: nil).status == .ok)
        }
    }
}
