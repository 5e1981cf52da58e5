import ArgumentParser
import GraphQLEngine
import HearthServer

/// `hearth serve`'s limits on GraphQL requests: each an option or an environment variable.
struct GraphQLOptions: ParsableArguments {
    @Option(name: .customLong("graphql-max-body"), help: "Largest /graphql request body in bytes (env HEARTH_GRAPHQL_MAX_BODY; default 1048576).")
    var maxBody: Int?

    @Option(name: .customLong("graphql-timeout"), help: "Seconds one execution may run before it is stopped, over HTTP, SSE and WebSocket alike, each subscription event included (env HEARTH_GRAPHQL_TIMEOUT; default 30).")
    var timeout: Int?

    @Option(name: .customLong("graphql-max-tokens"), help: "Most tokens in a GraphQL document (env HEARTH_GRAPHQL_MAX_TOKENS; default 10000).")
    var maxTokens: Int?

    @Option(name: .customLong("graphql-max-depth"), help: "Deepest operation, fragments expanded (env HEARTH_GRAPHQL_MAX_DEPTH; default 15).")
    var maxDepth: Int?

    @Option(name: .customLong("graphql-max-fields"), help: "Most fields in an operation, fragments expanded (env HEARTH_GRAPHQL_MAX_FIELDS; default 2000).")
    var maxFields: Int?

    @Option(name: .customLong("graphql-max-aliases"), help: "Most aliases in an operation (env HEARTH_GRAPHQL_MAX_ALIASES; default 100).")
    var maxAliases: Int?

    @Option(name: .customLong("ws-max-subscriptions"), help: "Subscriptions one WebSocket may run at once (env HEARTH_WS_MAX_SUBSCRIPTIONS; default 100).")
    var maxSubscriptions: Int?

    struct Resolved {
        var http: GraphQLHTTPConfiguration
        var webSocket: GraphQLWebSocketConfiguration
        var executor: ExecutorConfiguration
    }

    func resolve(_ env: EnvironmentValue) throws -> Resolved {
        let http = GraphQLHTTPConfiguration(
            maxBodyBytes: try env.integer(maxBody, "HEARTH_GRAPHQL_MAX_BODY", range: 1_024...(1 << 30)) ?? (1 << 20))
        let executionTimeout = Duration.seconds(try env.integer(timeout, "HEARTH_GRAPHQL_TIMEOUT", range: 1...3_600) ?? 30)
        var webSocket = GraphQLWebSocketConfiguration(maxMessageBytes: http.maxBodyBytes)
        webSocket.maxSubscriptions = try env.integer(maxSubscriptions, "HEARTH_WS_MAX_SUBSCRIPTIONS", range: 1...10_000) ?? 100
        let limits = OperationLimits(
            maxDepth: try env.integer(maxDepth, "HEARTH_GRAPHQL_MAX_DEPTH", range: 1...1_000) ?? 15,
            maxFields: try env.integer(maxFields, "HEARTH_GRAPHQL_MAX_FIELDS", range: 1...1_000_000) ?? 2_000,
            maxAliases: try env.integer(maxAliases, "HEARTH_GRAPHQL_MAX_ALIASES", range: 0...1_000_000) ?? 100)
        let parseOptions = ParseOptions(maxTokens: try env.integer(maxTokens, "HEARTH_GRAPHQL_MAX_TOKENS", range: 100...10_000_000) ?? 10_000)
        return Resolved(
            http: http, webSocket: webSocket,
            executor: ExecutorConfiguration(limits: limits, parseOptions: parseOptions, executionTimeout: executionTimeout))
    }
}
