import GraphQLEngine
import HTTPTypes
import HearthCore
import Hummingbird
import Logging
import ServiceLifecycle

/// `POST /graphql` and `GET /graphql`: GraphQL over HTTP (the 2026 draft of the GraphQL-over-HTTP
/// specification) served by Hearth's engine.
///
/// Responses are `application/graphql-response+json` when the `Accept` header allows it, with the
/// specification's status codes (syntax error 400, validation failure 422, variables or operation
/// not usable 400, data present 200); otherwise `application/json`, where every well-formed
/// GraphQL response is 200. Requests the engine never sees (bad JSON, no query, a body too large,
/// an unsupported `Content-Type`) get a 4xx with one error and its `extensions.code`.
///
/// Automatic persisted queries (Apollo's protocol) are served through ``PersistedQueryStore``:
/// a hash alone answers `PERSISTED_QUERY_NOT_FOUND` until the text was sent once with it.
public struct GraphQLController<Context: RequestContext>: Sendable {
    public let executor: Executor
    public let configuration: GraphQLHTTPConfiguration
    /// Where persisted queries live; without one, requests that use them are refused.
    public let persistedQueries: PersistedQueryStore?
    /// Turns each request's bearer token into its identity; a token it refuses answers 401.
    public let authenticator: Authenticator
    /// When it says the database is away, requests are answered `SERVICE_UNAVAILABLE` at once.
    public let databaseStatus: DatabaseStatus?
    /// Whether requests arrive over HTTPS (for the origin links are made with).
    public let secure: Bool
    let logger: Logger
    let metrics = GraphQLMetrics()

    public init(
        executor: Executor, configuration: GraphQLHTTPConfiguration = GraphQLHTTPConfiguration(),
        persistedQueries: PersistedQueryStore? = nil, authenticator: Authenticator = .noAccounts, databaseStatus: DatabaseStatus? = nil,
        secure: Bool = false, logger: Logger = Logger(label: "hearth.graphql")
    ) {
        self.secure = secure
        self.databaseStatus = databaseStatus
        self.executor = executor
        self.configuration = configuration
        self.persistedQueries = persistedQueries
        self.authenticator = authenticator
        self.logger = logger
    }

    public func addRoutes(to router: Router<Context>) {
        router.post("/graphql") { request, context in await bounded { await post(request, context) } }
        router.get("/graphql") { request, context in await bounded { await get(request, context) } }
        // Other methods are not allowed (405 with `Allow`, not 404: the resource exists).
        // OPTIONS stays with the CORS middleware, which answers preflights before routing.
        for method in [HTTPRequest.Method.put, .delete, .patch] {
            router.on("/graphql", method: method) { _, _ in
                respond(
                    GraphQLHTTPError(
                        .methodNotAllowed, "/graphql accepts GET and POST only.", code: .methodNotAllowed,
                        headers: [.allow: "GET, POST"]),
                    media: .json)
            }
        }
    }

    /// How long one request may take as a whole: the execution deadline, plus room for reading the
    /// body, checking the sign-in and looking up a persisted query.
    var requestDeadline: Duration { (executor.configuration.executionTimeout ?? .seconds(30)) + .seconds(5) }

    /// Answers `work`'s response, or `TIMEOUT` (503) once ``requestDeadline`` has passed, whatever
    /// the work waits on (a pool lease during a database outage ignores cancellation): every
    /// request ends by its deadline. A stream's events are not bounded here, only its start.
    private func bounded(_ work: @escaping @Sendable () async -> Response) async -> Response {
        if databaseStatus?.isKnownDown == true {
            metrics.record(operation: nil, outcome: .refused)
            return respond(
                GraphQLHTTPError(.serviceUnavailable, ServiceError.databaseUnavailable.message, code: .serviceUnavailable,
                                 headers: [.retryAfter: "5"]),
                media: .graphQLResponse)
        }
        let deadline = requestDeadline
        do {
            return try await withTimeout(deadline) { await work() }
        } catch {
            logger.warning("GraphQL request stopped at its deadline before an answer", metadata: ["deadline": "\(deadline)"])
            metrics.record(operation: nil, outcome: .timeout)
            return respond(
                GraphQLHTTPError(.serviceUnavailable, "The request took longer than \(deadline) and was stopped.", code: .timeout),
                media: .graphQLResponse)
        }
    }

