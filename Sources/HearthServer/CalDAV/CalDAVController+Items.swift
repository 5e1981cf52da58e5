import Foundation
import HearthCore
import HTTPTypes
import Hummingbird

extension CalDAVController {
    /// GET or HEAD of an item: its iCalendar, with its ETag.
    func get(_ path: CalDAVPath, client: Client, head: Bool) async throws -> Response {
        guard case .item(let name, let item) = path else {
            return Self.plain(.notFound, "Only a calendar's items can be fetched with GET; list a calendar with PROPFIND.")
        }
        let collection = try await collection(name, client)
        guard let entry = try await calendars.entries(collection, names: [item]).first else {
            return Self.plain(.notFound, "No item \(item) in this calendar; it may have been deleted.")
        }
        let body = entry.iCalendar(in: TimeZone(identifier: collection.timeZone) ?? .gmt)
        return Response(status: .ok, headers: [.contentType: "text/calendar; charset=utf-8", .eTag: entry.etag,
                                               .contentLength: String(body.utf8.count)],
                        body: head ? .init() : .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// PUT of an item: `If-None-Match: *` creates only, `If-Match` updates only that version (412 otherwise).
    func put(_ path: CalDAVPath, body: Data, request: Request, client: Client) async throws -> Response {
        guard case .item(let name, let item) = path else {
            return Self.plain(.methodNotAllowed, "Items are put into a calendar: /dav/calendars/<you>/<calendar>/<name>.ics.")
        }
        let collection = try await writableCollection(name, client)
        guard let text = String(data: body, encoding: .utf8) else {
            return Self.precondition(.badRequest, "<c:valid-calendar-data/>", "The item is not UTF-8 text.")
        }
        let stored = try await calendars.put(client.caller, collection, name: item, body: text, ifMatch: request.headers[.ifMatch],
                                             ifNoneMatch: request.headers[.ifNoneMatch] == "*")
        return Response(status: stored.created ? .created : .noContent, headers: [.eTag: stored.etag])
    }

    /// DELETE of an item (admins and owners, as in the API); with `If-Match`, only that version.
    func delete(_ path: CalDAVPath, request: Request, client: Client) async throws -> Response {
        guard case .item(let name, let item) = path else {
            return Self.plain(.methodNotAllowed, "Only a calendar's items can be deleted; a calendar is a household's and goes with it.")
        }
        let collection = try await writableCollection(name, client)
        try await calendars.delete(client.caller, collection, name: item, ifMatch: request.headers[.ifMatch])
        return Response(status: .noContent)
    }
}
