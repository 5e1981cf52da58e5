import Testing

@testable import GraphQLEngine

@Suite("JSON writer")
struct JSONWriterTests {
    @Test("integers are written as JSON.stringify writes them, to the extremes")
    func integers() {
        let values = [0, 7, 9, 10, 42, 99, 100, -1, -9, -10, -12_345, 2_147_483_647, -2_147_483_648, Int.max, Int.min]
        for value in values {
            var writer = JSONWriter()
            writer.appendInt(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
        }
    }
}

@Suite("JSON chunk")
struct JSONChunkTests {
    /// What the writer alone writes for the same pieces.
    private func reference(_ pieces: [GraphQLValue]) -> String {
        var writer = JSONWriter()
        for piece in pieces { writer.appendValue(piece) }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private func chunked(_ pieces: [GraphQLValue], capacity: Int, after prefix: String = "") -> String {
        var writer = JSONWriter()
        writer.appendRaw(Array(prefix.utf8))
        JSONChunk.withChunk(into: &writer, capacity: capacity) { chunk in
            for piece in pieces {
                switch piece {
                case .null: chunk.appendNull()
                case .bool(let bool): chunk.appendBool(bool)
                case .int(let int): chunk.appendInt(int)
                case .float(let double): chunk.appendDouble(double)
                case .string(let string): chunk.appendString(string)
                case .list, .object: chunk.appendValue(piece)
                }
                chunk.append(44)
            }
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test("pieces written through a chunk are the writer's own bytes, whether they fit the chunk, cross its end or are larger than it")
    func sameBytes() {
        let long = String(repeating: "ab\"c\\\n\u{1}é😀", count: 40)
        let pieces: [GraphQLValue] = [
            .null, .bool(true), .bool(false), .int(0), .int(7), .int(-10), .int(Int.max), .int(Int.min), .float(1.5), .float(1e21),
            .string(""), .string("plain"), .string("quote \" backslash \\ tab \t nul \u{0} unit \u{1F}"), .string(long),
            .list([.int(1), .string("x")]), .object(["k": .string("v\n")]),
        ]
        // The writer escapes through a chunk too: its strings are checked against JSON.stringify's text.
        #expect(reference([.string("quote \" backslash \\ tab \t nul \u{0} unit \u{1F} é😀")])
            == #""quote \" backslash \\ tab \t nul \u0000 unit \u001f é😀""#)
        #expect(reference([.string(long)]) == "\"" + String(repeating: #"ab\"c\\\n\u0001é😀"#, count: 40) + "\"")
        let expected = pieces.map { reference([$0]) + "," }.joined()
        for capacity in [20, 21, 64, 1024] {
            #expect(chunked(pieces, capacity: capacity) == expected, "capacity \(capacity)")
            #expect(chunked(pieces, capacity: capacity, after: "{\"data\":") == "{\"data\":" + expected, "capacity \(capacity)")
        }
    }
}
