import Foundation

/// Which slice of a list a client asked for: at most `first` items after the item whose cursor
/// is `after`. Cursors are opaque to clients; each list decides what they hold.
public struct PageRequest: Sendable, Hashable {
    public static let defaultSize = 20
    public static let maximumSize = 100

    public let first: Int
    public let after: String?
    /// Whether the list's total is wanted; when not, services skip counting and report 0.
    public let countsTotal: Bool
    /// Whether the items' cursors and the page's info are wanted; when not, pages carry empty
    /// cursors and `hasNextPage` is not looked for (nobody reads them).
    public let makesCursors: Bool

    /// The rows a list statement fetches: one more than `first` when the page says whether another
    /// follows (the extra row is that answer), else `first`.
    public var rowLimit: Int { makesCursors ? first + 1 : first }

    /// Checks `first` (1 to 100) and that `after` looks like a cursor; `field`s name what was wrong.
    public init(first: Int?, after: String?, countsTotal: Bool = true, makesCursors: Bool = true) throws(PageRequestError) {
        let first = first ?? Self.defaultSize
        guard (1...Self.maximumSize).contains(first) else {
            throw PageRequestError(field: "first", message: "first must be from 1 to \(Self.maximumSize); got \(first).")
        }
        if let after, after.isEmpty || after.utf8.count > 200 { throw Self.notACursor }
        self.first = first
        self.after = after
        self.countsTotal = countsTotal
        self.makesCursors = makesCursors
    }

    /// The time and id of an `after` made by ``Cursor/make(microseconds:id:)``; nil without one.
    public func afterKeyset() throws(PageRequestError) -> (microseconds: Int64, id: UUID)? {
        guard let parts = try afterParts(count: 2) else { return nil }
        guard let micros = Int64(parts[0]), let id = UUID(uuidString: parts[1]) else { throw Self.notACursor }
        return (micros, id)
    }

    /// The integer of an `after` made by ``Cursor/make(_:)`` from one integer; nil without one.
    public func afterInteger() throws(PageRequestError) -> Int64? {
        guard let parts = try afterParts(count: 1) else { return nil }
        guard let value = Int64(parts[0]) else { throw Self.notACursor }
        return value
    }

    private func afterParts(count: Int) throws(PageRequestError) -> [String]? {
        guard let after else { return nil }
        guard let parts = Cursor.parts(after), parts.count == count else { throw Self.notACursor }
        return parts
    }

    private static let notACursor = PageRequestError(field: "after", message: "after is not a cursor from this list.")
}

/// A refused page request (the API answers `BAD_USER_INPUT` naming the field).
public struct PageRequestError: Error, Sendable, Equatable {
    public let field: String
    public let message: String
}

/// One page of a list: items with their cursors, whether more follow, and the list's size.
public struct Page<Item: Sendable>: Sendable {
    public var items: [(cursor: String, item: Item)]
    public var hasNextPage: Bool
    public var totalCount: Int

    public init(items: [(cursor: String, item: Item)], hasNextPage: Bool, totalCount: Int) {
        self.items = items
        self.hasNextPage = hasNextPage
        self.totalCount = totalCount
    }

    public static var empty: Page { Page(items: [], hasNextPage: false, totalCount: 0) }

    /// A page from rows fetched with `LIMIT rowLimit` (an extra row only says another page
    /// follows): each row gives its cursor and its item.
    public init<Row>(rows: [Row], request: PageRequest, totalCount: Int, cursor: (Row) -> String, item: (Row) -> Item) {
        self.items = rows.prefix(request.first).map { (request.makesCursors ? cursor($0) : "", item($0)) }
        self.hasNextPage = rows.count > request.first
        self.totalCount = totalCount
    }

    /// The pages of several parents from the rows of one batched statement (each parent's rows in
    /// the order they came, each fetched with `LIMIT rowLimit`); a parent without rows gets an empty page.
    public static func grouped<Row>(
        _ rows: [Row], by parent: (Row) -> UUID, parents: [UUID], request: PageRequest, totals: [UUID: Int],
        cursor: (Row) -> String, item: (Row) -> Item
    ) -> [UUID: Page] {
        let byParent = Dictionary(grouping: rows, by: parent)
        var pages: [UUID: Page] = [:]
        for id in parents {
            pages[id] = Page(rows: byParent[id] ?? [], request: request, totalCount: totals[id] ?? 0, cursor: cursor, item: item)
        }
        return pages
    }
}

/// Opaque cursors: URL-safe base64 of their parts joined by a separator no part holds.
public enum Cursor {
    public static func make(_ parts: [String]) -> String {
        // Standard base64 made URL-safe byte by byte: `+` → `-`, `/` → `_`, no `=` padding.
        var safe: [UInt8] = []
        for byte in Data(parts.joined(separator: "\u{1F}").utf8).base64EncodedString().utf8 {
            switch byte {
            case 0x2B: safe.append(0x2D)
            case 0x2F: safe.append(0x5F)
            case 0x3D: continue
            default: safe.append(byte)
            }
        }
        return String(decoding: safe, as: UTF8.self)
    }

    static func parts(_ cursor: String) -> [String]? {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8) else { return nil }
        return text.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
    }

    /// A time in microseconds since 1970 (as PostgreSQL stores it, read exactly with
    /// ``microsecondsSQL(_:)``) and an id: the usual keyset for lists ordered by time, read back
    /// by ``PageRequest/afterKeyset()``.
    public static func make(microseconds: Int64, id: UUID) -> String {
        make([String(microseconds), id.lowercasedString])
    }

    /// SQL reading a `timestamptz` column as exact microseconds since 1970.
    public static func microsecondsSQL(_ column: String) -> String {
        "(extract(epoch FROM \(column)) * 1000000)::bigint"
    }
}

extension SQLPiece {
    /// A `timestamptz` from exact microseconds since 1970, as cursors and `since` filters hold them.
    static func timestamp(microseconds: Int64) -> [SQLPiece] {
        [.sql("('epoch'::timestamptz + "), .bind(.integer(microseconds)), .sql(" * interval '1 microsecond')")]
    }

    /// A `timestamptz` bound to the microsecond.
    static func timestamp(_ date: Date) -> [SQLPiece] {
        timestamp(microseconds: Int64((date.timeIntervalSince1970 * 1e6).rounded()))
    }
}

extension SQLCondition {
    /// `(columns) comparison (values)`: the rows after a page's last one in a keyset order.
    static func row(_ columns: String, _ comparison: String, _ values: [[SQLPiece]]) -> SQLCondition {
        .predicate([.sql("(\(columns)) \(comparison) (")] + Array(values.joined(separator: [.sql(", ")])) + [.sql(")")])
    }

    /// `(time, id) > after` (`<` for a newest-first list) for lists ordered by a time and an id;
    /// true on the first page.
    static func keyset(after: (microseconds: Int64, id: UUID)?, time: String, id: String, descending: Bool = false) -> SQLCondition {
        guard let after else { return .alwaysTrue }
        return row("\(time), \(id)", descending ? "<" : ">", [SQLPiece.timestamp(microseconds: after.microseconds), [.bind(.uuid(after.id))]])
    }
}
