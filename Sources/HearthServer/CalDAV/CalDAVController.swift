import Foundation
import HearthCore
import HTTPTypes
import Hummingbird

/// CalDAV (RFC 4791, RFC 6578, RFC 6764): `/.well-known/caldav` → `/dav/`; `OPTIONS`; `PROPFIND`
/// of the root (the signed-in principal), the principal (its calendar home), the home (two
/// calendars per household: `<household id>-tasks`, VTODO, and `<household id>-events`, VEVENT)
/// and a calendar (its items with their ETags); `REPORT` (calendar-query, calendar-multiget,
/// sync-collection); and an item's `GET`, `PUT` and `DELETE`. A calendar app signs in with Basic
/// (the person's email and an access token; a password is refused, since apps store it) or Bearer.
struct CalDAVController<Context: RequestContext>: Sendable {
    let calendars: CalendarService
    let users: UserService
    let authenticator: Authenticator
    /// Largest request body (an item, or a REPORT naming many): `/graphql`'s limit.
    let maximumBody: Int

    static var allowed: String { "OPTIONS, PROPFIND, PROPPATCH, REPORT, GET, HEAD, PUT, DELETE" }

    func addRoutes(to router: Router<Context>) {
        for method in [HTTPRequest.Method.get, .head, HTTPRequest.Method(rawValue: "PROPFIND")].compactMap({ $0 }) {
            router.on("/.well-known/caldav", method: method) { _, _ in
                Response(status: .movedPermanently, headers: [.location: "/dav/"])
            }
        }
        let methods = ["PROPFIND", "PROPPATCH", "REPORT", "GET", "HEAD", "PUT", "DELETE"].compactMap { HTTPRequest.Method(rawValue: $0) }
        for path in ["/dav", "/dav/**"] {
            router.on(RouterPath(path), method: .options) { _, _ in
                Response(status: .ok, headers: [HTTPField.Name("DAV")!: "1, 3, calendar-access", .allow: Self.allowed, .contentLength: "0"])
            }
            for method in methods {
                router.on(RouterPath(path), method: method) { request, context in
                    await answer(request, context)
                }
            }
        }
    }

    /// The signed-in person and what their credentials allow.
    struct Client {
        let signedIn: SignedIn
        let caller: Caller

        var me: String { signedIn.user.id.lowercasedString }
        /// Whether the credentials may write at all (a READ-only access token may not).
        var canWrite: Bool { signedIn.accessToken.map { $0.allows(.write) } ?? true }
    }

    private func answer(_ request: Request, _ context: Context) async -> Response {
        do {
            let client = try await signIn(request)
            var request = request
            let body = Data(buffer: try await request.collectBody(upTo: maximumBody))
            let path = CalDAVPath(request.uri.path, me: client.me)
            switch request.method.rawValue {
            case "PROPFIND":
                guard let asked = PropfindRequest.parse(body) else { return Self.plain(.badRequest, "The PROPFIND body is not well-formed XML.") }
                let depth = request.headers[HTTPField.Name("Depth")!] ?? "1"
                return try await propfind(path, depth: depth == "0" ? 0 : 1, asked: asked, client: client)
            case "PROPPATCH":
                return try await proppatch(path, body: body, client: client)
            case "REPORT":
                guard let root = DAVElement.parse(body) else { return Self.plain(.badRequest, "The REPORT body is not well-formed XML.") }
                return try await report(path, root, client: client)
            case "GET", "HEAD":
                return try await get(path, client: client, head: request.method == .head)
            case "PUT":
                return try await put(path, body: body, request: request, client: client)
            default:
                return try await delete(path, request: request, client: client)
            }
        } catch let refusal as Refusal {
            return refusal.response
        } catch let error as ServiceError {
            return Refusal(error).response
        } catch let error as CalendarWriteError {
            return Refusal(error).response
        } catch let error as CalendarService.InvalidSyncToken {
            return Self.precondition(.forbidden, "<d:valid-sync-token/>", error.message)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            return Self.plain(.contentTooLarge, "The request body is larger than the limit of \(maximumBody) bytes.")
        } catch {
            context.logger.error("CalDAV request failed", metadata: ["error": "\(String(reflecting: error))"])
            return Self.plain(.internalServerError, "The calendar could not be read or written just now; try again later.")
        }
    }

    /// Who signs in: Basic (email and access token) or Bearer; else 401 asking for Basic.
    private func signIn(_ request: Request) async throws -> Client {
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
        return Client(signedIn: signedIn, caller: try await authenticator.caller(signedIn))
    }

    /// The calendar the path names, if the person may read it; else 404.
    func collection(_ name: String, _ client: Client) async throws -> CalendarCollection {
        guard let collection = try await calendars.collection(client.caller, named: name) else {
            throw Refusal(response: Self.plain(.notFound, "No such calendar here; it may belong to a household you are not in."))
        }
        return collection
    }

