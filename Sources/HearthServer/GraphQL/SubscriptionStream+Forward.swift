import GraphQLEngine
import Logging

extension SubscriptionStream {
    /// Hands each result's JSON to `send` until the source ends, for the SSE and WebSocket
    /// transports. A failing source is logged and sent as one internal-error result; an error of
    /// `send` (the client left) is thrown. Returns false when the consuming task was cancelled.
    func forward(logger: Logger, _ send: ([UInt8]) async throws -> Void) async throws -> Bool {
        var events = makeAsyncIterator()
        while true {
            let response: GraphQLResponse?
            do {
                response = try await events.next()
            } catch is CancellationError {
                return false
            } catch {
                logger.error("subscription source failed", metadata: ["error": "\(String(reflecting: error))"])
                try await send(GraphQLHTTPError(.ok, "Internal server error", code: .internalServerError).json)
                return true
            }
            guard let response else { return !Task.isCancelled }
            guard !Task.isCancelled else { return false }
            try await send(response.json)
        }
    }
}
