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
        // Digits written backwards into a 20-byte stack buffer (Int.min has 19 digits and a sign).
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = 48 + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                digits[start] = 45
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }

    /// A double as JavaScript prints it; non-finite numbers become `null`, as `JSON.stringify` does.
    public mutating func appendDouble(_ value: Double) {
        guard value.isFinite else { return appendNull() }
        bytes.append(contentsOf: JavaScriptNumber.string(value).utf8)
    }

    /// A string in double quotes with JSON escapes.
    public mutating func appendString(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            bytes.append(34)
            var start = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                if byte >= 0x20 && byte != 34 && byte != 92 { continue }
                if start < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index])) }
                start = index + 1
                bytes.append(92)
                switch byte {
                case 34: bytes.append(34)
                case 92: bytes.append(92)
                case 8: bytes.append(UInt8(ascii: "b"))
                case 12: bytes.append(UInt8(ascii: "f"))
                case 10: bytes.append(UInt8(ascii: "n"))
                case 13: bytes.append(UInt8(ascii: "r"))
                case 9: bytes.append(UInt8(ascii: "t"))
                default:
                    bytes.append(contentsOf: [UInt8(ascii: "u"), 48, 48, Self.hexDigit(byte >> 4), Self.hexDigit(byte & 15)])
                }
            }
            if start < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...])) }
            bytes.append(34)
        }
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
