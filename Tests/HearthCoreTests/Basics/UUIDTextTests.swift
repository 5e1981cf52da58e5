import Foundation
import HearthCore
import Testing

/// The hand-written UUID text is Foundation's, lower-cased, and cursors still read back.
@Suite struct UUIDTextTests {
    @Test func lowercasedStringIsFoundationsTextLowercased() {
        for id in [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                   UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))]
            + (0..<1_000).map({ _ in UUID() }) {
            #expect(id.lowercasedString == id.uuidString.lowercased())
        }
    }

    @Test func cursorsAreURLSafeAndReadBack() throws {
        for microseconds in [Int64(0), 1, 1_795_000_000_123_456, -42] {
            let id = UUID()
            let cursor = Cursor.make(microseconds: microseconds, id: id)
            #expect(!cursor.contains("+") && !cursor.contains("/") && !cursor.contains("="), "\(cursor)")
            let page = try PageRequest(first: 10, after: cursor)
            let keyset = try #require(try page.afterKeyset())
            #expect(keyset.microseconds == microseconds && keyset.id == id)
        }
    }
}
