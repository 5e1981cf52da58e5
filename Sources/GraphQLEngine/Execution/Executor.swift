/// How an ``Executor`` treats requests.
public struct ExecutorConfiguration: Sendable {
    /// Whether `__schema` and `__type` may be queried; when off they are refused at validation.
    public var introspection: Bool
    /// Depth, field and alias limits, checked on every operation of a document before validation.
    public var limits: OperationLimits
    /// How many prepared documents to keep (0 turns the cache off).
    public var documentCacheCapacity: Int
    /// Most bytes of document text the cache holds in all; a larger document is never cached.
    public var documentCacheBytes: Int
    /// Whether the executions of a cached document share their selection plans (``PlanCache``);
    /// off only to measure what sharing saves.
    public var sharesPlans = true
    /// The cache key of a document's text; the host passes a digest such as SHA-256 (hex) so keys
    /// stay small. Nil: the text itself.
    public var documentKey: (@Sendable (String) -> String)?
    public var parseOptions: ParseOptions
    /// Most validation errors reported for one document.
    public var maxValidationErrors: Int
    /// How long one execution may run (a query or mutation, or one subscription event's): past it
    /// the answer is a `TIMEOUT` error and the execution is cancelled. Nil: no limit.
    public var executionTimeout: Duration?
    /// Called with each error a resolver threw that is not client-facing (the client sees only
    /// "Internal server error"), so the host can log it with its request's details.
    public var onInternalError: (@Sendable (InternalErrorReport) -> Void)?
    /// The client-facing form the host gives to errors of its own that resolvers throw without
    /// making them reportable (say, its database's "unavailable right now"); nil: an internal error.
    public var reportableError: (@Sendable (any Error) -> (any GraphQLReportableError)?)?

    public init(
        introspection: Bool = true, limits: OperationLimits = OperationLimits(), documentCacheCapacity: Int = 1_000,
        documentCacheBytes: Int = 4 << 20, documentKey: (@Sendable (String) -> String)? = nil,
        parseOptions: ParseOptions = .request, maxValidationErrors: Int = 100, executionTimeout: Duration? = nil,
        onInternalError: (@Sendable (InternalErrorReport) -> Void)? = nil
    ) {
        self.documentCacheBytes = documentCacheBytes
        self.documentKey = documentKey
        self.executionTimeout = executionTimeout
        self.introspection = introspection
        self.limits = limits
        self.documentCacheCapacity = documentCacheCapacity
        self.parseOptions = parseOptions
        self.maxValidationErrors = maxValidationErrors
        self.onInternalError = onInternalError
    }
}

/// A resolver's error that clients do not see, handed to ``ExecutorConfiguration/onInternalError``.
public struct InternalErrorReport: Sendable {
    public let error: any Error
    /// `Type.field` of the field that failed.
    public let coordinate: String
    /// The `context` the request was executed with (for example the host's per-request logger).
    public let context: any Sendable

    public init(error: any Error, coordinate: String, context: any Sendable) {
        self.error = error
        self.coordinate = coordinate
        self.context = context
    }
}

/// Executes requests against an executable schema: parse, check limits, validate (cached),
/// coerce variables, execute, serialize.
public final class Executor: Sendable {
    public let schema: ExecutableSchema
    public let configuration: ExecutorConfiguration
    /// The prepared-document cache (its counters feed `/metrics`).
    public let documentCache: DocumentCache
    private let rules: Validator.RuleSet
    /// Emptied result-slot arrays that later executions fill again.
    private let slotBuffers = SlotBufferPool()

    public init(_ schema: ExecutableSchema, configuration: ExecutorConfiguration = ExecutorConfiguration()) {
        self.schema = schema
        self.configuration = configuration
        self.documentCache = DocumentCache(
            capacity: configuration.documentCacheCapacity, maxBytes: configuration.documentCacheBytes, key: configuration.documentKey)
        self.rules = configuration.introspection ? .specified : Validator.RuleSet(Validator.specifiedRules + [Validator.noSchemaIntrospection])
    }

    /// The parsed and validated document for `query`, from the cache when possible.
    public func prepare(_ query: String) -> PreparedDocument {
        documentCache.document(for: query) { prepareUncached(query) }
    }

