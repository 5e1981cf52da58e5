import GraphQLEngine

/// `Decimal`: an exact decimal number written as a string, such as `"29.99"` or `"-0.5"`. Never a
/// JSON number: prices must not pass through binary floating point. Integers are accepted from
/// resolvers (they are exact) and sent as strings.
public struct DecimalScalar: StringScalar {
    static let name = "Decimal"
    static let expectation = "a decimal number written as a string, such as \"29.99\""
    /// Digits allowed in all: enough for any amount of money, bounded for input.
    static let maximumDigits = 40

    public init() {}

    /// `text` when it is an optional minus, digits, and optionally a point and digits (at most
    /// ``maximumDigits`` digits in all); else nil. One pass over the bytes.
    static func normalized(_ text: String) -> String? {
        var (integerDigits, fractionDigits, sawPoint) = (0, 0, false)
        for (offset, byte) in text.utf8.enumerated() {
            switch byte {
            case 0x30...0x39:
                if sawPoint { fractionDigits += 1 } else { integerDigits += 1 }
            case 0x2D where offset == 0:
                continue
            case 0x2E where !sawPoint && integerDigits > 0:
                sawPoint = true
            default:
                return nil
            }
        }
        guard integerDigits > 0, !sawPoint || fractionDigits > 0, integerDigits + fractionDigits <= maximumDigits else { return nil }
        return text
    }

    public func serialize(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue {
        if case .int(let int) = value { return .string(String(int)) }
        return try Self.check(value)
    }
}
