import Foundation
import HearthCore
import Hummingbird

extension CalDAVController {
    /// REPORT on a calendar: calendar-multiget (items by href), calendar-query (items matching a
    /// filter) or sync-collection (what changed since a token); any other report is 403 `DAV:supported-report`.
    func report(_ path: CalDAVPath, _ root: DAVElement, client: Client) async throws -> Response {
        if root.is(DAVProperty.dav, "principal-property-search") { return principalSearch(root, client: client) }
        guard case .collection(let name) = path else {
            return Self.precondition(.forbidden, "<d:supported-report/>", "Reports run on a calendar (a household's tasks or events).")
        }
        let collection = try await collection(name, client)
        let asked = PropfindRequest(root)
        let zone = TimeZone(identifier: collection.timeZone) ?? .gmt
        var status = DAVMultistatus()
        let timeZones = VTimeZoneCache()
        // calendar-data with `expand` (RFC 4791 9.6.5): repeating items as their occurrences in the range.
        let expand = root.child(DAVProperty.dav, "prop")?.child(DAVProperty.caldav, "calendar-data")?.child(DAVProperty.caldav, "expand")
            .map { TimeSpan(start: CalendarQueryFilter.time($0.attributes["start"]), end: CalendarQueryFilter.time($0.attributes["end"])) }
        func add(_ entry: CalendarService.Entry) {
            var values = values(of: entry, in: collection, asked: asked, timeZones: timeZones)
            if let expand, asked.names(.caldav("calendar-data")) {
                values[.caldav("calendar-data")] = DAVMultistatus.escape(ICalendarExpansion.expand(
                    entry.iCalendar(in: zone, timeZones: timeZones), from: expand.start, to: expand.end, fallback: zone))
            }
            status.add(href: CalDAVPath.item(client.me, name, entry.name), values: values, requested: asked)
        }
        if root.is(DAVProperty.caldav, "calendar-multiget") {
            let prefix = CalDAVPath.collection(client.me, name)
            var names: [String] = []
            for href in root.children(DAVProperty.dav, "href").map(\.text) {
                let path = Self.path(of: href)
                if case .item(name, let item) = CalDAVPath(path, me: client.me) { names.append(item) } else {
                    status.add(href: href, status: "404 Not Found")
                }
            }
            let found = Dictionary(try await calendars.entries(collection, names: names).map { ($0.name, $0) }) { first, _ in first }
            for item in names {
                if let entry = found[item] { add(entry) } else { status.add(href: prefix + item, status: "404 Not Found") }
            }
        } else if root.is(DAVProperty.caldav, "calendar-query") {
            let filter = CalendarQueryFilter(root.child(DAVProperty.caldav, "filter"))
            for entry in try await calendars.entries(collection) where filter.matches(entry, zone: zone, timeZones: timeZones) { add(entry) }
        } else if root.is(DAVProperty.dav, "sync-collection") {
            let token = root.child(DAVProperty.dav, "sync-token")?.text
            let limit = root.child(DAVProperty.dav, "limit")?.child(DAVProperty.dav, "nresults").flatMap { Int($0.text) }
            if let limit, limit < 1 {
                return Self.precondition(.forbidden, "<d:number-of-matches-within-limits/>", "DAV:nresults must be at least 1.")
            }
            let changes = try await calendars.changes(collection, after: token, limit: limit)
            for entry in changes.changed { add(entry) }
            for removed in changes.removed { status.add(href: CalDAVPath.item(client.me, name, removed), status: "404 Not Found") }
            if changes.truncated { status.add(href: CalDAVPath.collection(client.me, name), status: "507 Insufficient Storage") }
            status.syncToken = changes.token
        } else if root.is(DAVProperty.caldav, "free-busy-query") {
            return try await freeBusy(collection, root)
        } else {
            return Self.precondition(.forbidden, "<d:supported-report/>",
                                     "Hearth answers the reports calendar-query, calendar-multiget, sync-collection and free-busy-query, not \(root.name).")
        }
        return Self.multistatus(status)
    }

