import Foundation
import HearthCore
import HTTPTypes
import Hummingbird

/// CalDAV's discovery (RFC 4791, RFC 6764): `/.well-known/caldav` → `/dav/`; `OPTIONS`; and
/// `PROPFIND` of the root (the signed-in principal), the principal (its calendar home) and the
/// home (two calendars per household: `<household id>-tasks`, VTODO, and `<household id>-events`,
/// VEVENT). A calendar app signs in with Basic (the person's email and an access token; a
/// password is refused, since apps store it) or Bearer.
struct CalDAVController<Context: RequestContext>: Sendable {
    let feeds: CalendarFeedService
    let users: UserService
    let authenticator: Authenticator

    /// The methods served so far (items' GET, REPORT, PUT and DELETE come with their reading and writing).
    static var allowed: String { "OPTIONS, PROPFIND" }

    func addRoutes(to router: Router<Context>) {
        for method in [HTTPRequest.Method.get, .head, HTTPRequest.Method(rawValue: "PROPFIND")].compactMap({ $0 }) {
            router.on("/.well-known/caldav", method: method) { _, _ in
                Response(status: .movedPermanently, headers: [.location: "/dav/"])
            }
        }
        let propfind = HTTPRequest.Method(rawValue: "PROPFIND")
        for path in ["/dav", "/dav/**"] {
            router.on(RouterPath(path), method: .options) { _, _ in
                Response(status: .ok, headers: [HTTPField.Name("DAV")!: "1, 3, calendar-access", .allow: Self.allowed, .contentLength: "0"])
            }
            if let propfind {
                router.on(RouterPath(path), method: propfind) { request, context in
                    await answer(request, context)
                }
            }
        }
    }

    private func answer(_ request: Request, _ context: Context) async -> Response {
        do {
            let caller = try await signIn(request)
            var request = request
            let body = try await request.collectBody(upTo: 64 << 10)
            guard let asked = PropfindRequest.parse(Data(buffer: body)) else {
                return Self.plain(.badRequest, "The PROPFIND body is not well-formed XML.")
            }
            let depth = request.headers[HTTPField.Name("Depth")!] ?? "1"
            return try await propfind(request.uri.path, depth: depth == "0" ? 0 : 1, asked: asked, caller: caller)
        } catch let refusal as Refusal {
            return refusal.response
        } catch {
            context.logger.error("CalDAV request failed", metadata: ["error": "\(String(reflecting: error))"])
            return Self.plain(.internalServerError, "The calendar could not be read just now; try again later.")
        }
    }

    /// Who signs in: Basic (email and access token) or Bearer; else 401 asking for Basic.
    private func signIn(_ request: Request) async throws -> (signedIn: SignedIn, caller: Caller) {
        guard let header = request.headers[.authorization] else { throw Refusal.unauthenticated("Sign in with your email and an access token.") }
        let token: String
        var email: String?
        if header.lowercased().hasPrefix("basic "), let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
           let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":") {
            email = String(text[..<colon]).lowercased()
            token = String(text[text.index(after: colon)...])
            guard UserService.isAccessToken(token) else {
                throw Refusal.unauthenticated("Use an access token as the password (Settings → Access tokens), not your account's password.")
            }
        } else if let bearer = try? BearerToken.parse(authorization: header) {
            token = bearer.value
        } else {
            throw Refusal.unauthenticated("Sign in with your email and an access token.")
        }
        guard let signedIn = try await users.authenticate(token: token), email.map({ $0 == signedIn.user.email }) ?? true else {
            throw Refusal.unauthenticated("The email and access token do not match a live token; it may have been revoked or have expired.")
        }
        return (signedIn, try await authenticator.caller(signedIn))
    }

    private func propfind(_ path: String, depth: Int, asked: PropfindRequest, caller: (signedIn: SignedIn, caller: Caller)) async throws -> Response {
        let user = caller.signedIn.user
        let me = user.id.lowercasedString
        let principal = "/dav/principals/\(me)/"
        let home = "/dav/calendars/\(me)/"
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        var status = DAVMultistatus()
        let common: DAVMultistatus.Values = [.dav("current-user-principal"): DAVMultistatus.href(principal)]
        switch trimmed {
        case "/dav":
            status.add(href: "/dav/", values: common.merging([.dav("resourcetype"): "<d:collection/>", .dav("displayname"): "Hearth"]) { $1 }, requested: asked)
        case "/dav/principals/\(me)":
            status.add(href: principal, values: common.merging([
                .dav("resourcetype"): "<d:collection/><d:principal/>",
                .dav("displayname"): DAVMultistatus.escape(user.displayName),
                .dav("principal-URL"): DAVMultistatus.href(principal),
                .caldav("calendar-home-set"): DAVMultistatus.href(home),
                .caldav("calendar-user-address-set"): DAVMultistatus.href("mailto:" + user.email),
            ]) { $1 }, requested: asked)
        case "/dav/calendars/\(me)":
            status.add(href: home, values: common.merging([.dav("resourcetype"): "<d:collection/>", .dav("displayname"): "Calendars"]) { $1 },
                       requested: asked)
            if depth > 0 {
                for collection in try await feeds.collections(caller.caller) {
                    status.add(href: home + collection.name + "/", values: common.merging(values(of: collection, writes: canWrite(caller))) { $1 },
                               requested: asked)
                }
            }
        default:
            let prefix = "/dav/calendars/\(me)/"
            guard trimmed.hasPrefix(prefix),
                  let collection = try await feeds.collections(caller.caller).first(where: { $0.name == trimmed.dropFirst(prefix.count) }) else {
                return Self.plain(.notFound, "No such calendar or principal here.")
            }
            status.add(href: prefix + collection.name + "/", values: common.merging(values(of: collection, writes: canWrite(caller))) { $1 },
                       requested: asked)
        }
        return Response(status: .init(code: 207, reasonPhrase: "Multi-Status"), headers: [.contentType: "application/xml; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(string: status.xml)))
    }

    /// Whether the credentials may write at all (a READ-only access token may not).
    private func canWrite(_ caller: (signedIn: SignedIn, caller: Caller)) -> Bool {
        caller.signedIn.accessToken.map { $0.allows(.write) } ?? true
    }

    private func values(of collection: CalendarCollection, writes: Bool) -> DAVMultistatus.Values {
        let privileges = ["read", "read-current-user-privilege-set"] + (collection.writable && writes ? ["write", "write-content", "bind", "unbind"] : [])
        return [
            .dav("resourcetype"): "<d:collection/><c:calendar/>",
            .dav("displayname"): DAVMultistatus.escape(collection.displayName),
            .caldav("supported-calendar-component-set"): "<c:comp name=\"\(collection.component)\"/>",
            DAVProperty(namespace: DAVProperty.calendarServer, name: "getctag"): "\"\(collection.tag)\"",
            DAVProperty(namespace: DAVProperty.apple, name: "calendar-color"): collection.kind == .task ? "#2E7D32" : "#1565C0",
            .dav("current-user-privilege-set"): privileges.map { "<d:privilege><d:\($0)/></d:privilege>" }.joined(),
        ]
    }

    /// A refusal with its status, in words.
    struct Refusal: Error {
        let response: Response

        static func unauthenticated(_ message: String) -> Refusal {
            var response = CalDAVController.plain(.unauthorized, message)
            response.headers[.wwwAuthenticate] = #"Basic realm="Hearth""#
            return Refusal(response: response)
        }
    }

    static func plain(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}