    /// A write's calendar: readable, and the credentials and the person's role allow writing.
    func writableCollection(_ name: String, _ client: Client) async throws -> CalendarCollection {
        let collection = try await collection(name, client)
        guard client.canWrite else {
            throw Refusal(response: Self.precondition(.forbidden, "<d:need-privileges/>", "This access token may only read; make one that may write."))
        }
        guard collection.writable else {
            throw Refusal(response: Self.precondition(.forbidden, "<d:need-privileges/>",
                                                      "Viewers of \(collection.householdName) may read its calendars but not change them."))
        }
        return collection
    }

    static func multistatus(_ status: DAVMultistatus) -> Response {
        Response(status: .init(code: 207, reasonPhrase: "Multi-Status"), headers: [.contentType: "application/xml; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: status.xml)))
    }

    static func plain(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: message + "\n")))
    }

    /// A refusal naming the precondition that failed (RFC 4918 16), with a message a person understands.
    static func precondition(_ status: HTTPResponse.Status, _ element: String, _ message: String) -> Response {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:error xmlns:d="DAV:" xmlns:c="\(DAVProperty.caldav)" xmlns:h="\(DAVProperty.hearth)">\(element)\
            <h:message>\(DAVMultistatus.escape(message))</h:message></d:error>
            """
        return Response(status: status, headers: [.contentType: "application/xml; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// A refusal with its status, in words.
    struct Refusal: Error {
        let response: Response

        init(response: Response) { self.response = response }

        static func unauthenticated(_ message: String) -> Refusal {
            var response = CalDAVController.plain(.unauthorized, message)
            response.headers[.wwwAuthenticate] = #"Basic realm="Hearth""#
            return Refusal(response: response)
        }

        init(_ error: ServiceError) {
            switch error.kind {
            case .notFound: response = CalDAVController.plain(.notFound, error.message)
            case .forbidden: response = CalDAVController.precondition(.forbidden, "<d:need-privileges/>", error.message)
            case .badUserInput: response = CalDAVController.precondition(.forbidden, "<c:valid-calendar-object-resource/>", error.message)
            case .conflict: response = CalDAVController.plain(.conflict, error.message)
            case .rateLimited: response = CalDAVController.plain(.tooManyRequests, error.message)
            case .unauthenticated: response = Refusal.unauthenticated(error.message).response
            default: response = CalDAVController.plain(.serviceUnavailable, error.message)
            }
        }

        init(_ error: CalendarWriteError) {
            switch error {
            case .preconditionFailed(let message):
                response = CalDAVController.plain(.preconditionFailed, message)
            case .uidConflict(let name):
                response = CalDAVController.precondition(.forbidden, "<c:no-uid-conflict><d:href>\(DAVMultistatus.escape(name))</d:href></c:no-uid-conflict>",
                                                         "Another item of this calendar (\(name)) has this UID.")
            case .object(.invalidData(let problem)):
                response = CalDAVController.precondition(.badRequest, "<c:valid-calendar-data/>", "The item is not valid iCalendar: \(problem).")
            case .object(.unsupportedComponent(let message)):
                response = CalDAVController.precondition(.forbidden, "<c:supported-calendar-component/>", message)
            case .object(.invalidObject(let message)):
                response = CalDAVController.precondition(.forbidden, "<c:valid-calendar-object-resource/>", message)
            }
        }
    }
}

/// Where a CalDAV request points, for the signed-in person `me`.
enum CalDAVPath: Equatable {
    case root
    case principal
    case home
    case collection(String)
    case item(collection: String, name: String)
    /// Another person's principal or home, or nothing Hearth has.
    case elsewhere

    init(_ raw: String, me: String) {
        let path = raw.split(separator: "?", maxSplits: 1).first.map(String.init) ?? raw
        let parts = path.split(separator: "/").map { $0.contains("%") ? String($0).removingPercentEncoding ?? String($0) : String($0) }
        switch parts.count {
        case 1 where parts[0] == "dav": self = .root
        case 3 where parts[1] == "principals" && parts[2] == me: self = .principal
        case 3 where parts[1] == "calendars" && parts[2] == me: self = .home
        case 4 where parts[1] == "calendars" && parts[2] == me: self = .collection(parts[3])
        case 5 where parts[1] == "calendars" && parts[2] == me: self = .item(collection: parts[3], name: parts[4])
        default: self = .elsewhere
        }
    }

    static func principal(_ me: String) -> String { "/dav/principals/\(me)/" }
    static func home(_ me: String) -> String { "/dav/calendars/\(me)/" }
    static func collection(_ me: String, _ name: String) -> String { home(me) + name + "/" }
    static func item(_ me: String, _ collection: String, _ name: String) -> String {
        let plain = name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D || $0 == 0x2E || $0 == 0x5F }
        return Self.collection(me, collection) + (plain ? name : name.addingPercentEncoding(withAllowedCharacters: segment) ?? name)
    }

    /// What a path segment keeps unencoded.
    private static let segment: CharacterSet = {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;")
        return allowed
    }()
}
