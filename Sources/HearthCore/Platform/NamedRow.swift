import PostgresNIO

/// A result row read by column name: a SELECT list and its decoder name the same columns, so
/// reordering the list cannot shift fields. A name the statement does not return is an error
/// naming it (not a crash), and each cell decodes to the type the call site asks for.
///
/// Decoders mostly read columns in the list's order, so cells are taken from the row in turn (no
/// copy of the row, no lookup); only a column read out of order makes a random-access copy, once.
final class NamedRow {
    private let row: PostgresRow
    // A row is decoded by the one task that read it, so the runtime's exclusivity checks, paid on
    // every cell, are left out (as in the engine's Execution).
    @exclusivity(unchecked) private var cellsInOrder: PostgresRow.Iterator
    /// The next cell in the row's order, taken but not yet read.
    @exclusivity(unchecked) private var upcoming: PostgresCell?
    @exclusivity(unchecked) private var randomAccess: PostgresRandomAccessRow?

    init(_ row: PostgresRow) {
        self.row = row
        cellsInOrder = row.makeIterator()
    }

    /// The column `name` as `T`.
    func callAsFunction<T: PostgresDecodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        if upcoming == nil { upcoming = cellsInOrder.next() }
        if let cell = upcoming, cell.columnName == name {
            upcoming = nil
            return try cell.decode(T.self)
        }
        let cells = randomAccess ?? row.makeRandomAccess()
        randomAccess = cells
        guard cells.contains(name) else { throw MissingColumn(name: name) }
        return try cells[name].decode(T.self)
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
