/// Strict UTF-8 decoding of one scalar, for the lexer's slow path (bytes ≥ 0x80).
enum UTF8Scalar {
    /// The scalar at `index` and its length in bytes, or nil when the bytes there are not
    /// well-formed UTF-8 (overlong forms, surrogates and values above U+10FFFF included).
    @inline(__always)
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (scalar: UInt32, length: Int)? {
        let count = bytes.count
        guard index < count else { return nil }
        let lead = UInt32(bytes[index])
        if lead < 0x80 { return (lead, 1) }
        @inline(__always) func continuation(_ offset: Int) -> UInt32? {
            guard index + offset < count else { return nil }
            let byte = UInt32(bytes[index + offset])
            return byte & 0xC0 == 0x80 ? byte & 0x3F : nil
        }
        if lead & 0xE0 == 0xC0 {
            guard lead >= 0xC2, let b1 = continuation(1) else { return nil }
            return ((lead & 0x1F) << 6 | b1, 2)
        }
        if lead & 0xF0 == 0xE0 {
            guard let b1 = continuation(1), let b2 = continuation(2) else { return nil }
            let scalar = (lead & 0x0F) << 12 | b1 << 6 | b2
            guard scalar >= 0x800, !(0xD800...0xDFFF).contains(scalar) else { return nil }
            return (scalar, 3)
        }
        if lead & 0xF8 == 0xF0 {
            guard let b1 = continuation(1), let b2 = continuation(2), let b3 = continuation(3) else { return nil }
            let scalar = (lead & 0x07) << 18 | b1 << 12 | b2 << 6 | b3
            guard scalar >= 0x10000, scalar <= 0x10FFFF else { return nil }
            return (scalar, 4)
        }
        return nil
    }

    /// Appends the UTF-8 encoding of a valid scalar.
    @inline(__always)
    static func append(_ scalar: UInt32, to buffer: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            buffer.append(UInt8(scalar))
        case 0x80..<0x800:
            buffer.append(UInt8(0xC0 | scalar >> 6))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            buffer.append(UInt8(0xE0 | scalar >> 12))
            buffer.append(UInt8(0x80 | (scalar >> 6) & 0x3F))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        default:
            buffer.append(UInt8(0xF0 | scalar >> 18))
            buffer.append(UInt8(0x80 | (scalar >> 12) & 0x3F))
            buffer.append(UInt8(0x80 | (scalar >> 6) & 0x3F))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
