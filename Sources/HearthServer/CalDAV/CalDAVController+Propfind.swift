import Foundation
import HearthCore
import Hummingbird

extension CalDAVController {
    /// PROPFIND: the root, the principal, the home (depth 1: its calendars), a calendar (depth 1: its items) or an item.
    func propfind(_ path: CalDAVPath, depth: Int, asked: PropfindRequest, client: Client) async throws -> Response {
        let user = client.signedIn.user
        let me = client.me
        var status = DAVMultistatus()
        let common: DAVMultistatus.Values = [.dav("current-user-principal"): DAVMultistatus.href(CalDAVPath.principal(me))]
        switch path {
        case .root:
            status.add(href: "/dav/", values: common.merging([.dav("resourcetype"): "<d:collection/>", .dav("displayname"): "Hearth"]) { $1 }, requested: asked)
        case .principal:
            status.add(href: CalDAVPath.principal(me), values: common.merging([
                .dav("resourcetype"): "<d:collection/><d:principal/>",
                .dav("displayname"): DAVMultistatus.escape(user.displayName),
                .dav("principal-URL"): DAVMultistatus.href(CalDAVPath.principal(me)),
                .caldav("calendar-home-set"): DAVMultistatus.href(CalDAVPath.home(me)),
                .caldav("calendar-user-address-set"): DAVMultistatus.href("mailto:" + user.email),
            ]) { $1 }, requested: asked)
        case .home:
            status.add(href: CalDAVPath.home(me), values: common.merging([.dav("resourcetype"): "<d:collection/>", .dav("displayname"): "Calendars"]) { $1 },
                       requested: asked)
            if depth > 0 {
                for collection in try await calendars.collections(client.caller) {
                    status.add(href: CalDAVPath.collection(me, collection.name),
                               values: common.merging(try await values(of: collection, client: client, asked: asked)) { $1 }, requested: asked)
                }
            }
        case .collection(let name):
            let collection = try await collection(name, client)
            status.add(href: CalDAVPath.collection(me, name), values: common.merging(try await values(of: collection, client: client, asked: asked)) { $1 },
                       requested: asked)
            if depth > 0 {
                let timeZones = VTimeZoneCache()
                for entry in try await calendars.entries(collection) {
                    status.add(href: CalDAVPath.item(me, name, entry.name), values: values(of: entry, in: collection, asked: asked, timeZones: timeZones),
                               requested: asked)
                }
            }
        case .item(let name, let item):
            let collection = try await collection(name, client)
            guard let entry = try await calendars.entries(collection, names: [item]).first else {
                return Self.plain(.notFound, "No item \(item) in this calendar; it may have been deleted.")
            }
            status.add(href: CalDAVPath.item(me, name, entry.name), values: values(of: entry, in: collection, asked: asked), requested: asked)
        case .elsewhere:
            return Self.plain(.notFound, "No such calendar or principal here.")
        }
        return Self.multistatus(status)
    }

    /// A calendar's properties (its sync token and time zone only when asked for by name: each costs a little).
    private func values(of collection: CalendarCollection, client: Client, asked: PropfindRequest) async throws -> DAVMultistatus.Values {
        let privileges = ["read", "read-current-user-privilege-set"]
            + (collection.writable && client.canWrite ? ["write", "write-content", "write-properties", "bind", "unbind"] : [])
        var values: DAVMultistatus.Values = [
            .dav("resourcetype"): "<d:collection/><c:calendar/>",
            .dav("displayname"): DAVMultistatus.escape(collection.displayName),
            .dav("owner"): DAVMultistatus.href(CalDAVPath.principal(client.me)),
            .caldav("supported-calendar-component-set"): "<c:comp name=\"\(collection.component)\"/>",
            .caldav("supported-calendar-data"): "<c:calendar-data content-type=\"text/calendar\" version=\"2.0\"/>",
            .dav("supported-report-set"): ["calendar-query", "calendar-multiget", "free-busy-query"].map { "<d:supported-report><d:report><c:\($0)/></d:report></d:supported-report>" }
                .joined() + "<d:supported-report><d:report><d:sync-collection/></d:report></d:supported-report>",
            DAVProperty(namespace: DAVProperty.calendarServer, name: "getctag"): DAVMultistatus.escape("\"\(collection.tag)\""),
            DAVProperty(namespace: DAVProperty.apple, name: "calendar-color"): collection.kind == .task ? "#2E7D32" : "#1565C0",
            .dav("current-user-privilege-set"): privileges.map { "<d:privilege><d:\($0)/></d:privilege>" }.joined(),
        ]
        if asked.names(.dav("sync-token")) {
            values[.dav("sync-token")] = DAVMultistatus.escape(try await calendars.currentToken(collection))
        }
        if asked.names(.caldav("calendar-timezone")), let zone = TimeZone(identifier: collection.timeZone) {
            var ics = ICalendarWriter()
            ics.begin("VCALENDAR")
            ics.line("VERSION", raw: "2.0")
            ics.text("PRODID", "-//Hearth//CalDAV//EN")
            let now = Date()
            ics.timeZone(zone, covering: now.addingTimeInterval(-366 * 86_400)...now.addingTimeInterval(2 * 366 * 86_400))
            ics.end("VCALENDAR")
            values[.caldav("calendar-timezone")] = DAVMultistatus.escape(ics.output)
        }
        return values
    }

    /// An item's properties (its iCalendar only when asked for by name).
    func values(of entry: CalendarService.Entry, in collection: CalendarCollection, asked: PropfindRequest,
                timeZones: VTimeZoneCache? = nil) -> DAVMultistatus.Values {
        var values: DAVMultistatus.Values = [
            .dav("resourcetype"): "",
            .dav("getetag"): DAVMultistatus.escape(entry.etag),
            .dav("getcontenttype"): "text/calendar; charset=utf-8; component=\(collection.component.lowercased())",
        ]
        if asked == .all || asked.names(.dav("getlastmodified")) {
            values[.dav("getlastmodified")] = Self.httpDate(entry.item.updatedAt)
        }
        if asked.names(.caldav("calendar-data")) {
            values[.caldav("calendar-data")] = DAVMultistatus.escape(entry.iCalendar(in: TimeZone(identifier: collection.timeZone) ?? .gmt,
                                                                                     timeZones: timeZones))
        }
        return values
    }

    /// PROPPATCH: calendar apps set a calendar's colour or order; Hearth keeps neither, so each is refused (403) by name.
    func proppatch(_ path: CalDAVPath, body: Data, client: Client) async throws -> Response {
        guard let root = DAVElement.parse(body) else { return Self.plain(.badRequest, "The PROPPATCH body is not well-formed XML.") }
        let href: String
        switch path {
        case .collection(let name):
            _ = try await collection(name, client)
            href = CalDAVPath.collection(client.me, name)
        case .principal: href = CalDAVPath.principal(client.me)
        case .home: href = CalDAVPath.home(client.me)
        default: return Self.plain(.notFound, "No such calendar here.")
        }
        let names = root.children.flatMap { $0.child(DAVProperty.dav, "prop")?.propertyNames ?? [] }
        var status = DAVMultistatus()
        status.refuse(href: href, properties: names)
        return Self.multistatus(status)
    }

    /// `Wed, 25 Nov 2026 09:30:00 GMT` (RFC 9110's IMF-fixdate).
    static func httpDate(_ date: Date) -> String {
        let time = date.civil(in: .gmt)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[time.weekday]), \(two(time.day)) \(months[time.month - 1]) \(time.year) \(two(time.hour)):\(two(time.minute)):\(two(time.second)) GMT"
    }
}
