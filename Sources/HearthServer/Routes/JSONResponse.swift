import Foundation
import Hummingbird

/// The small JSON answers of the routes outside GraphQL (`/readyz`, `/admin/health`, `/actions/…`):
/// sorted keys, unescaped slashes, times in the GraphQL `DateTime` format.
enum JSONResponse {
    static func json(_ status: HTTPResponse.Status, _ body: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// RFC 3339 with milliseconds, UTC (the GraphQL `DateTime` format).
    static func timestamp(_ date: Date) -> String { DateTimeScalar.string(from: date) }

    /// A refusal: `{"error": "<what was wrong>"}`.
    struct ErrorBody: Encodable {
        var error: String
    }
}
