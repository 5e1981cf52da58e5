import PostgresNIO

/// A result row read by column name: a SELECT list and its decoder name the same columns, so
/// reordering the list cannot shift fields. A name the statement does not return is an error
/// naming it (not a crash), and each cell decodes to the type the call site asks for.
///
/// Decoders mostly read columns in the list's order, so the cell after the last one read is
/// tried first (a string comparison); only a miss looks the name up.
final class NamedRow {
    private let cells: PostgresRandomAccessRow
    private var next = 0

    init(_ row: PostgresRow) {
        cells = row.makeRandomAccess()
    }

    /// The column `name` as `T`.
    func callAsFunction<T: PostgresDecodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        if next < cells.count {
            let cell = cells[next]
            if cell.columnName == name {
                next += 1
                return try cell.decode(T.self)
            }
        }
        guard cells.contains(name) else { throw MissingColumn(name: name) }
        let cell = cells[name]
        next = cell.columnIndex + 1
        return try cell.decode(T.self)
    }

    /// A column's text as the enum `T` whose raw values the column holds; a value `T` does not
    /// have is an ``UnknownValue`` naming both (a row written by a newer Hearth, or a bug), never a default.
    func callAsFunction<T: RawRepresentable<String>>(_ name: String, as type: T.Type = T.self) throws -> T {
        let text = try self(name, as: String.self)
        guard let value = T(rawValue: text) else { throw UnknownValue(column: name, value: text, type: "\(T.self)") }
        return value
    }

    /// A column holds a value its enum does not have.
    struct UnknownValue: Error, CustomStringConvertible {
        let column: String
        let value: String
        let type: String
        var description: String { "the column \(column) holds \"\(value)\", which is not a \(type)" }
    }

    /// A statement's SELECT list lacks a column its decoder reads: a programming mistake.
    struct MissingColumn: Error, CustomStringConvertible {
        let name: String
        var description: String { "the statement returns no column named \(name)" }
    }
}
