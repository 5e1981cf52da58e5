/// What ``Executor/subscribe(_:rootValue:context:)`` gives: a stream of responses, or one
/// response when the request was refused or its source stream could not be created.
public enum SubscriptionOutcome: Sendable {
    case stream(SubscriptionStream)
    case response(GraphQLResponse)
}

extension Executor {
    /// Starts a subscription: resolves the source stream of its single root field, then executes
    /// the operation once per event (the event is the root field's value unless it has a resolver).
    /// A query or mutation is executed once and returned as `.response`.
    public func subscribe(_ request: GraphQLRequest, rootValue: Resolved = .null, context: any Sendable = ()) async -> SubscriptionOutcome {
        let prepared = prepare(request.query)
        let start = start(prepared, operationName: request.operationName, variables: request.variables, context: context)
        guard case .ready(let execution, let operation, let root) = start else {
            if case .refused(let response) = start { return .response(response) }
            return .response(.refused([], .badRequest))
        }
        guard operation.operation == .subscription else {
            return .response(await run(execution, operation, on: root, rootValue: rootValue))
        }
        let plan = execution.collector.plan([operation.selectionSet], on: root)
        guard let field = plan.fields.first else { return .response(.executed([], slots: [])) }
        let source = execution.source
        let locations = field.locations(in: source)
        func failure(_ message: String, code: String) -> SubscriptionOutcome {
            .response(.refused(
                [GraphQLError(message, locations: locations, path: [.key(field.responseKey)], extensions: [("code", .string(code))])],
                .badRequest))
        }
        guard let subscribe = schema.subscriptions[root.name + "." + field.name] else {
            return failure("Subscription field must return AsyncIterable. Received: undefined.", code: "INTERNAL_SERVER_ERROR")
        }
        let arguments: GraphQLObject
        do throws(ArgumentCoercion.ArgumentError) {
            arguments = try field.arguments(variables: execution.variables)
        } catch {
            return .response(.refused(
                [GraphQLError(error.message, source: source, positions: [error.position], path: [.key(field.responseKey)],
                              extensions: [("code", .string("BAD_USER_INPUT"))])],
                .badRequest))
        }
        let input = FieldInput(source: rootValue, arguments: arguments, context: context, info: field.info, request: execution.scope)
        let events: AsyncThrowingStream<Resolved, any Error>
        do {
            events = try await subscribe(input)
        } catch let error as any GraphQLReportableError {
            return failure(error.message, code: error.code)
        } catch let error as GraphQLError {
            return failure(error.message, code: error.code ?? "INTERNAL_SERVER_ERROR")
        } catch {
            if let mapped = configuration.reportableError?(error) { return failure(mapped.message, code: mapped.code) }
            configuration.onInternalError?(InternalErrorReport(error: error, coordinate: field.info.coordinate, context: context))
            return failure("Internal server error", code: "INTERNAL_SERVER_ERROR")
        }
        return .stream(SubscriptionStream(
            executor: self, prepared: prepared, operation: operation, root: root, variables: execution.variables,
            context: context, events: events))
    }
}

/// The responses of one subscription, one per source event. Stopping iteration (or cancelling the
/// consuming task) ends the source stream, whose termination handler then releases its resources.
public struct SubscriptionStream: AsyncSequence, Sendable {
    public typealias Element = GraphQLResponse

    let executor: Executor
    let prepared: PreparedDocument
    let operation: OperationDefinition
    let root: GraphQLNamedType
    let variables: GraphQLObject
    let context: any Sendable
    let events: AsyncThrowingStream<Resolved, any Error>

    public func makeAsyncIterator() -> Iterator {
        Iterator(stream: self, events: events.makeAsyncIterator())
    }

    public struct Iterator: AsyncIteratorProtocol {
        let stream: SubscriptionStream
        var events: AsyncThrowingStream<Resolved, any Error>.AsyncIterator

        /// The response to the next event; nil when the source ends; throws the source's error.
        public mutating func next() async throws -> GraphQLResponse? {
            guard let event = try await events.next() else { return nil }
            return await stream.response(to: event)
        }
    }

    /// Executes the operation with `event` as the root field's value (the spec's MapSourceToResponseEvent).
    func response(to event: Resolved) async -> GraphQLResponse {
        guard let document = prepared.document else { return .refused(prepared.errors, .syntax) }
        let execution = executor.makeExecution(document, prepared, variables: variables, context: context)
        return await executor.run(execution, operation, on: root, rootValue: event)
    }
}
