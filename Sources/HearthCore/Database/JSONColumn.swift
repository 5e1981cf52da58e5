import Foundation
import PostgresNIO

/// A `json`/`jsonb` cell's document as bytes, read in PostgreSQL's binary format (no `::text`
/// round trip): the type that owns the shape parses it, and a document it cannot read is an
/// error, never a silent default.
struct JSONColumn: PostgresDecodable, Sendable {
    /// The document's UTF-8 text.
    let data: Data

    init<JSONDecoder: PostgresJSONDecoder>(
        from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat, context: PostgresDecodingContext<JSONDecoder>
    ) throws {
        switch (format, type) {
        case (.binary, .jsonb):
            // A binary jsonb value is a version byte (1) and the document's text.
            guard buffer.readInteger(as: UInt8.self) == 1 else { throw PostgresDecodingError.Code.failure }
            data = Data(buffer.readableBytesView)
        case (.binary, .json), (.text, .json), (.text, .jsonb):
            data = Data(buffer.readableBytesView)
        default:
            throw PostgresDecodingError.Code.typeMismatch
        }
    }

    /// The document as `T`; a shape `T` does not have is a ``Malformed`` error naming the column.
    func decode<T: Decodable>(_ type: T.Type, column: String) throws -> T {
        // An empty list (most products' images when nobody selects them) needs no decoder.
        if data.count == 2, data.first == UInt8(ascii: "["), data.last == UInt8(ascii: "]"),
           let empty = (T.self as? any ExpressibleByArrayLiteral.Type).flatMap(Self.empty) as? T {
            return empty
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw Malformed(column: column, problem: "\(error)")
        }
    }

    private static func empty(_ type: any ExpressibleByArrayLiteral.Type) -> Any {
        func make<Literal: ExpressibleByArrayLiteral>(_: Literal.Type) -> Any {
            let empty: Literal = []
            return empty
        }
        return make(type)
    }

    /// A stored document that is not what its column holds: data written outside Hearth, or a bug.
    struct Malformed: Error, CustomStringConvertible {
        let column: String
        let problem: String
        var description: String { "the \(column) column holds JSON Hearth cannot read: \(problem)" }
    }
}
