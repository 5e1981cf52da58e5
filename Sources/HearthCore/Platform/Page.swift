import Foundation

/// Which slice of a list a client asked for: at most `first` items after the item whose cursor
/// is `after`. Cursors are opaque to clients; each list decides what they hold.
public struct PageRequest: Sendable, Equatable {
    public static let defaultSize = 20
    public static let maximumSize = 100

    public let first: Int
    public let after: String?

    /// Checks `first` (1 to 100) and that `after` looks like a cursor; `field`s name what was wrong.
    public init(first: Int?, after: String?) throws(PageRequestError) {
        let first = first ?? Self.defaultSize
        guard (1...Self.maximumSize).contains(first) else {
            throw PageRequestError(field: "first", message: "first must be from 1 to \(Self.maximumSize); got \(first).")
        }
        if let after, after.isEmpty || after.utf8.count > 200 {
            throw PageRequestError(field: "after", message: "after is not a cursor from this list.")
        }
        self.first = first
        self.after = after
    }

    /// The cursor's parts, as made by ``Cursor/make(_:)``; nil when there is no cursor.
    public func afterParts(count: Int) throws(PageRequestError) -> [String]? {
        guard let after else { return nil }
        guard let parts = Cursor.parts(after), parts.count == count else {
            throw PageRequestError(field: "after", message: "after is not a cursor from this list.")
        }
        return parts
    }
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

    /// A page from rows fetched with `LIMIT first + 1`: the extra row only says another page follows.
    public init(rows: [Item], request: PageRequest, totalCount: Int, cursor: (Item) -> String) {
        self.items = rows.prefix(request.first).map { (cursor($0), $0) }
        self.hasNextPage = rows.count > request.first
        self.totalCount = totalCount
    }
}

/// Opaque cursors: URL-safe base64 of their parts joined by a separator no part holds.
public enum Cursor {
    public static func make(_ parts: [String]) -> String {
        Data(parts.joined(separator: "\u{1F}").utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func parts(_ cursor: String) -> [String]? {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8) else { return nil }
        return text.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
    }

    /// A time in microseconds since 1970 (as PostgreSQL stores it, read exactly with
    /// ``microsecondsSQL(_:)``) and an id: the usual keyset for lists ordered by time.
    public static func make(microseconds: Int64, id: UUID) -> String {
        make([String(microseconds), id.uuidString.lowercased()])
    }

    /// The microseconds and id of a cursor made by ``make(microseconds:id:)``.
    public static func microsecondsAndID(_ parts: [String]) -> (Int64, UUID)? {
        guard parts.count == 2, let micros = Int64(parts[0]), let id = UUID(uuidString: parts[1]) else { return nil }
        return (micros, id)
    }

    /// SQL reading a `timestamptz` column as exact microseconds since 1970.
    public static func microsecondsSQL(_ column: String) -> String {
        "(extract(epoch FROM \(column)) * 1000000)::bigint"
    }
}
