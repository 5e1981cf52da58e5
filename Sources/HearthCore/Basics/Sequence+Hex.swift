extension Sequence where Element == UInt8 {
    /// The bytes as lowercase hex, two digits each (digests as the database stores them). Written
    /// into the string's own storage: two allocations (the bytes and the text), however many bytes.
    public var lowercaseHex: String {
        let bytes = Array(self)
        return String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            let digits: StaticString = "0123456789abcdef"
            for (index, byte) in bytes.enumerated() {
                buffer[2 * index] = digits.utf8Start[Int(byte >> 4)]
                buffer[2 * index + 1] = digits.utf8Start[Int(byte & 15)]
            }
            return bytes.count * 2
        }
    }
}
