import GraphQLEngine
import HTTPTypes
import Hummingbird

/// `POST /graphql` and `GET /graphql`: GraphQL over HTTP (the 2026 draft of the GraphQL-over-HTTP
/// specification) served by Hearth's engine.
///
/// Responses are `application/graphql-response+json` when the `Accept` header allows it, with the
/// specification's status codes (syntax error 400, validation failure 422, variables or operation
/// not usable 400, data present 200); otherwise `application/json`, where every well-formed
/// GraphQL response is 200. Requests the engine never sees (bad JSON, no query, a body too large,
/// an unsupported `Content-Type`) get a 4xx with one error and its `extensions.code`.
public struct GraphQLController<Context: RequestContext>: Sendable {
    public let executor: Executor
    public let configuration: GraphQLHTTPConfiguration

    public init(executor: Executor, configuration: GraphQLHTTPConfiguration = GraphQLHTTPConfiguration()) {
        self.executor = executor
        self.configuration = configuration
    }

    public func addRoutes(to router: Router<Context>) {
        router.post("/graphql") { request, _ in await post(request) }
        router.get("/graphql") { request, _ in await get(request) }
    }

    func post(_ request: Request) async -> Response {
        var request = request
        let media: GraphQLMediaType
        do {
            media = try GraphQLMediaType.negotiate(accept: request.headers[.accept])
            try GraphQLMediaType.checkContentType(request.headers[.contentType])
        } catch {
            return respond(error, media: .json)
        }
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: configuration.maxBodyBytes)
        } catch {
            return respond(
                GraphQLHTTPError(
                    .contentTooLarge, "The request body is larger than the limit of \(configuration.maxBodyBytes) bytes.",
                    code: "PAYLOAD_TOO_LARGE"),
                media: media)
        }
        do {
            let parameters = try GraphQLHTTPRequest(body: Array(buffer: body))
            return await execute(parameters, media: media)
        } catch {
            return respond(error, media: media)
        }
    }

    func get(_ request: Request) async -> Response {
        let media: GraphQLMediaType
        let parameters: GraphQLHTTPRequest
        do {
            media = try GraphQLMediaType.negotiate(accept: request.headers[.accept])
            let query = request.uri.queryParameters
            parameters = try GraphQLHTTPRequest { name in query[name[...]].map(String.init) }
        } catch {
            return respond(error, media: .json)
        }
        // GET may only read: a mutation (or a subscription) must come by POST.
        let prepared = executor.prepare(parameters.query)
        if let type = prepared.operationType(named: parameters.operationName), type != .query {
            return respond(
                GraphQLHTTPError(
                    .methodNotAllowed, "A \(type.rawValue) cannot be sent with GET; use POST.", code: "METHOD_NOT_ALLOWED",
                    headers: [.allow: "POST"]),
                media: media)
        }
        let response = await executor.execute(
            prepared, operationName: parameters.operationName, variables: parameters.variables)
        return respond(response, media: media)
    }

    private func execute(_ parameters: GraphQLHTTPRequest, media: GraphQLMediaType) async -> Response {
        respond(await executor.execute(parameters.engineRequest), media: media)
    }

    private func respond(_ response: GraphQLResponse, media: GraphQLMediaType) -> Response {
        Response(
            status: media.status(of: response.refusal),
            headers: [.contentType: media.contentType],
            body: .init(byteBuffer: ByteBuffer(bytes: response.json)))
    }

    private func respond(_ error: GraphQLHTTPError, media: GraphQLMediaType) -> Response {
        var headers = error.headers
        headers[.contentType] = media.contentType
        return Response(status: error.status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: error.json)))
    }
}

/// Limits of the GraphQL HTTP endpoint.
public struct GraphQLHTTPConfiguration: Sendable {
    /// The largest request body accepted (413 above it); default 1 MiB.
    public var maxBodyBytes: Int

    public init(maxBodyBytes: Int = 1 << 20) {
        self.maxBodyBytes = maxBodyBytes
    }
}
