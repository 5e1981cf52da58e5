import Foundation
import HearthCore
import HearthTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The request sequences of iOS Calendar and Reminders, DAVx5 and Thunderbird, replayed over real
/// HTTP: the PROPFIND and REPORT bodies as those clients send them (written here from their public
/// documentation and the behaviour the Vikunja and sabre/dav test suites describe), each answered
/// with the statuses and properties the client needs to go on.
@Suite struct CalDAVClientSequencesTests {
    typealias Server = UsersOverHTTPTests.Server
    static let d = "DAV: ", c = "urn:ietf:params:xml:ns:caldav ", cs = "http://calendarserver.org/ns/ ", apple = "http://apple.com/ns/ical/ "
    static let dav = HTTPField.Name("DAV")!

    /// A household with Ann (owner), one task and one event in it, and Ann's Basic credentials.
    struct Setup {
        let server: Server
        let ann: HouseholdsOverHTTPTests.Person
        let home: String
        let auth: String
        var tasks: String { "/dav/calendars/\(ann.id)/\(home)-tasks/" }
        var events: String { "/dav/calendars/\(ann.id)/\(home)-events/" }

        func send(_ method: String, _ path: String, depth: String? = nil, headers: HTTPFields = [:], _ body: String? = nil) async throws
            -> (status: Int, headers: HTTPFields, body: String) {
            let answer = try await CalDAVOverHTTPTests.request(server, try #require(HTTPRequest.Method(method)), path, authorization: auth, depth: depth,
                                                               body: body, headers: headers)
            return (answer.status.code, answer.headers, answer.body)
        }

        func multistatus(_ method: String, _ path: String, depth: String, _ body: String) async throws -> MultistatusReader {
            let answer = try await send(method, path, depth: depth, body)
            #expect(answer.status == 207, "\(method) \(path): \(answer.status) \(answer.body.prefix(500))")
            return try #require(MultistatusReader(answer.body), "not a multistatus: \(answer.body.prefix(500))")
        }
    }

