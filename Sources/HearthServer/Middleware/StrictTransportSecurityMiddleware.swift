import HTTPTypes
import Hummingbird

/// Over HTTPS, every response says `Strict-Transport-Security`: a browser that reached Hearth
/// securely once never falls back to plain HTTP for its host (a year; subdomains are not
/// Hearth's to speak for).
public struct StrictTransportSecurityMiddleware<Context: RequestContext>: RouterMiddleware {
    static var value: String { "max-age=31536000" }

    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            var response = try await next(request, context)
            response.headers[.strictTransportSecurity] = Self.value
            return response
        } catch let error as HTTPResponseError {
            var response = try error.response(from: request, context: context)
            response.headers[.strictTransportSecurity] = Self.value
            return response
        }
    }
}