    /// The GraphQL context of a request: its logger, id, client address and identity. A bearer
    /// token that is malformed or belongs to no session is refused with 401 and a challenge.
    private func graphQLContext(_ request: Request, _ context: Context) async throws(GraphQLHTTPError) -> GraphQLRequestContext {
        let identity: Identity
        do {
            identity = try await authenticator.identity(for: BearerToken.parse(authorization: request.headers[.authorization]))
        } catch let error as AuthenticationError {
            context.logger.info("GraphQL request refused", metadata: ["reason": "\(error.reason)"])
            throw GraphQLHTTPError(
                .unauthorized, error.message, code: .unauthenticated, headers: [.wwwAuthenticate: error.challenge])
        } catch {
            context.logger.error("cannot authenticate a request", metadata: ["error": "\(String(reflecting: error))"])
            throw GraphQLHTTPError(.internalServerError, "Internal server error", code: .internalServerError)
        }
        return GraphQLRequestContext(
            logger: context.logger, peer: (context as? any RemoteAddressRequestContext)?.remoteAddress, identity: identity,
            userAgent: request.headers[.userAgent], callers: authenticator.caller,
            origin: request.head.authority.map { (secure ? "https://" : "http://") + $0 })
    }

    func post(_ request: Request, _ requestContext: Context) async -> Response {
        var request = request
        let media: GraphQLMediaType
        let context: GraphQLRequestContext
        do {
            media = try GraphQLMediaType.negotiate(accept: request.headers[.accept], eventStreams: true)
            try GraphQLMediaType.checkContentType(request.headers[.contentType])
        } catch {
            return respond(error, media: .json)
        }
        // A refusal before GraphQL is a JSON answer with its HTTP status, even to a stream request.
        let refusalMedia = media == .eventStream ? GraphQLMediaType.graphQLResponse : media
        do {
            context = try await graphQLContext(request, requestContext)
        } catch {
            return respond(error, media: refusalMedia)
        }
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: configuration.maxBodyBytes)
        } catch {
            return respond(
                GraphQLHTTPError(
                    .contentTooLarge, "The request body is larger than the limit of \(configuration.maxBodyBytes) bytes.",
                    code: .payloadTooLarge),
                media: refusalMedia)
        }
        do throws(GraphQLHTTPError) {
            let parameters = try GraphQLHTTPRequest(body: Array(buffer: body))
            let query = try await documentText(of: parameters)
            if media == .eventStream {
                return await stream(GraphQLRequest(query: query, operationName: parameters.operationName, variables: parameters.variables),
                                    context: context)
            }
            let prepared = executor.prepare(query)
            // A subscription is a stream: it needs text/event-stream (graphql-sse) or a WebSocket.
            if prepared.chosenOperation(named: parameters.operationName)?.operation == .subscription {
                throw GraphQLHTTPError(
                    .badRequest,
                    "A subscription needs a stream: send it with Accept: text/event-stream, or over a WebSocket (graphql-transport-ws).",
                    code: .subscriptionNeedsStream)
            }
            return await run(prepared, parameters, context: context, media: media)
        } catch {
            return respond(error, media: refusalMedia)
        }
    }

    func get(_ request: Request, _ requestContext: Context) async -> Response {
        let media: GraphQLMediaType
        let parameters: GraphQLHTTPRequest
        let context: GraphQLRequestContext
        do {
            media = try GraphQLMediaType.negotiate(accept: request.headers[.accept])
            parameters = try GraphQLHTTPRequest(queryParameters: FormURLEncodedQuery(request.uri.query))
        } catch {
            return respond(error, media: .json)
        }
        do {
            context = try await graphQLContext(request, requestContext)
        } catch {
            return respond(error, media: media)
        }
        let text: String
        do {
            text = try await documentText(of: parameters)
        } catch {
            return respond(error, media: media)
        }
        // GET may only read: a mutation (or a subscription) must come by POST.
        let prepared = executor.prepare(text)
        if let type = prepared.chosenOperation(named: parameters.operationName)?.operation, type != .query {
            return respond(
                GraphQLHTTPError(
                    .methodNotAllowed, "A \(type.rawValue) cannot be sent with GET; use POST.", code: .methodNotAllowed,
                    headers: [.allow: "POST"]),
                media: media)
        }
        return await run(prepared, parameters, context: context, media: media)
    }

    /// Executes (within the executor's timeout), counts the outcome, and answers.
    private func run(
        _ prepared: PreparedDocument, _ parameters: GraphQLHTTPRequest, context: GraphQLRequestContext, media: GraphQLMediaType
    ) async -> Response {
        let response = await executor.execute(
            prepared, operationName: parameters.operationName, variables: parameters.variables, context: context)
        let name = prepared.chosenOperation(named: parameters.operationName)?.name?.value ?? parameters.operationName
        metrics.record(response, operation: name)
        metrics.record(cache: executor.documentCache)
        if response.refusal == .timeout { Self.logTimeout(context.logger, executor) }
        return respond(response, media: media)
    }

    static func logTimeout(_ logger: Logger, _ executor: Executor) {
        logger.warning("GraphQL request timed out", metadata: ["timeout": "\(executor.configuration.executionTimeout ?? .zero)"])
    }

    /// graphql-sse's distinct-connections mode: each result as a `next` event, then `complete`.
    /// A request the engine refuses before execution (syntax, validation, variables, operation
    /// name) is one `next` event carrying the GraphQL response, then `complete`, with status 200:
    /// the protocol requires it, and a browser's `EventSource` shows nothing of a 4xx.
    private func stream(_ request: GraphQLRequest, context: GraphQLRequestContext) async -> Response {
        let outcome = await executor.subscribe(request, context: context)
        let responses: SubscriptionStream?
        let single: GraphQLResponse?
        switch outcome {
        case .response(let response):
            if response.refusal != nil { metrics.record(response, operation: request.operationName) }
            if response.refusal == .timeout { Self.logTimeout(context.logger, executor) }
            (responses, single) = (nil, response)
        case .stream(let stream):
            (responses, single) = (stream, nil)
        }
        let logger = context.logger
        let metrics = metrics
        return Response(
            status: .ok,
            headers: [.contentType: GraphQLMediaType.eventStream.contentType, .cacheControl: "no-cache"],
            body: ResponseBody { writer in
                if let single {
                    try await writer.write(Self.event("next", single.json))
                    if single.refusal == nil { metrics.record(operation: request.operationName, outcome: .ok) }
                } else if let responses {
                    guard try await Self.forward(responses, logger: logger, to: &writer) else { return }
                    metrics.record(operation: request.operationName, outcome: .ok)
                }
                try await writer.write(Self.event("complete", []))
                try await writer.finish(nil)
            })
    }

    /// Writes each result as a `next` event until the stream ends (true) or the request is
    /// cancelled (false). A graceful shutdown ends the stream too (true, so `complete` follows):
    /// an open subscription must not hold the server's shutdown until its client goes away.
    private static func forward(_ responses: SubscriptionStream, logger: Logger, to writer: inout any ResponseBodyWriter) async throws -> Bool {
        let (events, sink) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingNewest(64))
        let source = Task {
            defer { sink.finish() }
            return try await cancelWhenGracefulShutdown { try await responses.forward(logger: logger) { sink.yield($0) } }
        }
        defer { source.cancel() }
        for await event in events { try await writer.write(Self.event("next", event)) }
        guard !Task.isCancelled else { return false }
        let ended = try await source.value
        return ended || Task.isShuttingDownGracefully
    }

    /// One server-sent event: `event: NAME` and its data line (JSON has no raw line breaks).
    static func event(_ name: String, _ data: [UInt8]) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeString("event: \(name)\ndata:")
        if !data.isEmpty {
            buffer.writeString(" ")
            buffer.writeBytes(data)
        }
        buffer.writeString("\n\n")
        return buffer
    }

    /// The document to run: the request's own text (registered under its hash when it names
    /// one, after checking the hash), or the text registered under the hash it sends alone.
    private func documentText(of parameters: GraphQLHTTPRequest) async throws(GraphQLHTTPError) -> String {
        guard let reference = parameters.persistedQuery else { return parameters.query ?? "" }
        guard let store = persistedQueries else {
            throw GraphQLHTTPError(.badRequest, "Persisted queries are not supported.", code: .persistedQueryNotSupported)
        }
        if let query = parameters.query {
            guard PersistedQueryStore.hash(of: query) == reference.sha256Hash else {
                throw GraphQLHTTPError(.badRequest, "provided sha does not match query")
            }
            do {
                try await store.register(query, hash: reference.sha256Hash)
            } catch {
                // The request itself can still run; the next one registers the text again.
                logger.warning("cannot store a persisted query", metadata: ["error": "\(String(reflecting: error))"])
            }
            return query
        }
        let stored: String?
        do {
            stored = try await store.text(forHash: reference.sha256Hash)
        } catch {
            logger.error("cannot read a persisted query", metadata: ["error": "\(String(reflecting: error))"])
            throw GraphQLHTTPError(.internalServerError, "Internal server error", code: .internalServerError)
        }
        guard let stored else {
            // 200 whatever the media type: clients answer it by sending the text with its hash,
            // and nobody may cache it.
            throw GraphQLHTTPError(
                .ok, "PersistedQueryNotFound", code: .persistedQueryNotFound, headers: [.cacheControl: "private, no-store"])
        }
        return stored
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

/// Limits of the GraphQL HTTP endpoint. (How long an execution may run is the executor's
/// ``ExecutorConfiguration/executionTimeout``: the same on every transport.)
public struct GraphQLHTTPConfiguration: Sendable {
    /// The largest request body accepted (413 above it); default 1 MiB.
    public var maxBodyBytes: Int

    public init(maxBodyBytes: Int = 1 << 20) {
        self.maxBodyBytes = maxBodyBytes
    }
}
