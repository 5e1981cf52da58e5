extension Sequence where Element == UInt8 {
    /// The bytes as lowercase hex, two digits each (digests as the database stores them).
    public var lowercaseHex: String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }
}
