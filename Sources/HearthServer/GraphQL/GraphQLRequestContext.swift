import Logging

/// What every resolver of one HTTP or WebSocket request can reach (the engine's `context`):
/// for now the request's logger, whose metadata carries the request id.
public struct GraphQLRequestContext: Sendable {
    public var logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }
}
