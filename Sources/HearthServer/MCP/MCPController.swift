import Foundation
import HTTPTypes
import HearthCore
import Hummingbird
import Logging
import MCP
import ServiceLifecycle

/// The header naming a Streamable HTTP session (a valid field name: the unwrap cannot fail).
private let mcpSessionHeader = HTTPField.Name("Mcp-Session-Id")!

/// `/mcp`: the household assistant's tools over MCP's Streamable HTTP transport (POST JSON-RPC,
/// `Mcp-Session-Id`, SSE responses), through the official Swift SDK. Before the SDK sees a
/// request it must pass the origin check (DNS-rebinding protection), carry a live bearer token
/// (a session's or an access token's; 401 with a challenge otherwise), fit the body limit and
/// the person's request rate, and name a session that person opened.
struct MCPController<Context: Hummingbird.RequestContext>: Sendable {
    let sessions: MCPSessions
    let authenticator: Authenticator
    let configuration: MCPConfiguration

    func addRoutes(to router: Router<Context>) {
        for method in [HTTPTypes.HTTPRequest.Method.post, .get, .delete] {
            router.on("/mcp", method: method) { request, context in await handle(request, context) }
        }
        for method in [HTTPTypes.HTTPRequest.Method.put, .patch] {
            router.on("/mcp", method: method) { _, _ in
                Self.refusal(.methodNotAllowed, "/mcp accepts POST, GET and DELETE.", headers: [.allow: "GET, POST, DELETE"])
            }
        }
    }

    func handle(_ request: Request, _ context: Context) async -> Response {
        var request = request
        if let origin = request.headers[.origin], !configuration.allows(origin: origin) {
            context.logger.info("MCP request refused: origin not allowed", metadata: ["origin": "\(origin.prefix(100))"])
            return Self.refusal(.forbidden, "Forbidden: requests from the origin \(origin.prefix(100)) are not allowed (see --public-url and --cors-origins).")
        }
        let identity: Identity
        do {
            identity = try await authenticator.identity(for: BearerToken.parse(authorization: request.headers[.authorization]))
        } catch let error as AuthenticationError {
            return Self.refusal(.unauthorized, error.message, headers: [.wwwAuthenticate: error.challenge])
        } catch {
            context.logger.error("cannot authenticate an MCP request", metadata: ["error": "\(String(reflecting: error))"])
            return Self.refusal(.internalServerError, "Internal server error")
        }
        guard let signedIn = identity.signedIn else {
            return Self.refusal(.unauthorized, "Send a bearer token: a personal access token (createAccessToken) or a session's.",
                                headers: [.wwwAuthenticate: #"Bearer realm="hearth""#])
        }
        if let wait = await sessions.admit(signedIn.user.id) {
            return Self.refusal(.tooManyRequests, "Too many requests; try again in \(wait) seconds.", headers: [.retryAfter: String(wait)])
        }
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: configuration.maxBodyBytes)
        } catch {
            return Self.refusal(.contentTooLarge, "The request body is larger than the limit of \(configuration.maxBodyBytes) bytes.")
        }
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = headers[field.name.canonicalName].map { "\($0), \(field.value)" } ?? field.value }
        let mcpRequest = MCP.HTTPRequest(method: request.method.rawValue, headers: headers, body: body.readableBytes > 0 ? Data(buffer: body) : nil, path: "/mcp")
        let owner = MCPSessions.Owner(user: signedIn.user.id, token: signedIn.accessToken?.id)
        let response: MCP.HTTPResponse
        if let id = request.headers[mcpSessionHeader] {
            guard let session = await sessions.session(id, for: owner) else {
                return Self.refusal(.notFound, "Not Found: no such session here (it ended, or belongs to someone else); initialize a new one.")
            }
            response = await session.transport.handleRequest(mcpRequest)
            if request.method == .delete, response.statusCode == 200 { await sessions.close(id) }
        } else if request.method == .post, let data = mcpRequest.body, Self.isInitialize(data) {
            do {
                let session = try await sessions.open(for: signedIn)
                response = await session.transport.handleRequest(mcpRequest)
            } catch {
                context.logger.error("cannot open an MCP session", metadata: ["error": "\(String(reflecting: error))"])
                return Self.refusal(.internalServerError, "Internal server error")
            }
        } else {
            return Self.refusal(.badRequest, "Bad Request: send Mcp-Session-Id, or begin with an initialize request.")
        }
        return Self.response(response)
    }

    /// Whether `body` is one JSON-RPC `initialize` request (what opens a session).
    static func isInitialize(_ body: Data) -> Bool {
        guard let message = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return false }
        return message["method"] as? String == "initialize" && message["id"] != nil
    }

    /// The SDK's answer as Hummingbird's: a body, or an SSE stream written as it comes.
    static func response(_ response: MCP.HTTPResponse) -> Response {
        var fields = HTTPFields()
        for (name, value) in response.headers {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        let status = HTTPResponse.Status(code: response.statusCode)
        switch response {
        case .stream(let stream, _):
            return Response(status: status, headers: fields, body: ResponseBody { writer in
                // The SDK's events, and a comment every 15 s: writing it fails once the client is
                // gone, which ends the stream (a session's GET stream never ends by itself). A
                // graceful shutdown ends it too, so no stream holds the server's shutdown.
                let (chunks, sink) = AsyncStream.makeStream(of: Data.self)
                let events = Task {
                    defer { sink.finish() }
                    try? await cancelWhenGracefulShutdown { for try await chunk in stream { sink.yield(chunk) } }
                }
                let keepAlive = Task {
                    while (try? await Task.sleep(for: .seconds(15))) != nil { sink.yield(Data(": keep-alive\n\n".utf8)) }
                }
                defer {
                    events.cancel()
                    keepAlive.cancel()
                }
                for await chunk in chunks { try await writer.write(ByteBuffer(bytes: chunk)) }
                try await writer.finish(nil)
            })
        default:
            return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: response.bodyData ?? Data())))
        }
    }

    /// A refusal before the SDK: a JSON-RPC error body with the HTTP status.
    static func refusal(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        let body: [String: Any] = ["jsonrpc": "2.0", "error": ["code": -32000, "message": message], "id": NSNull()]
        let data = (try? JSONSerialization.data(withJSONObject: body)) ?? Data()
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
