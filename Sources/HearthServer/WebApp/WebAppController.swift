import HTTPTypes
import Hummingbird

/// Serves the household app: `index.html` at `/` and at every path that is not an API route (the
/// app's own routes such as `/join/<code>` or `/tasks/<id>` work on reload), `sw.js` at the root
/// (its scope is the whole app), and the files under `/assets/<build>/`.
struct WebAppController<Context: RequestContext>: Sendable {
    let app: WebApp


    func addRoutes(to router: Router<Context>) {
        for method in [HTTPRequest.Method.get, .head] {
            router.on("/", method: method) { request, _ in page(request) }
            router.on("/sw.js", method: method) { request, _ in
                respond(request, app.serviceWorker, cache: "no-cache", etag: app.build, headers: [serviceWorkerAllowed: "/"])
            }
            router.on("/assets/:build/**", method: method) { request, context in
                let build = context.parameters.get("build") ?? ""
                let path = context.parameters.getCatchAll().joined(separator: "/")
                // An old build's file is gone: the page that asked is stale (its service worker has its own copy).
                guard let file = app.asset(build: build, path: path) else { throw HTTPError(.notFound) }
                return respond(request, file, cache: "public, max-age=31536000, immutable", etag: nil)
            }
            router.on("/**", method: method) { request, _ in
                let first = request.uri.path.split(separator: "/").first ?? ""
                guard !reservedSegments.contains(first) else { throw HTTPError(.notFound) }
                return page(request)
            }
        }
    }

    /// `index.html`, with the policy that lets its scripts and socket run and nothing else.
    func page(_ request: Request) -> Response {
        var response = respond(request, app.index, cache: "no-cache", etag: app.build, headers: [:])
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy(host: request.head.authority)
        return response
    }

    func respond(_ request: Request, _ file: WebApp.File, cache: String, etag: String?, headers extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [
            .contentType: file.contentType, .cacheControl: cache, .xContentTypeOptions: "nosniff",
            referrerPolicy: "same-origin",
        ]
        headers.append(contentsOf: extra)
        let tag = etag.map { "\"\($0)\"" }
        if let tag {
            headers[.eTag] = tag
            if request.headers[.ifNoneMatch] == tag { return Response(status: .notModified, headers: headers) }
        }
        headers[.contentLength] = String(file.bytes.count)
        let body = request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes))
        return Response(status: .ok, headers: headers, body: body)
    }

    /// Only Hearth's own scripts and styles; its own images and products' pictures (over HTTPS); requests to Hearth and its WebSocket (named
    /// with the host the page was loaded from when that is a plain host[:port]); no frames, no plugins.
    static func contentSecurityPolicy(host: String?) -> String {
        var connect = "'self'"
        if let host, !host.isEmpty, host.count <= 255,
           host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:[]".contains($0)) }) {
            connect += " ws://\(host) wss://\(host)"
        }
        return [
            "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob: https:",
            "connect-src \(connect)", "worker-src 'self'", "manifest-src 'self'", "object-src 'none'",
            "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }
}

/// First path segments that belong to the API (or are the assets'): never answered with the app.
/// First segments that are the server's, never the app's (the service worker's `SERVER` list passes the same to the network).
private let reservedSegments: Set<Substring> = ["graphql", "mcp", "admin", "metrics", "healthz", "readyz", "assets", "dav", ".well-known", "feeds", "actions"]
private let serviceWorkerAllowed = HTTPField.Name("Service-Worker-Allowed")!
private let referrerPolicy = HTTPField.Name("Referrer-Policy")!
