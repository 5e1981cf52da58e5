/// Parses JSON text (RFC 8259) into a ``GraphQLValue``: object keys keep their order, integers
/// without fraction or exponent that fit in `Int` stay integers, nesting is limited.
public struct JSONParser {
    /// A JSON syntax error with the byte offset where it was found.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var offset: Int
        public var description: String { "\(message) at byte \(offset)" }
    }

    public static func parse(_ text: String, maxDepth: Int = 256) throws(SyntaxError) -> GraphQLValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }

    public static func parse(_ bytes: [UInt8], maxDepth: Int = 256) throws(SyntaxError) -> GraphQLValue {
        let result: Result<GraphQLValue, SyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(SyntaxError) { return .success(try parse(buffer, maxDepth: maxDepth)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = 256) throws(SyntaxError) -> GraphQLValue {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.error("Unexpected data after the JSON value") }
        return value
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private var position = 0

    private init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    private func error(_ message: String) -> SyntaxError { SyntaxError(message: message, offset: position) }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func expectLiteral(_ literal: StaticString, _ value: GraphQLValue) throws(SyntaxError) -> GraphQLValue {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw error("Unexpected end of JSON input") }
        for offset in 0..<count where bytes[position + offset] != literal.utf8Start[offset] {
            throw error("Unexpected token in JSON")
        }
        position += count
        return value
    }

    private mutating func parseValue(depth: Int) throws(SyntaxError) -> GraphQLValue {
        guard let byte = current else { throw error("Unexpected end of JSON input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expectLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try expectLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try expectLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("Unexpected token '\(Character(Unicode.Scalar(byte)))' in JSON")
        }
    }

    private mutating func parseObject(depth: Int) throws(SyntaxError) -> GraphQLValue {
        guard depth <= maxDepth else { throw error("JSON nested deeper than \(maxDepth) levels") }
        position += 1
        var object = GraphQLObject()
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("Expected a string key in JSON object") }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("Expected ':' after a key in JSON object") }
            position += 1
            skipWhitespace()
            object[key] = try parseValue(depth: depth)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return .object(object)
            case nil: throw error("Unexpected end of JSON input")
            default: throw error("Expected ',' or '}' in JSON object")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(SyntaxError) -> GraphQLValue {
        guard depth <= maxDepth else { throw error("JSON nested deeper than \(maxDepth) levels") }
        position += 1
        var items: [GraphQLValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .list(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return .list(items)
            case nil: throw error("Unexpected end of JSON input")
            default: throw error("Expected ',' or ']' in JSON array")
            }
        }
    }

    private mutating func parseNumber() throws(SyntaxError) -> GraphQLValue {
        let start = position
        var isInteger = true
        if current == UInt8(ascii: "-") { position += 1 }
        guard let first = current, (48...57).contains(first) else { throw error("Invalid number in JSON") }
        position += 1
        if first != 48 { while let byte = current, (48...57).contains(byte) { position += 1 } }
        if current == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard let byte = current, (48...57).contains(byte) else { throw error("Invalid number in JSON") }
            while let byte = current, (48...57).contains(byte) { position += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard let byte = current, (48...57).contains(byte) else { throw error("Invalid number in JSON") }
            while let byte = current, (48...57).contains(byte) { position += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if isInteger, let int = Int(text) { return .int(int) }
        guard let double = Double(text) else { throw error("Invalid number in JSON") }
        return .float(double)
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        position += 1
        let start = position
        // Fast path: no escapes.
        while let byte = current, byte != 34, byte != 92 {
            guard byte >= 0x20 else { throw error("Control character in JSON string") }
            position += 1
        }
        guard let stop = current else { throw error("Unterminated string in JSON") }
        var result = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if stop == 34 {
            position += 1
            return result
        }
        var scalars = String.UnicodeScalarView()
        while true {
            guard let byte = current else { throw error("Unterminated string in JSON") }
            if byte == 34 {
                position += 1
                result.unicodeScalars.append(contentsOf: scalars)
                return result
            }
            if byte == 92 {
                position += 1
                guard let escape = current else { throw error("Unterminated string in JSON") }
                position += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{c}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), current == 92, position + 1 < bytes.count,
                        bytes[position + 1] == UInt8(ascii: "u")
                    {
                        let save = position
                        position += 2
                        let low = try hex4()
                        if (0xDC00..<0xE000).contains(low) {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            position = save
                        }
                    }
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default: throw error("Invalid escape in JSON string")
                }
                continue
            }
            guard byte >= 0x20 else { throw error("Control character in JSON string") }
            // Copy a run of plain bytes (valid UTF-8 from the source).
            let runStart = position
            while let next = current, next != 34, next != 92, next >= 0x20 { position += 1 }
            scalars.append(contentsOf: String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<position]), as: UTF8.self).unicodeScalars)
        }
    }

    private mutating func hex4() throws(SyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("Invalid unicode escape in JSON string") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case 48...57: digit = byte - 48
            case 65...70: digit = byte - 55
            case 97...102: digit = byte - 87
            default: throw error("Invalid unicode escape in JSON string")
            }
            code = code << 4 | UInt32(digit)
            position += 1
        }
        return code
    }
}
