import GraphQLEngine

/// A custom scalar carried as a JSON string in a checked form (a date-time, a UUID, a decimal, a
/// URL): literals, variables and results are accepted when ``normalized(_:)`` accepts them, and
/// refused with a message that says what was expected.
protocol StringScalar: ScalarCoercing {
    /// The scalar's name in the schema.
    static var name: String { get }
    /// What a valid value looks like, for messages ("an RFC 3339 date-time with a UTC offset, such as …").
    static var expectation: String { get }
    /// The value in its canonical form, or nil when `text` is not a valid value.
    static func normalized(_ text: String) -> String?
}

extension StringScalar {
    /// The longest text any of these scalars accepts; longer input is refused before parsing.
    static var maximumLength: Int { 2048 }

    static func check(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue {
        guard case .string(let text) = value, text.utf8.count <= maximumLength, let canonical = normalized(text) else {
            throw CoercionError("\(name) cannot represent \(value.inspected): expected \(expectation).")
        }
        return .string(canonical)
    }

    public func literalError(_ literal: Value) -> String? {
        guard case .string(let node) = literal else {
            return "Expected value of type \"\(Self.name)\", found \(Printer.print(literal)); expected \(Self.expectation)."
        }
        do {
            _ = try Self.check(.string(node.value))
            return nil
        } catch {
            return "Expected value of type \"\(Self.name)\", found \(Printer.print(literal)); \(error.message)"
        }
    }

    public func parseLiteral(_ literal: Value, variables: GraphQLObject?) throws(CoercionError) -> GraphQLValue {
        guard case .string(let node) = literal else {
            throw CoercionError("\(Self.name) cannot represent \(Printer.print(literal)): expected \(Self.expectation).")
        }
        return try Self.check(.string(node.value))
    }

    public func parseValue(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue { try Self.check(value) }

    public func serialize(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue { try Self.check(value) }
}
