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
