import PostgresNIO

/// One SELECT's row as a Swift value, read from ``RowCells`` in the statement's order.
protocol TypedRow: Sendable {
    /// Reads the row's columns, each by its name, in the SELECT list's order.
    init(_ row: inout RowCells) throws
}

/// A result row's cells read in turn, each read naming the column it expects: a SELECT list and
/// its decoder that drift apart fail on the first row (``Mismatch``, naming both), and nothing is
/// decoded by position alone. A read is one step of the row's iterator (each cell's length is read
/// once) and a decode specialised for the type asked for: no lookup, no copy of the row.
struct RowCells {
    private var cells: PostgresRow.Iterator
    /// Whether each read compares its name with the column's. The rows of one result share their
    /// columns, so the readers of a whole result check its first row only.
    private let checksNames: Bool

    init(_ row: PostgresRow, checkingNames: Bool = true) {
        cells = row.makeIterator()
        checksNames = checkingNames
    }

    /// The next cell, which must be the column `name`, as `T`.
    @inline(__always)
    mutating func callAsFunction<T: PostgresDecodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        guard let cell = cells.next() else { throw Mismatch(expected: name, found: nil) }
        guard !checksNames || cell.columnName == name else { throw Mismatch(expected: name, found: cell.columnName) }
        return try cell.decode(T.self, context: .default)
    }

    /// Throws ``Mismatch`` unless every column was read (a statement returning more than its
    /// decoder reads is as wrong as one returning less).
    mutating func end() throws {
        if let cell = cells.next() { throw Mismatch(expected: nil, found: cell.columnName) }
    }

    /// A decoder read a column the statement does not return at that place: a programming mistake.
    struct Mismatch: Error, CustomStringConvertible {
        let expected: String?
        let found: String?
        var description: String {
            switch (expected, found) {
            case (let expected?, let found?): "the row's next column is \(found), but its decoder reads \(expected) there"
            case (let expected?, nil): "the row has no more columns, but its decoder reads \(expected)"
            case (nil, let found?): "the row has a column \(found) that its decoder does not read"
            case (nil, nil): "the row does not match its decoder"
            }
        }
    }
}

extension AsyncSequence where Element == PostgresRow {
    /// Every row as `Row`.
    func rows<Row: TypedRow>(as type: Row.Type) async throws -> [Row] {
        try await decoded { try Row(&$0) }
    }

    /// Every row as `Row` followed by one more column, `name` (what a statement adds to a shared
    /// SELECT list: a lock's field versions, a page's sort key), read as `Extra`.
    func rows<Row: TypedRow, Extra: PostgresDecodable>(
        as type: Row.Type, then name: String, _ extra: Extra.Type
    ) async throws -> [(row: Row, extra: Extra)] {
        try await decoded { (try Row(&$0), try $0(name, as: Extra.self)) }
    }

    /// Every row as the columns named, each read as its type: for a statement of a few columns
    /// whose values are used where they are read (`for (id, name) in try await rows.columns(("id",
    /// UUID.self), ("name", String.self))`). Each name is checked as a ``TypedRow``'s are.
    func columns<each Value: PostgresDecodable>(_ column: repeat (String, (each Value).Type)) async throws -> [(repeat each Value)] {
        try await decoded { cells in (repeat try cells((each column).0, as: (each column).1)) }
    }

    /// The first row's columns, as ``columns(_:)`` reads them; nil when there is none.
    func firstColumns<each Value: PostgresDecodable>(_ column: repeat (String, (each Value).Type)) async throws -> (repeat each Value)? {
        try await columns(repeat each column).first
    }

    /// Every row read by `read`, which must read all its columns. The rows of one result share
    /// their columns, so only the first one's names are checked.
    private func decoded<Value>(_ read: (inout RowCells) throws -> Value) async throws -> [Value] {
        var values: [Value] = []
        for try await row in self {
            var cells = RowCells(row, checkingNames: values.isEmpty)
            values.append(try read(&cells))
            try cells.end()
        }
        return values
    }
}

/// An enum stored as its raw text: a typed row reads it as the enum, and a value the enum does not
/// have fails the row (a `PostgresDecodingError` naming the column and the bytes), never a default.
protocol TextColumn: RawRepresentable<String>, PostgresDecodable {}

extension TextColumn {
    public init<JSONDecoder: PostgresJSONDecoder>(
        from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat, context: PostgresDecodingContext<JSONDecoder>
    ) throws {
        guard let value = Self(rawValue: try String(from: &buffer, type: type, format: format, context: context)) else {
            throw PostgresDecodingError.Code.failure
        }
        self = value
    }
}