    /// free-busy-query (RFC 4791 7.10): the calendar's busy times in a range as a VFREEBUSY (events
    /// busy from start to end; tasks take no time).
    private func freeBusy(_ collection: CalendarCollection, _ root: DAVElement) async throws -> Response {
        guard let range = root.child(DAVProperty.caldav, "time-range"),
              let start = CalendarQueryFilter.time(range.attributes["start"]), let end = CalendarQueryFilter.time(range.attributes["end"]), start < end else {
            return Self.plain(.badRequest, "A free-busy-query needs a time-range with a start before its end, in UTC (like 20261201T000000Z).")
        }
        var ics = ICalendarWriter()
        ics.begin("VCALENDAR")
        ics.line("VERSION", raw: "2.0")
        ics.text("PRODID", "-//Hearth//CalDAV//EN")
        ics.begin("VFREEBUSY")
        ics.utc("DTSTAMP", Date())
        ics.utc("DTSTART", start)
        ics.utc("DTEND", end)
        if collection.kind == .event {
            let busy = try await calendars.entries(collection).compactMap { entry -> (Date, Date)? in
                guard let begins = entry.item.startsAt, let ends = entry.item.endsAt, ends > begins, begins < end, ends > start else { return nil }
                return (max(begins, start), min(ends, end))
            }.sorted { $0.0 < $1.0 }
            for (begins, ends) in busy {
                ics.line("FREEBUSY", raw: ICalendarWriter.utc(begins) + "/" + ICalendarWriter.utc(ends))
            }
        }
        ics.end("VFREEBUSY")
        ics.end("VCALENDAR")
        return Response(status: .ok, headers: [.contentType: "text/calendar; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: ics.output)))
    }

    /// principal-property-search (RFC 3744 9.4): the signed-in person's principal when every
    /// `property-search` matches it (case aside, a substring of its display name or email); other
    /// people's principals are not listed.
    private func principalSearch(_ root: DAVElement, client: Client) -> Response {
        let user = client.signedIn.user
        let matches = root.children(DAVProperty.dav, "property-search").allSatisfy { search in
            let text = search.child(DAVProperty.dav, "match")?.text ?? ""
            return text.isEmpty || [user.displayName, user.email].contains { $0.range(of: text, options: .caseInsensitive) != nil }
        }
        var status = DAVMultistatus()
        if matches {
            let principal = CalDAVPath.principal(client.me)
            status.add(href: principal, values: [
                .dav("displayname"): DAVMultistatus.escape(user.displayName),
                .dav("resourcetype"): "<d:collection/><d:principal/>",
                .caldav("calendar-home-set"): DAVMultistatus.href(CalDAVPath.home(client.me)),
                .caldav("calendar-user-address-set"): DAVMultistatus.href("mailto:" + user.email),
                .dav("principal-URL"): DAVMultistatus.href(principal),
            ], requested: Self.principalProperties(root))
        }
        return Self.multistatus(status)
    }

    /// The properties a principal-property-search asks for: its `prop`'s, or (as the caldav library
    /// sends them, after an empty `prop`) the elements beside it.
    static func principalProperties(_ root: DAVElement) -> PropfindRequest {
        if let prop = root.child(DAVProperty.dav, "prop"), !prop.children.isEmpty { return .names(prop.propertyNames) }
        let beside = root.children.filter { !$0.is(DAVProperty.dav, "prop") && !$0.is(DAVProperty.dav, "property-search")
            && !$0.is(DAVProperty.dav, "apply-to-principal-collection-set") }
        return beside.isEmpty ? .all : .names(beside.map { DAVProperty(namespace: $0.namespace, name: $0.name) })
    }

    /// The path of an href (an absolute URL's, or the href itself).
    static func path(of href: String) -> String {
        guard href.contains("://"), let url = URL(string: href) else { return href }
        return url.path(percentEncoded: true)
    }
}
