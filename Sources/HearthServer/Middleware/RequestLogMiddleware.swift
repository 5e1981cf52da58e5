import HTTPTypes
import Hummingbird
import Logging

/// Logs one line per request (method, path, status, duration) with the request id, and
/// returns that id in `X-Request-Id` so a client's report can be matched to the log.
/// Probe endpoints (`/healthz`, `/readyz`, `/metrics`) log at debug level to keep logs quiet.
/// Paths whose segment is a secret (a calendar feed's token, an action link's, an invitation
/// code in the app's `/join/…`) are logged with it redacted: logs are read by more people, and
/// kept longer, than the secrets are meant to be.
public struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    private static var quietPaths: Set<String> { ["/healthz", "/readyz", "/metrics"] }

    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let level: Logger.Level = Self.quietPaths.contains(request.uri.path) ? .debug : .info
        do {
            var response = try await next(request, context)
            response.headers[.requestID] = context.id
            log(level, request, context, status: response.status.code, started: started)
            return response
        } catch let error as HTTPResponseError {
            log(level, request, context, status: error.status.code, started: started)
            var response = try error.response(from: request, context: context)
            response.headers[.requestID] = context.id
            return response
        } catch {
            log(.error, request, context, status: 500, started: started)
            context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            return Response(status: .internalServerError, headers: [.requestID: context.id])
        }
    }

    /// The first segments after which a path's next segment is a secret.
    private static var secretSegments: Set<Substring> { ["feeds", "actions", "join"] }

    /// `path` as it may be logged: a secret segment is `…`, keeping a file extension
    /// (`/feeds/…ics`); the query string is never part of it.
    public static func loggable(_ path: String) -> String {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 3, secretSegments.contains(segments[1]) else { return path }
        let secret = segments[2]
        let redacted: Substring = secret.lastIndex(of: ".").map { "…" + secret[secret.index(after: $0)...] } ?? "…"
        return (segments.prefix(2) + [redacted] + segments.dropFirst(3)).joined(separator: "/")
    }

    private func log(_ level: Logger.Level, _ request: Request, _ context: Context, status: Int, started: ContinuousClock.Instant) {
        let milliseconds = (ContinuousClock.now - started).milliseconds
        context.logger.log(level: level, "request", metadata: [
            "method": "\(request.method)",
            "path": "\(Self.loggable(request.uri.path))",
            "status": "\(status)",
            "duration_ms": "\((milliseconds * 100).rounded() / 100)",
        ])
    }
}

extension HTTPField.Name {
    /// `X-Request-Id`: the id under which a request appears in the logs.
    public static var requestID: Self { .init("X-Request-Id")! }
}