    static func setUp(_ server: Server) async throws -> Setup {
        let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
        let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann, name: "Elm Street")
        _ = try await server.data(#"mutation($h: UUID!) { createTask(householdId: $h, input: {title: "Bins out", deadline: "2026-12-01T06:00:00Z"}) { id } }"#,
                                  ["h": home], token: ann.token)
        _ = try await server.data(#"mutation($h: UUID!) { createEvent(householdId: $h, input: {title: "Dinner", startsAt: "2026-12-02T18:00:00Z"}) { id } }"#,
                                  ["h": home], token: ann.token)
        let auth = CalDAVOverHTTPTests.basic("ann@example.org", try await CalDAVOverHTTPTests.token(server, ann, scopes: "READ, WRITE"))
        return Setup(server: server, ann: ann, home: home, auth: auth)
    }

    static func vtodo(uid: String, summary: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Apple Inc.//iOS 18.1//EN\r\nCALSCALE:GREGORIAN\r\nBEGIN:VTODO\r\nCREATED:20261126T080000Z\r\n"
            + "DTSTAMP:20261126T080000Z\r\nLAST-MODIFIED:20261126T080000Z\r\nSEQUENCE:0\r\nSTATUS:NEEDS-ACTION\r\nSUMMARY:\(summary)\r\nUID:\(uid)\r\n"
            + "X-APPLE-SORT-ORDER:786364800\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
    }

    @Test func iOSCalendarAndReminders() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let setup = try await Self.setUp(server)
            let me = setup.ann.id
            // Account setup: the well-known address, then the context path's principal.
            let wellKnown = try await setup.send("PROPFIND", "/.well-known/caldav", depth: "0", """
                <?xml version="1.0" encoding="UTF-8"?><A:propfind xmlns:A="DAV:"><A:prop><A:current-user-principal/><A:principal-URL/><A:resourcetype/></A:prop></A:propfind>
                """)
            #expect(wellKnown.status == 301 && wellKnown.headers[.location] == "/dav/")
            let root = try await setup.multistatus("PROPFIND", "/dav/", depth: "0", """
                <?xml version="1.0" encoding="UTF-8"?><A:propfind xmlns:A="DAV:"><A:prop><A:current-user-principal/><A:principal-URL/><A:resourcetype/></A:prop></A:propfind>
                """)
            #expect(root.responses.first?.text(of: Self.d + "current-user-principal") == "/dav/principals/\(me)/")
            let options = try await setup.send("OPTIONS", "/dav/principals/\(me)/")
            #expect(options.status == 200 && options.headers[Self.dav]?.contains("calendar-access") == true)
            let principal = try await setup.multistatus("PROPFIND", "/dav/principals/\(me)/", depth: "0", """
                <?xml version="1.0" encoding="UTF-8"?><A:propfind xmlns:A="DAV:" xmlns:B="urn:ietf:params:xml:ns:caldav" xmlns:C="http://calendarserver.org/ns/">\
                <A:prop><B:calendar-home-set/><B:calendar-user-address-set/><A:current-user-principal/><A:displayname/><C:dropbox-home-URL/>\
                <C:email-address-set/><C:notification-URL/><A:principal-collection-set/><A:principal-URL/><A:resource-id/><B:schedule-inbox-URL/>\
                <B:schedule-outbox-URL/><A:supported-report-set/></A:prop></A:propfind>
                """)
            let person = try #require(principal.responses.first)
            #expect(person.text(of: Self.c + "calendar-home-set") == "/dav/calendars/\(me)/")
            #expect(person.text(of: Self.c + "calendar-user-address-set") == "mailto:ann@example.org")
            #expect(person.text(of: Self.d + "displayname") == "Ann")
            #expect(person.status(of: Self.c + "schedule-inbox-URL") == 404 && person.status(of: Self.cs + "dropbox-home-URL") == 404)

            // The home, as dataaccessd asks for it: every calendar with what it shows and syncs by.
            let listing = try await setup.multistatus("PROPFIND", "/dav/calendars/\(me)/", depth: "1", """
                <?xml version="1.0" encoding="UTF-8"?><A:propfind xmlns:A="DAV:" xmlns:B="http://calendarserver.org/ns/" xmlns:C="urn:ietf:params:xml:ns:caldav" \
                xmlns:D="http://apple.com/ns/ical/"><A:prop><A:add-member/><C:allowed-sharing-modes/><D:autoprovisioned/><B:bulk-requests/>\
                <D:calendar-color/><C:calendar-description/><C:calendar-free-busy-set/><D:calendar-order/><C:calendar-timezone/>\
                <A:current-user-privilege-set/><C:default-alarm-vevent-date/><C:default-alarm-vevent-datetime/><A:displayname/><B:getctag/>\
                <D:language-code/><D:location-code/><A:owner/><B:pre-publish-url/><B:publish-url/><B:push-transports/><B:pushkey/>\
                <A:quota-available-bytes/><A:quota-used-bytes/><D:refreshrate/><A:resource-id/><A:resourcetype/><C:schedule-calendar-transp/>\
                <C:schedule-default-calendar-URL/><B:source/><B:subscribed-strip-alarms/><B:subscribed-strip-attachments/><B:subscribed-strip-todos/>\
                <C:supported-calendar-component-set/><C:supported-calendar-component-sets/><A:supported-report-set/><A:sync-token/></A:prop></A:propfind>
                """)
            let taskList = try #require(listing.response(setup.tasks))
            let calendar = try #require(listing.response(setup.events))
            for collection in [taskList, calendar] {
                #expect(collection.children(of: Self.d + "resourcetype").contains(Self.c + "calendar"))
                #expect(collection.text(of: Self.cs + "getctag")?.isEmpty == false && collection.text(of: Self.d + "sync-token")?.hasPrefix("http") == true)
                #expect(collection.children(of: Self.d + "current-user-privilege-set").count >= 5, "read and write privileges")
                #expect(collection.text(of: Self.c + "calendar-timezone")?.contains("TZID:Europe/Berlin") == true)
                #expect(collection.status(of: Self.cs + "push-transports") == 404 && collection.status(of: Self.apple + "refreshrate") == 404)
            }
            #expect(taskList.text(of: Self.d + "displayname") == "Elm Street — Tasks", "Reminders shows the task list")
            #expect(calendar.text(of: Self.apple + "calendar-color") == "#1565C0")

            // First sync of the task list (Reminders): sync-collection, then the items by multiget.
            let sync = """
                <?xml version="1.0" encoding="UTF-8"?><A:sync-collection xmlns:A="DAV:"><A:sync-token>%@</A:sync-token><A:sync-level>1</A:sync-level>\
                <A:prop><A:getcontenttype/><A:getetag/></A:prop></A:sync-collection>
                """
            let first = try await setup.multistatus("REPORT", setup.tasks, depth: "1", sync.replacingOccurrences(of: "%@", with: ""))
            #expect(first.responses.count == 1 && first.responses[0].text(of: Self.d + "getcontenttype")?.hasPrefix("text/calendar") == true)
            let token = try #require(first.syncToken)
            let items = try await setup.multistatus("REPORT", setup.tasks, depth: "1", """
                <?xml version="1.0" encoding="UTF-8"?><B:calendar-multiget xmlns:A="DAV:" xmlns:B="urn:ietf:params:xml:ns:caldav">\
                <A:prop><A:getetag/><B:calendar-data/></A:prop><A:href>\(first.responses[0].href)</A:href></B:calendar-multiget>
                """)
            #expect(items.responses.first?.text(of: Self.c + "calendar-data")?.contains("SUMMARY:Bins out") == true)

            // A reminder added on the phone, then the next sync brings only it, with the ETag the PUT gave.
            let put = try await setup.send("PUT", setup.tasks + "1F3C6B52-64A2-4C3B-9E36-5E8E0E1A4B7C.ics",
                                           headers: [.contentType: "text/calendar; charset=utf-8", .ifNoneMatch: "*"],
                                           Self.vtodo(uid: "1F3C6B52-64A2-4C3B-9E36-5E8E0E1A4B7C", summary: "Call the plumber"))
            #expect(put.status == 201)
            let next = try await setup.multistatus("REPORT", setup.tasks, depth: "1", sync.replacingOccurrences(of: "%@", with: token))
            #expect(next.responses.map(\.href) == [setup.tasks + "1F3C6B52-64A2-4C3B-9E36-5E8E0E1A4B7C.ics"])
            #expect(next.responses.first?.text(of: Self.d + "getetag") == put.headers[.eTag])
            // Completing it on the phone: the whole item again with If-Match.
            let done = Self.vtodo(uid: "1F3C6B52-64A2-4C3B-9E36-5E8E0E1A4B7C", summary: "Call the plumber")
                .replacingOccurrences(of: "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED\r\nCOMPLETED:20261126T090000Z\r\nPERCENT-COMPLETE:100")
            let completed = try await setup.send("PUT", setup.tasks + "1F3C6B52-64A2-4C3B-9E36-5E8E0E1A4B7C.ics",
                                                 headers: [.contentType: "text/calendar; charset=utf-8", .ifMatch: try #require(put.headers[.eTag])], done)
            #expect(completed.status == 204)
            let listed = try await server.data(#"query($h: UUID!) { tasks(householdId: $h, filter: {completed: true}) { edges { node { title } } } }"#,
                                               ["h": setup.home], token: setup.ann.token)
            #expect("\(listed)".contains("Call the plumber"))
        }
    }

    @Test func davx5() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let setup = try await Self.setUp(server)
            let me = setup.ann.id
            // Service detection from the base URL: the principal, then its home set.
            let base = try await setup.multistatus("PROPFIND", "/dav/", depth: "0", """
                <?xml version='1.0' encoding='UTF-8' ?><propfind xmlns="DAV:" xmlns:CAL="urn:ietf:params:xml:ns:caldav"><prop><resourcetype />\
                <displayname /><current-user-principal /><CAL:calendar-home-set /></prop></propfind>
                """)
            #expect(base.responses.first?.text(of: Self.d + "current-user-principal") == "/dav/principals/\(me)/")
            let principal = try await setup.multistatus("PROPFIND", "/dav/principals/\(me)/", depth: "0", """
                <?xml version='1.0' encoding='UTF-8' ?><propfind xmlns="DAV:" xmlns:CAL="urn:ietf:params:xml:ns:caldav"><prop><resourcetype />\
                <displayname /><CAL:calendar-user-address-set /><CAL:calendar-home-set /></prop></propfind>
                """)
            #expect(principal.responses.first?.text(of: Self.c + "calendar-home-set") == "/dav/calendars/\(me)/")
            // The home's collections, with what DAVx5 stores per calendar.
            let home = try await setup.multistatus("PROPFIND", "/dav/calendars/\(me)/", depth: "1", """
                <?xml version='1.0' encoding='UTF-8' ?><propfind xmlns="DAV:" xmlns:CAL="urn:ietf:params:xml:ns:caldav" xmlns:CS="http://calendarserver.org/ns/" \
                xmlns:ICAL="http://apple.com/ns/ical/"><prop><resourcetype /><displayname /><owner /><current-user-privilege-set />\
                <CAL:calendar-description /><ICAL:calendar-color /><CAL:calendar-timezone /><CAL:supported-calendar-component-set />\
                <CS:source /></prop></propfind>
                """)
            let events = try #require(home.response(setup.events))
            #expect(events.children(of: Self.c + "supported-calendar-component-set") == [Self.c + "comp"])
            #expect(events.children(of: Self.d + "current-user-privilege-set").count >= 5)
            #expect(events.text(of: Self.d + "owner") == "/dav/principals/\(me)/" && events.status(of: Self.cs + "source") == 404)

            // Sync: the collection's state (getctag, sync-token, supported-report-set says sync-collection).
            let state = try await setup.multistatus("PROPFIND", setup.events, depth: "0", """
                <?xml version='1.0' encoding='UTF-8' ?><propfind xmlns="DAV:" xmlns:CS="http://calendarserver.org/ns/"><prop><CS:getctag />\
                <sync-token /><supported-report-set /></prop></propfind>
                """)
            let collection = try #require(state.responses.first)
            #expect(collection.properties[Self.d + "supported-report-set"]?.status == 200)
            let reports = try await setup.send("PROPFIND", setup.events, depth: "0",
                                               "<?xml version='1.0'?><propfind xmlns=\"DAV:\"><prop><supported-report-set/></prop></propfind>")
            #expect(reports.body.contains("<d:sync-collection/>"))
            let ctag = try #require(collection.text(of: Self.cs + "getctag"))
            let initial = try await setup.multistatus("REPORT", setup.events, depth: "0", """
                <?xml version='1.0' encoding='UTF-8' ?><sync-collection xmlns="DAV:"><sync-token /><sync-level>1</sync-level><prop>\
                <getcontenttype /><getetag /></prop><limit><nresults>100</nresults></limit></sync-collection>
                """)
            #expect(initial.responses.count == 1 && initial.responses[0].text(of: Self.d + "getetag")?.hasPrefix("\"") == true)
            let multiget = try await setup.multistatus("REPORT", setup.events, depth: "0", """
                <?xml version='1.0' encoding='UTF-8' ?><CAL:calendar-multiget xmlns="DAV:" xmlns:CAL="urn:ietf:params:xml:ns:caldav"><prop>\
                <getcontenttype /><getetag /><CAL:calendar-data /></prop><href>\(initial.responses[0].href)</href></CAL:calendar-multiget>
                """)
            let event = try #require(multiget.responses.first?.text(of: Self.c + "calendar-data"))
            #expect(event.contains("SUMMARY:Dinner") && event.contains("DTSTART;TZID=Europe/Berlin:20261202T190000"))

            // An event made on the phone: PUT with If-None-Match, then the collection's ctag moved.
            let uid = "a4b2f3c8-5d6e-4f70-8a9b-0c1d2e3f4a5b"
            let made = try await setup.send("PUT", setup.events + uid + ".ics", headers: [.contentType: "text/calendar; charset=utf-8", .ifNoneMatch: "*"], """
                BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:+//IDN bitfire.at//DAVx5/4.4.3-ose ical4j/3.2.19\r\nBEGIN:VEVENT\r\nDTSTAMP:20261126T081500Z\r\n\
                UID:\(uid)\r\nSUMMARY:Dentist\r\nDTSTART;TZID=Europe/Berlin:20261203T100000\r\nDTEND;TZID=Europe/Berlin:20261203T110000\r\n\
                STATUS:CONFIRMED\r\nBEGIN:VALARM\r\nTRIGGER:-PT15M\r\nACTION:DISPLAY\r\nDESCRIPTION:Dentist\r\nEND:VALARM\r\nEND:VEVENT\r\n\
                BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:STANDARD\r\nTZNAME:CET\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\n\
                DTSTART:19961027T030000\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\nEND:VCALENDAR\r\n
                """)
            #expect(made.status == 201 && made.headers[.eTag] != nil)
            let after = try await setup.multistatus("PROPFIND", setup.events, depth: "0",
                                                    "<?xml version='1.0'?><propfind xmlns=\"DAV:\" xmlns:CS=\"http://calendarserver.org/ns/\"><prop><CS:getctag /></prop></propfind>")
            #expect(after.responses.first?.text(of: Self.cs + "getctag") != ctag)
            let dentist = try await server.data(#"query($h: UUID!) { occursOn(householdId: $h, date: "2026-12-03") { title startsAt remindAt } }"#,
                                                ["h": setup.home], token: setup.ann.token)
            #expect("\(dentist)".contains("2026-12-03T09:00:00") && "\(dentist)".contains("2026-12-03T08:45:00"), "\(dentist)")
        }
    }

    @Test func thunderbird() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let setup = try await Self.setUp(server)
            // Checking the calendar it was given: OPTIONS, then the collection's properties.
            let options = try await setup.send("OPTIONS", setup.events)
            #expect(options.headers[Self.dav]?.contains("calendar-access") == true)
            #expect(options.headers[.allow]?.contains("REPORT") == true && options.headers[.allow]?.contains("PUT") == true)
            let check = try await setup.multistatus("PROPFIND", setup.events, depth: "0", """
                <?xml version="1.0" encoding="UTF-8"?><D:propfind xmlns:D="DAV:" xmlns:CS="http://calendarserver.org/ns/" \
                xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:resourcetype/><D:owner/><D:current-user-principal/>\
                <D:current-user-privilege-set/><D:supported-report-set/><C:supported-calendar-component-set/><CS:getctag/></D:prop></D:propfind>
                """)
            let calendar = try #require(check.responses.first)
            #expect(calendar.children(of: Self.d + "resourcetype").contains(Self.c + "calendar"))
            #expect(calendar.text(of: Self.d + "current-user-principal") == "/dav/principals/\(setup.ann.id)/")
            // Its item listing: a calendar-query for every VEVENT's ETag.
            let query = try await setup.multistatus("REPORT", setup.events, depth: "1", """
                <?xml version="1.0" encoding="UTF-8"?><calendar-query xmlns:D="DAV:" xmlns="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/></D:prop>\
                <filter><comp-filter name="VCALENDAR"><comp-filter name="VEVENT"/></comp-filter></filter></calendar-query>
                """)
            #expect(query.responses.count == 1)
            let etag = try #require(query.responses.first?.text(of: Self.d + "getetag"))
            // A time-range query (the visible weeks) finds the dinner; one elsewhere does not.
            func range(_ start: String, _ end: String) -> String {
                """
                <?xml version="1.0" encoding="UTF-8"?><calendar-query xmlns:D="DAV:" xmlns="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/></D:prop>\
                <filter><comp-filter name="VCALENDAR"><comp-filter name="VEVENT"><time-range start="\(start)" end="\(end)"/></comp-filter></comp-filter>\
                </filter></calendar-query>
                """
            }
            #expect(try await setup.multistatus("REPORT", setup.events, depth: "1", range("20261130T000000Z", "20261207T000000Z")).responses.count == 1)
            #expect(try await setup.multistatus("REPORT", setup.events, depth: "1", range("20270101T000000Z", "20270108T000000Z")).responses.isEmpty)
            // The whole item by multiget, edited and put back with If-Match; a stale one is 412.
            let href = try #require(query.responses.first?.href)
            let fetched = try await setup.multistatus("REPORT", setup.events, depth: "1", """
                <?xml version="1.0" encoding="UTF-8"?><C:calendar-multiget xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/>\
                <C:calendar-data/></D:prop><D:href>\(href)</D:href></C:calendar-multiget>
                """)
            let data = try #require(fetched.responses.first?.text(of: Self.c + "calendar-data"))
            let edited = data.replacingOccurrences(of: "SUMMARY:Dinner", with: "SUMMARY:Dinner at Ann's\r\nX-MOZ-GENERATION:1")
            let saved = try await setup.send("PUT", href, headers: [.contentType: "text/calendar; charset=utf-8", .ifMatch: etag], edited)
            #expect(saved.status == 204)
            let stale = try await setup.send("PUT", href, headers: [.contentType: "text/calendar; charset=utf-8", .ifMatch: etag], edited)
            #expect(stale.status == 412)
            let again = try await setup.send("GET", href)
            #expect(again.body.contains("SUMMARY:Dinner at Ann's\r\n") && again.body.contains("X-MOZ-GENERATION:1\r\n"))
            // Deleting with If-Match.
            let deleted = try await setup.send("DELETE", href, headers: [.ifMatch: try #require(again.headers[.eTag])])
            #expect(deleted.status == 204)
            #expect(try await setup.send("GET", href).status == 404)
        }
    }
}
