import Foundation
import HearthCore
import Hummingbird

/// `GET /feeds/<token>.ics`: a private calendar feed as iCalendar, for calendar apps that
/// subscribe to it (the token is the permission). Its ETag lets them ask again cheaply
/// (`If-None-Match` → 304); an unknown or revoked token is 404.
struct CalendarFeedController<Context: RequestContext>: Sendable {
    let feeds: CalendarFeedService

    func addRoutes(to router: Router<Context>) {
        router.get("/feeds/:file") { request, context in
            let file = try context.parameters.require("file")
            guard file.hasSuffix(".ics"), file.utf8.count <= 100 else { return Self.missing }
            do {
                let feed = try await feeds.render(token: String(file.dropLast(4)))
                var headers: HTTPFields = [.eTag: feed.etag, .cacheControl: "private, no-cache"]
                if let asked = request.headers[.ifNoneMatch], asked.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == feed.etag || $0 == "*" }) {
                    return Response(status: .notModified, headers: headers)
                }
                headers[.contentType] = "text/calendar; charset=utf-8"
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: feed.body)))
            } catch let error as ServiceError where error.kind == .notFound {
                return Self.missing
            } catch {
                context.logger.error("calendar feed failed", metadata: ["error": "\(String(reflecting: error))"])
                return Response(status: .internalServerError, headers: [.contentType: "text/plain; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(string: "The calendar feed could not be made just now; try again later.\n")))
            }
        }
    }

    static var missing: Response {
        Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: "This calendar feed does not exist (any more): it was revoked, or the address is mistyped.\n")))
    }
}
