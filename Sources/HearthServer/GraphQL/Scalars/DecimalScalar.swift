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

    static func normalized(_ text: String) -> String? {
        var bytes = Substring(text).utf8[...]
        if bytes.first == 0x2D { bytes = bytes.dropFirst() }
        let integer = bytes.prefix { (0x30...0x39).contains($0) }
        guard !integer.isEmpty else { return nil }
        var rest = bytes.dropFirst(integer.count)
        var digits = integer.count
        if rest.first == 0x2E {
            rest = rest.dropFirst()
            let fraction = rest.prefix { (0x30...0x39).contains($0) }
            guard !fraction.isEmpty else { return nil }
            digits += fraction.count
            rest = rest.dropFirst(fraction.count)
        }
        guard rest.isEmpty, digits <= maximumDigits else { return nil }
        return text
    }

    public func serialize(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue {
        if case .int(let int) = value { return .string(String(int)) }
        return try Self.check(value)
    }
}
