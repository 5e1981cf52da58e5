import HTTPTypes
import Hummingbird

/// Cross-origin access for browser clients served from other origins. Off unless origins are
/// configured; `*` allows any origin. Preflight requests are answered here (204), and
/// responses to allowed origins name them in `Access-Control-Allow-Origin`.
struct CORSPolicyMiddleware<Context: RequestContext>: RouterMiddleware {
    let origins: Set<String>

    init(origins: [String]) {
        self.origins = Set(origins)
    }

    func allows(_ origin: String) -> Bool { origin != "null" && (origins.contains("*") || origins.contains(origin)) }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin], allows(origin) else { return try await next(request, context) }
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            return Response(
                status: .noContent,
                headers: [
                    .accessControlAllowOrigin: origin, .accessControlAllowMethods: "GET, POST, DELETE, OPTIONS",
                    // The last three are MCP's (`/mcp`).
                    .accessControlAllowHeaders: "Accept, Authorization, Content-Type, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID",
                    .accessControlMaxAge: "600",
                    .vary: "Origin",
                ])
        }
        var response = try await next(request, context)
        response.headers[.accessControlAllowOrigin] = origin
        response.headers[.accessControlExposeHeaders] = "Mcp-Session-Id"
        response.headers[.vary] = "Origin"
        return response
    }
}