    /// Parses and validates without the cache.
    public func prepareUncached(_ query: String) -> PreparedDocument {
        let document: Document
        do throws(GraphQLError) {
            document = try Parser.parse(Source(query), options: configuration.parseOptions)
        } catch {
            return PreparedDocument(document: nil, errors: [error], refusal: .syntax)
        }
        // The cheap shape limits (depth, fields, aliases) come before the rules whose cost grows
        // faster than the document (overlapping fields): a document over them is refused unvalidated.
        let fragments = PreparedDocument.fragments(of: document)
        if configuration.limits != .unlimited {
            for case .operation(let operation) in document.definitions {
                let errors = configuration.limits.check(operation, fragments: fragments, source: document.source)
                if !errors.isEmpty { return PreparedDocument(document: document, fragments: fragments, errors: errors, refusal: .tooComplex) }
            }
        }
        let errors = Validator.validate(document, against: schema.schema, rules: rules, maxErrors: configuration.maxValidationErrors)
        return PreparedDocument(document: document, fragments: fragments, errors: errors, refusal: errors.isEmpty ? nil : .validation)
    }

    /// Executes a request (query, mutation, or a subscription's single first event is not
    /// supported here: use ``subscribe(_:rootValue:context:)``).
    public func execute(_ request: GraphQLRequest, rootValue: Resolved = .null, context: any Sendable = ()) async -> GraphQLResponse {
        await execute(prepare(request.query), operationName: request.operationName, variables: request.variables,
                      rootValue: rootValue, context: context)
    }

    /// Executes an operation of a prepared document.
    public func execute(
        _ prepared: PreparedDocument, operationName: String? = nil, variables: GraphQLObject = GraphQLObject(),
        rootValue: Resolved = .null, context: any Sendable = ()
    ) async -> GraphQLResponse {
        switch start(prepared, operationName: operationName, variables: variables, context: context) {
        case .refused(let response):
            return response
        case .ready(let execution, let operation, let root):
            return await run(execution, operation, on: root, rootValue: rootValue)
        }
    }

    /// Runs an operation within the execution timeout: its response, or `TIMEOUT` at the deadline.
    func run(_ execution: sending Execution, _ operation: OperationDefinition, on root: GraphQLNamedType, rootValue: Resolved) async -> GraphQLResponse {
        let timeout = configuration.executionTimeout
        let response = await withDeadline(timeout) {
            await execution.run(operation.selectionSet, on: root, rootValue: rootValue, serially: operation.operation == .mutation)
            let response = GraphQLResponse.executed(execution.errors, slots: execution.slots)
            self.slotBuffers.recycle(&execution.slots)
            return response
        }
        return response ?? .timedOut(after: timeout ?? .zero)
    }

    enum Start {
        case refused(GraphQLResponse)
        case ready(Execution, OperationDefinition, GraphQLNamedType)
    }

    /// Everything before execution: the document's errors, the operation, limits, variables, root type.
    func start(_ prepared: PreparedDocument, operationName: String?, variables: GraphQLObject, context: any Sendable) -> Start {
        if let refusal = prepared.refusal { return .refused(.refused(prepared.errors, refusal)) }
        guard let document = prepared.document else { return .refused(.refused(prepared.errors, .syntax)) }
        let operation: OperationDefinition
        switch prepared.operation(named: operationName) {
        case .success(let found): operation = found
        case .failure(let error): return .refused(.refused([error], .badRequest))
        }
        let coerced = ArgumentCoercion.variables(of: operation, inputs: variables, schema: schema.schema, source: document.source)
        if !coerced.errors.isEmpty { return .refused(.refused(coerced.errors, .badRequest)) }
        guard let rootID = schema.schema.rootType(for: operation.operation) else {
            let error = GraphQLError(
                "Schema is not configured to execute \(operation.operation.rawValue) operation.", source: document.source,
                positions: [operation.range.start], extensions: [("code", .string("GRAPHQL_VALIDATION_FAILED"))])
            return .refused(.executed([error], slots: []))
        }
        let root = schema.schema[rootID]
        let shared = !configuration.sharesPlans ? nil : prepared.plans.root(of: operation) {
            FieldCollector(schema: schema, fragments: prepared.fragments, variables: GraphQLObject())
                .sharedPlan(of: operation, on: root, source: document.source)
        }
        let execution = makeExecution(document, prepared, variables: coerced.values, context: context, sharedRoot: shared)
        return .ready(execution, operation, root)
    }

    /// A fresh execution (its own result, errors and DataLoaders) of a prepared document.
    func makeExecution(
        _ document: Document, _ prepared: PreparedDocument, variables: GraphQLObject, context: any Sendable, sharedRoot: SelectionPlan? = nil
    ) -> Execution {
        Execution(
            executable: schema, document: document, fragments: prepared.fragments, variables: variables,
            context: context, onInternalError: configuration.onInternalError, reportable: configuration.reportableError, sharedRoot: sharedRoot,
            slots: slotBuffers.take())
    }
}
