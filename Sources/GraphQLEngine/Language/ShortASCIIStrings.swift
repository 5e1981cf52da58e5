/// Makes the Strings of names and numbers, whose bytes the lexer has already checked to be ASCII,
/// without `String(decoding:as:)`'s second pass over them: it checks the bytes are UTF-8, then
/// whether they are ASCII, then copies them one at a time, which was a sixth of a parse of the
/// introspection query. Most names are up to fifteen bytes, which a String holds in its own two
/// words; those words are laid out here directly.
///
/// That layout is the standard library's, not a promised API: it is compared once per process,
/// bit for bit, with what `String(decoding:as:)` makes for every length from 1 to 15
/// (``layoutMatches``), and where it differs every name takes the decoding path.
struct ShortASCIIStrings {
    /// Whether the layout made here is the one the standard library makes, for every short length.
    let layoutMatches: Bool

    init() {
        layoutMatches = Self.sharedLayoutMatches
    }

    /// Compared once per process (a lazily initialised constant).
    private static let sharedLayoutMatches: Bool = {
        guard MemoryLayout<String>.size == 16, MemoryLayout<String>.alignment == 8 else { return false }
        let sample = Array("Az_09azQWERTYUI".utf8)
        return sample.withUnsafeBufferPointer { bytes in
            (1...15).allSatisfy { count in
                let expected = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<count]), as: UTF8.self)
                let made = unsafeBitCast(words(bytes, from: 0, count: count), to: String.self)
                return unsafeBitCast(expected, to: (UInt64, UInt64).self) == unsafeBitCast(made, to: (UInt64, UInt64).self)
                    && made == expected && made.utf8.elementsEqual(bytes[0..<count])
            }
        }
    }()

    /// The String of `bytes[start..<end]`, which must all be ASCII.
    @inline(__always)
    func string(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> String {
        let count = end - start
        if layoutMatches && count > 0 && count <= 15 {
            return unsafeBitCast(Self.words(bytes, from: start, count: count), to: String.self)
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// A short ASCII string's two words: its bytes in order from the lowest byte of the first word,
    /// zeros after them, and in the top byte of the second word the flags (immortal, ASCII, small)
    /// and the count.
    @inline(__always)
    private static func words(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, count: Int) -> (UInt64, UInt64) {
        var low: UInt64 = 0
        var high: UInt64 = 0
        if let base = bytes.baseAddress, start + 16 <= bytes.count {
            // Two whole words are in bounds: load them and clear the bytes past the string.
            let raw = UnsafeRawPointer(base + start)
            low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            if count < 8 {
                low &= (1 &<< UInt64(count &* 8)) &- 1
                high = 0
            } else {
                high &= (1 &<< UInt64((count &- 8) &* 8)) &- 1
            }
        } else {
            for offset in 0..<count {
                let byte = UInt64(bytes[start + offset])
                if offset < 8 {
                    low |= byte &<< UInt64(offset &* 8)
                } else {
                    high |= byte &<< UInt64((offset &- 8) &* 8)
                }
            }
        }
        high |= UInt64(0xE0 | count) &<< 56
        return (low, high)
    }
}
