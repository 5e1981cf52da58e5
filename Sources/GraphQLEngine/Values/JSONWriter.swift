/// Writes JSON into one growable byte buffer, the way `JSON.stringify` writes it: no spaces,
/// JavaScript number formatting, and a fast path for strings that need no escaping.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    @inline(__always) public mutating func append(_ byte: UInt8) { bytes.append(byte) }

    @inline(__always) public mutating func appendASCII(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func appendNull() { appendASCII("null") }
    public mutating func appendBool(_ value: Bool) { value ? appendASCII("true") : appendASCII("false") }

    public mutating func appendInt(_ value: Int) {
        if value >= 0 && value < 10 {
            bytes.append(48 + UInt8(value))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maxIntLength) { digits in
            guard let target = digits.baseAddress else { return }
            bytes.append(contentsOf: UnsafeBufferPointer(start: target, count: Self.writeInt(value, to: target)))
        }
    }

    /// The most bytes an Int takes (Int.min has 19 digits and a sign).
    static let maxIntLength = 20

    /// Writes `value`'s digits (and sign) at `target`, which has room for ``maxIntLength`` bytes;
    /// returns how many it wrote.
    @inline(__always)
    static func writeInt(_ value: Int, to target: UnsafeMutablePointer<UInt8>) -> Int {
        var magnitude = value.magnitude
        var length = value < 0 ? 1 : 0
        var rest = magnitude / 10
        length += 1
        while rest > 0 {
            length += 1
            rest /= 10
        }
        if value < 0 { target[0] = 45 }
        var position = length
        repeat {
            position -= 1
            target[position] = 48 + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        return length
    }

    /// A double as JavaScript prints it; non-finite numbers become `null`, as `JSON.stringify` does.
    public mutating func appendDouble(_ value: Double) {
        guard value.isFinite else { return appendNull() }
        bytes.append(contentsOf: JavaScriptNumber.string(value).utf8)
    }

    /// `utf8` with JSON escapes (no quotes), written at `target`, which has room for six bytes for
    /// each byte of `utf8` (the longest escape, `\u001F`); returns how many it wrote.
    static func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>) -> Int {
        var written = 0
        for byte in utf8 {
            if byte >= 0x20 && byte != 34 && byte != 92 {
                target[written] = byte
                written += 1
            } else {
                written += writeEscape(byte, to: target + written)
            }
        }
        return written
    }

    /// The JSON escape of a byte that needs one (a quote, a backslash, a control character),
    /// written at `target` (room for six bytes); returns its length.
    @inline(__always)
    private static func writeEscape(_ byte: UInt8, to target: UnsafeMutablePointer<UInt8>) -> Int {
        target[0] = 92
        switch byte {
        case 34: target[1] = 34
        case 92: target[1] = 92
        case 8: target[1] = UInt8(ascii: "b")
        case 12: target[1] = UInt8(ascii: "f")
        case 10: target[1] = UInt8(ascii: "n")
        case 13: target[1] = UInt8(ascii: "r")
        case 9: target[1] = UInt8(ascii: "t")
        default:
            target[1] = UInt8(ascii: "u")
            target[2] = 48
            target[3] = 48
            target[4] = hexDigit(byte >> 4)
            target[5] = hexDigit(byte & 15)
            return 6
        }
        return 2
    }

    /// A string in double quotes with JSON escapes (escaped in a stack chunk, see ``JSONChunk``).
    public mutating func appendString(_ string: String) {
        JSONChunk.withChunk(into: &self) { $0.appendString(string) }
    }

    @inline(__always) private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 48 + value : 87 + value }

    /// Raw bytes that are already JSON.
    public mutating func appendRaw(_ json: some Sequence<UInt8>) { bytes.append(contentsOf: json) }

    public mutating func appendValue(_ value: GraphQLValue) {
        switch value {
        case .null: appendNull()
        case .bool(let bool): appendBool(bool)
        case .int(let int): appendInt(int)
        case .float(let double): appendDouble(double)
        case .string(let string): appendString(string)
        case .list(let items):
            append(91)
            for (index, item) in items.enumerated() {
                if index > 0 { append(44) }
                appendValue(item)
            }
            append(93)
        case .object(let object):
            append(123)
            for (index, entry) in object.entries.enumerated() {
                if index > 0 { append(44) }
                appendString(entry.key)
                append(58)
                appendValue(entry.value)
            }
            append(125)
        }
    }

    /// The JSON text of `string` (quoted and escaped) appended to a `String`.
    static func appendQuoted(_ string: String, to output: inout String) {
        var writer = JSONWriter(capacity: string.utf8.count + 2)
        writer.appendString(string)
        output += String(decoding: writer.bytes, as: UTF8.self)
    }
}

extension GraphQLValue {
    /// The value as compact JSON text.
    public var json: String {
        var writer = JSONWriter()
        writer.appendValue(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
