import HearthCore
import Testing

/// Digests as the database and the document cache store them: two lowercase digits a byte.
@Suite struct HexTests {
    @Test func everyByteIsTwoLowercaseDigits() {
        #expect([UInt8]().lowercaseHex == "")
        #expect([0x00, 0x0f, 0x10, 0xa5, 0xff].lowercaseHex == "000f10a5ff")
        let all = (0...255).map(UInt8.init).lowercaseHex
        #expect(all.count == 512)
        #expect(all == (0...255).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined())
    }
}
