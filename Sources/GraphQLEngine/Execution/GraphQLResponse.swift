/// A request to execute: the document's text, which operation, and its variables.
public struct GraphQLRequest: Sendable {
    public var query: String
    public var operationName: String?
    public var variables: GraphQLObject

    public init(query: String, operationName: String? = nil, variables: GraphQLObject = GraphQLObject()) {
        self.query = query
        self.operationName = operationName
        self.variables = variables
    }
}

/// The response to one request: its JSON (as graphql-js serializes it: `errors` first, then
/// `data`), the errors, and — when execution never began — the stage that refused it.
public struct GraphQLResponse: Sendable {
    /// Why a request was refused before execution (no `data` in the response).
    public enum Refusal: Sendable, Hashable {
        /// The document has a syntax error.
        case syntax
        /// The document failed validation (or introspection is off and it asked for it).
        case validation
        /// The operation exceeds the configured limits.
        case tooComplex
        /// The operation could not be chosen, or its variables were invalid.
        case badRequest
        /// Execution ran past the executor's timeout and was stopped.
        case timeout
    }

    public let errors: [GraphQLError]
    /// The response as JSON bytes.
    public let json: [UInt8]
    /// Set when the request was refused before execution; `nil` when `data` is present.
    public let refusal: Refusal?

    public var hasData: Bool { refusal == nil }
    public var jsonText: String { String(decoding: json, as: UTF8.self) }

    /// `errors` as a JSON array, each written as in ``json``: what transports send where errors
    /// travel alone (a WebSocket `error` message).
    public var errorsJSON: [UInt8] { Self.json(errors: errors) }

    /// Errors as a JSON array, written as responses write them (for errors a transport finds itself).
    public static func json(errors: [GraphQLError]) -> [UInt8] {
        var writer = ResultWriter(writer: JSONWriter(capacity: 128))
        writer.write(errorList: errors)
        return writer.writer.bytes
    }

    init(errors: [GraphQLError], json: [UInt8], refusal: Refusal?) {
        self.errors = errors
        self.json = json
        self.refusal = refusal
    }

    /// A response without data: `{"errors":[…]}`.
    static func refused(_ errors: [GraphQLError], _ refusal: Refusal) -> GraphQLResponse {
        var writer = ResultWriter(writer: JSONWriter(capacity: 128))
        writer.writer.append(123)
        writer.write(errors: errors)
        writer.writer.append(125)
        return GraphQLResponse(errors: errors, json: writer.writer.bytes, refusal: refusal)
    }

    /// The answer to an execution stopped at the deadline: one `TIMEOUT` error, no data.
    static func timedOut(after timeout: Duration) -> GraphQLResponse {
        .refused(
            [GraphQLError("The request took longer than \(timeout) and was stopped.", extensions: [("code", .string("TIMEOUT"))])],
            .timeout)
    }

    /// A response with data (slot 0 of `slots`, or `null`).
    static func executed(_ errors: [GraphQLError], slots: [ResultSlot]) -> GraphQLResponse {
        var writer = ResultWriter(writer: JSONWriter(capacity: 64 + slots.count * 12))
        writer.writer.append(123)
        if !errors.isEmpty {
            writer.write(errors: errors)
            writer.writer.append(44)
        }
        writer.writer.appendASCII("\"data\":")
        if slots.isEmpty { writer.writer.appendNull() } else { writer.write(slots, at: 0) }
        writer.writer.append(125)
        return GraphQLResponse(errors: errors, json: writer.writer.bytes, refusal: nil)
    }
}

/// A document parsed and validated once (and cached by query text): ready to execute any of its operations.
public final class PreparedDocument: Sendable {
    public let document: Document?
    /// Syntax or validation errors; empty when the document can be executed.
    public let errors: [GraphQLError]
    let refusal: GraphQLResponse.Refusal?
    let fragments: [String: FragmentDefinition]
    /// Its operations' selection plans, shared by the executions of a cached document.
    let plans = PlanCache()

    /// `fragments` defaults to the document's fragment definitions by name (pass them when known already).
    init(document: Document?, fragments: [String: FragmentDefinition]? = nil, errors: [GraphQLError], refusal: GraphQLResponse.Refusal?) {
        self.document = document
        self.errors = errors
        self.refusal = refusal
        self.fragments = fragments ?? Self.fragments(of: document)
    }

    /// The fragment definitions of `document` by name (the last of a name wins).
    static func fragments(of document: Document?) -> [String: FragmentDefinition] {
        var fragments: [String: FragmentDefinition] = [:]
        for case .fragment(let fragment) in document?.definitions ?? [] { fragments[fragment.name.value] = fragment }
        return fragments
    }

    /// The operation a request naming `name` would run; nil when none can be chosen (executing
    /// the request then reports why). Transports read its type (to refuse, say, a mutation sent
    /// with GET) and its name (for logs and metrics).
    public func chosenOperation(named name: String?) -> OperationDefinition? {
        try? operation(named: name).get()
    }

    /// graphql-js's `getOperation`: the named operation, or the only one.
    func operation(named name: String?) -> Result<OperationDefinition, GraphQLError> {
        func failure(_ message: String) -> Result<OperationDefinition, GraphQLError> {
            .failure(GraphQLError(message, extensions: [("code", .string("OPERATION_RESOLUTION_FAILURE"))]))
        }
        var only: OperationDefinition?
        var count = 0
        for case .operation(let operation) in document?.definitions ?? [] {
            if let name {
                if operation.name?.value == name { return .success(operation) }
            } else {
                only = operation
                count += 1
            }
        }
        if let name { return failure("Unknown operation named \"\(name)\".") }
        if count == 1, let only { return .success(only) }
        if count == 0 { return failure("Must provide an operation.") }
        return failure("Must provide operation name if query contains multiple operations.")
    }
}
