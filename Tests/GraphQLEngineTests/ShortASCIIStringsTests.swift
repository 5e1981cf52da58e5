import Testing

@testable import GraphQLEngine

@Suite("Short ASCII strings")
struct ShortASCIIStringsTests {
    @Test("on this platform the strings of names are laid out directly, as the standard library lays them out")
    func layoutMatches() {
        #expect(ShortASCIIStrings().layoutMatches)
    }

    @Test("every length, anywhere in the source (near its end too), makes the string decoding makes")
    func sameStrings() {
        let text = "query_QUERY_0123456789_abcdefghijklmnopqrstuvwxyz_ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        let bytes = Array(text.utf8)
        let strings = ShortASCIIStrings()
        bytes.withUnsafeBufferPointer { buffer in
            for start in 0..<buffer.count {
                for end in start...min(buffer.count, start + 20) {
                    let expected = String(decoding: buffer[start..<end], as: UTF8.self)
                    let made = strings.string(buffer, from: start, to: end)
                    #expect(made == expected, "bytes \(start)..<\(end)")
                    #expect(made.hashValue == expected.hashValue, "bytes \(start)..<\(end)")
                    #expect(Array(made.utf8) == Array(bytes[start..<end]), "bytes \(start)..<\(end)")
                    #expect(made.count == end - start)
                }
            }
        }
    }

    @Test("a parsed name works as a dictionary key and joins other strings")
    func parsedNames() throws {
        let document = try Parser.parse("{ id averyveryverylongname x(a: 12345) }")
        guard case .operation(let operation) = try #require(document.definitions.first) else {
            Issue.record("not an operation")
            return
        }
        let names = operation.selectionSet.selections.compactMap { selection -> String? in
            if case .field(let field) = selection { return field.name.value }
            return nil
        }
        #expect(names == ["id", "averyveryverylongname", "x"])
        let table = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        #expect(table["id"] == 0 && table["x"] == 2)
        #expect(names.joined(separator: "+") + "!" == "id+averyveryverylongname+x!")
    }
}
