import Foundation
import HearthCore
import HearthTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// CalDAV discovery over real HTTP, checked by the `caldav` client library from PyPI (in
/// `.build/python-caldav`, which `make test` installs): from the server's address, an email and
/// an access token to the principal and two calendars per household; Basic with a password is
/// refused; a READ token's calendars are read-only.
@Suite struct CalDAVOverHTTPTests {
    typealias Server = UsersOverHTTPTests.Server
    static let python = CalendarFeedOverHTTPTests.python
    static let discover = DeliveryCryptoTests.root.appendingPathComponent("scripts/clients/caldav_discover.py").path
    static let hasClient = ChildProcess.succeeds(python, ["-c", "import caldav"])

    static func request(_ server: Server, _ method: HTTPRequest.Method, _ path: String, authorization: String?, depth: String? = nil,
                        body: String? = nil) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, body: String) {
        var headers: HTTPFields = [.contentType: "application/xml"]
        if let authorization { headers[.authorization] = authorization }
        if let depth, let name = HTTPField.Name("Depth") { headers[name] = depth }
        let response = try await server.client.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        return (response.status, response.headers, String(buffer: response.body))
    }

    static func basic(_ email: String, _ secret: String) -> String {
        "Basic " + Data("\(email):\(secret)".utf8).base64EncodedString()
    }

    static func token(_ server: Server, _ person: HouseholdsOverHTTPTests.Person, scopes: String) async throws -> String {
        let made = try await server.data("mutation { createAccessToken(input: {name: \"Calendar\", scopes: [\(scopes)]}) { token } }", token: person.token)
        return try #require((made["createAccessToken"] as? [String: Any])?["token"] as? String)
    }

    @Test(.enabled(if: hasClient || DeliveryCryptoTests.isCI, "SKIPPED: needs caldav in .build/python-caldav (make test installs it)"))
    func aCalendarAppFindsTwoCalendarsPerHousehold() async throws {
        try #require(Self.hasClient, "caldav is missing from \(Self.python) (make test installs it)")
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let ben = try await HouseholdsOverHTTPTests.person(server, "Ben")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann, name: "Elm Street")
            try await HouseholdsOverHTTPTests.add(server, ann, home, ben, "VIEWER")
            _ = try await HouseholdsOverHTTPTests.createHousehold(server, ann, name: "Cabin")
            let port = try #require(server.client.port)
            let write = try await Self.token(server, ann, scopes: "READ, WRITE")

            let found = try await ChildProcess.run(Self.python, [Self.discover, "http://127.0.0.1:\(port)/dav/", "ann@example.org", write])
            #expect(found.status == 0, "\(found.text.prefix(3000))")
            let json = try #require(try JSONSerialization.jsonObject(with: found.stdout) as? [String: Any], "\(found.text.prefix(2000))")
            #expect((json["principal"] as? String)?.hasSuffix("/dav/principals/\(ann.id)/") == true, "\(json)")
            let calendars = try #require(json["calendars"] as? [[String: Any]])
            #expect(calendars.map { $0["name"] as? String } == ["Cabin — Tasks", "Cabin — Events", "Elm Street — Tasks", "Elm Street — Events"])
            #expect(calendars.map { $0["components"] as? [String] } == [["VTODO"], ["VEVENT"], ["VTODO"], ["VEVENT"]])
            #expect((calendars[2]["url"] as? String)?.hasSuffix("/dav/calendars/\(ann.id)/\(home)-tasks/") == true)

            // Discovery from the well-known address; what the server says it speaks.
            let wellKnown = try await Self.request(server, .get, "/.well-known/caldav", authorization: nil)
            #expect(wellKnown.status == .movedPermanently && wellKnown.headers[.location] == "/dav/")
            let options = try await Self.request(server, .options, "/dav/", authorization: nil)
            #expect(options.headers[try #require(HTTPField.Name("DAV"))] == "1, 3, calendar-access")
            // No credentials, or a password: 401 asking for Basic.
            let propfind = try #require(HTTPRequest.Method("PROPFIND"))
            let anonymous = try await Self.request(server, propfind, "/dav/", authorization: nil, depth: "0")
            #expect(anonymous.status == .unauthorized && anonymous.headers[.wwwAuthenticate] == #"Basic realm="Hearth""#)
            let password = try await Self.request(server, propfind, "/dav/", authorization: Self.basic("ann@example.org", "correct horse"), depth: "0")
            #expect(password.status == .unauthorized && password.body.contains("access token"))
            let wrongEmail = try await Self.request(server, propfind, "/dav/", authorization: Self.basic("ben@example.org", write), depth: "0")
            #expect(wrongEmail.status == .unauthorized)

            // A viewer's calendars are read-only; the household they are not in is not there; asked-for unknown properties are 404.
            let read = try await Self.token(server, ben, scopes: "READ")
            let body = """
                <?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:x="urn:example"><d:prop><d:displayname/><d:current-user-privilege-set/><x:unknown/></d:prop></d:propfind>
                """
            let listing = try await Self.request(server, propfind, "/dav/calendars/\(ben.id)/", authorization: Self.basic("ben@example.org", read), depth: "1", body: body)
            #expect(listing.status.code == 207)
            #expect(listing.body.contains("Elm Street — Tasks") && !listing.body.contains("Cabin"))
            #expect(listing.body.contains("<d:privilege><d:read/></d:privilege>") && !listing.body.contains("<d:write/>"))
            #expect(listing.body.contains("<x:unknown xmlns:x=\"urn:example\"/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status>"))
            // Another person's calendar home is not found.
            let other = try await Self.request(server, propfind, "/dav/calendars/\(ann.id)/", authorization: Self.basic("ben@example.org", read), depth: "1")
            #expect(other.status == .notFound)
        }
    }
}
