import Foundation
import HearthCore
import Hummingbird

extension CalDAVController {
    /// REPORT on a calendar: calendar-multiget (items by href), calendar-query (items matching a
    /// filter) or sync-collection (what changed since a token); any other report is 403 `DAV:supported-report`.
    func report(_ path: CalDAVPath, _ root: DAVElement, client: Client) async throws -> Response {
        guard case .collection(let name) = path else {
            return Self.precondition(.forbidden, "<d:supported-report/>", "Reports run on a calendar (a household's tasks or events).")
        }
        let collection = try await collection(name, client)
        let asked = PropfindRequest(root)
        let zone = TimeZone(identifier: collection.timeZone) ?? .gmt
        var status = DAVMultistatus()
        func add(_ entry: CalendarService.Entry) {
            status.add(href: CalDAVPath.item(client.me, name, entry.name), values: values(of: entry, in: collection, asked: asked), requested: asked)
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
            for entry in try await calendars.entries(collection) where filter.matches(entry, zone: zone) { add(entry) }
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
        } else {
            return Self.precondition(.forbidden, "<d:supported-report/>",
                                     "Hearth answers the reports calendar-query, calendar-multiget and sync-collection, not \(root.name).")
        }
        return Self.multistatus(status)
    }

    /// The path of an href (an absolute URL's, or the href itself).
    static func path(of href: String) -> String {
        guard href.contains("://"), let url = URL(string: href) else { return href }
        return url.path(percentEncoded: true)
    }
}
