import GraphQLEngine
import HearthServer

/// A small schema with subscriptions for the SSE and WebSocket tests (schema.graphql has none
/// yet): `hello`, `requestContext` (what the transport put in the context: caller, client address,
/// whether a request id was set), `count(to:)` (1…to, then the end; a negative `to` fails after 1), the
/// endless `ticks`, and for deadlines: `slow` (20 s, stops when cancelled), `stuck` (20 s, ignores
/// cancellation) and `slowTicks` (events whose `value` takes 20 s to resolve).
enum TestSubscriptionSchema {
    struct SourceFailure: Error {}

    static let sdl = """
        type Query { hello: String requestContext: String slow: Int stuck: Int }
        type Subscription { count(to: Int!): Int! ticks: Int! slowTicks: Slow! }
        type Slow { value: Int }
        """

    /// `onTicksEnded` is called when a `ticks` source ends (its consumer went away).
    static func executor(timeout: Duration? = nil, onTicksEnded: (@Sendable () -> Void)? = nil) throws -> Executor {
        var resolvers = Resolvers()
        resolvers.field("Query.hello") { _ in .string("world") }
        resolvers.field("Query.slow") { _ in
            try await Task.sleep(for: .seconds(20))
            return .int(1)
        }
        resolvers.field("Query.stuck") { _ in
            // A detached wait does not see the request's cancellation: only the deadline ends it.
            await Task.detached { try? await Task.sleep(for: .seconds(20)) }.value
            return .int(1)
        }
        resolvers.field("Slow.value") { _ in
            try await Task.sleep(for: .seconds(20))
            return .int(1)
        }
        resolvers.subscription("Subscription.slowTicks") { _ in
            AsyncThrowingStream { continuation in
                continuation.yield(.object(GraphQLObject()))
                continuation.yield(.object(GraphQLObject()))
                continuation.finish()
            }
        }
        resolvers.field("Query.requestContext") { input in
            let context = try input.context(GraphQLRequestContext.self)
            return .string("\(context.identity) from \(context.clientAddress ?? "nowhere"), id \(context.requestID == "-" ? "missing" : "set")")
        }
        resolvers.subscription("Subscription.count") { input in
            guard case .int(let to)? = input.arguments["to"] else { return AsyncThrowingStream { $0.finish() } }
            return AsyncThrowingStream { continuation in
                for value in 1...max(1, to) { continuation.yield(.int(value)) }
                if to < 0 { continuation.finish(throwing: SourceFailure()) } else { continuation.finish() }
            }
        }
        resolvers.subscription("Subscription.ticks") { _ in
            AsyncThrowingStream { continuation in
                let task = Task {
                    var tick = 0
                    while !Task.isCancelled {
                        tick += 1
                        continuation.yield(.int(tick))
                        try? await Task.sleep(for: .milliseconds(20))
                    }
                }
                continuation.onTermination = { _ in
                    task.cancel()
                    onTicksEnded?()
                }
            }
        }
        return Executor(
            try ExecutableSchema(try SchemaBuilder.build(sdl: sdl), resolvers: resolvers),
            configuration: ExecutorConfiguration(executionTimeout: timeout))
    }
}
