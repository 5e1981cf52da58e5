/// How a scalar type treats the values written for it: literals in documents (validation and
/// arguments), variable values from JSON (`parseValue`) and resolver results (`serialize`).
///
/// The hooks throw a ``CoercionError`` whose message the engine places in its own error, as
/// graphql-js does (`Variable "$x" got invalid value 1.5; Int cannot represent …`).
public protocol ScalarCoercing: Sendable {
    /// `nil` when `literal` (a value without variables) is acceptable, else the message to report.
    func literalError(_ literal: Value) -> String?
    /// The internal value of a literal; variables inside it are read from `variables`.
    func parseLiteral(_ literal: Value, variables: GraphQLObject?) throws(CoercionError) -> GraphQLValue
    /// The internal value of a variable's JSON value.
    func parseValue(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue
    /// The JSON value of a resolver's result.
    func serialize(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue
}

/// Why a scalar hook refused a value; the message is shown to clients.
public struct CoercionError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

extension ScalarCoercing {
    public func literalError(_ literal: Value) -> String? { nil }
    /// Custom scalars: the literal as plain data (graphql-js's `valueFromASTUntyped`).
    public func parseLiteral(_ literal: Value, variables: GraphQLObject?) throws(CoercionError) -> GraphQLValue {
        guard let value = InputCoercion.untypedValue(literal, variables: variables) else {
            throw CoercionError("Missing variable in \(Printer.print(literal))")
        }
        return value
    }
    public func parseValue(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue { value }
    public func serialize(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue { value }
}

/// A scalar defined in SDL without hooks: any value is accepted and passed through, as graphql-js does.
public struct CustomScalarCoercion: ScalarCoercing {
    public init() {}
}

/// `Int`: a signed 32-bit integer.
public struct IntCoercion: ScalarCoercing {
    public func literalError(_ literal: Value) -> String? {
        guard case .int(let int) = literal else {
            return "Int cannot represent non-integer value: \(Printer.print(literal))"
        }
        if Int32(int.value) == nil {
            return "Int cannot represent non 32-bit signed integer value: \(int.value)"
        }
        return nil
    }
}

/// `Float`: a double; integer literals are accepted.
public struct FloatCoercion: ScalarCoercing {
    public func literalError(_ literal: Value) -> String? {
        switch literal {
        case .int, .float: nil
        default: "Float cannot represent non numeric value: \(Printer.print(literal))"
        }
    }
}

/// `String`.
public struct StringCoercion: ScalarCoercing {
    public init() {}

    public func literalError(_ literal: Value) -> String? {
        if case .string = literal { return nil }
        return "String cannot represent a non string value: \(Printer.print(literal))"
    }
}

/// `Boolean`.
public struct BooleanCoercion: ScalarCoercing {
    public func literalError(_ literal: Value) -> String? {
        if case .boolean = literal { return nil }
        return "Boolean cannot represent a non boolean value: \(Printer.print(literal))"
    }
}

/// `ID`: a string or an integer literal.
public struct IDCoercion: ScalarCoercing {
    public func literalError(_ literal: Value) -> String? {
        switch literal {
        case .string, .int: nil
        default: "ID cannot represent a non-string and non-integer value: \(Printer.print(literal))"
        }
    }
}

// MARK: - Input and result coercion of the specified scalars (graphql-js's rules and messages)

extension IntCoercion {
    public func parseLiteral(_ literal: Value, variables: GraphQLObject?) throws(CoercionError) -> GraphQLValue {
        if let message = literalError(literal) { throw CoercionError(message) }
        guard case .int(let int) = literal, let value = Int(int.value) else { throw CoercionError("Int cannot represent non-integer value: \(Printer.print(literal))") }
        return .int(value)
    }

    public func parseValue(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue {
        guard let integer = value.integer else {
            if let number = value.number, number.isFinite, number == number.rounded(.towardZero) {
                throw CoercionError("Int cannot represent non 32-bit signed integer value: \(JavaScriptNumber.string(number))")
            }
            throw CoercionError("Int cannot represent non-integer value: \(value.inspected)")
        }
        guard Int32(exactly: integer) != nil else {
            throw CoercionError("Int cannot represent non 32-bit signed integer value: \(integer)")
        }
        return .int(integer)
    }

    public func serialize(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue {
        var number = value
        switch value {
        case .bool(let bool): return .int(bool ? 1 : 0)
        case .string(let string) where !string.isEmpty: number = JavaScriptNumber.parse(string).map(GraphQLValue.float) ?? value
        default: break
        }
        guard let double = number.number, double.isFinite, double == double.rounded(.towardZero) else {
            throw CoercionError("Int cannot represent non-integer value: \(value.inspected)")
        }
        guard double >= -2_147_483_648, double <= 2_147_483_647 else {
            throw CoercionError("Int cannot represent non 32-bit signed integer value: \(value.inspected)")
        }
        return .int(Int(double))
    }
}

extension FloatCoercion {
    public func parseLiteral(_ literal: Value, variables: GraphQLObject?) throws(CoercionError) -> GraphQLValue {
        switch literal {
        case .int(let node): return .float(Double(node.value) ?? 0)
        case .float(let node): return .float(Double(node.value) ?? 0)
        default: throw CoercionError("Float cannot represent non numeric value: \(Printer.print(literal))")
        }
    }

    public func parseValue(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue {
        guard let number = value.number, number.isFinite else {
            throw CoercionError("Float cannot represent non numeric value: \(value.inspected)")
        }
        return value
    }

    public func serialize(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue {
        switch value {
        case .bool(let bool): return .int(bool ? 1 : 0)
        case .int: return value
        case .float(let double) where double.isFinite: return value
        case .string(let string) where !string.isEmpty:
            if let double = JavaScriptNumber.parse(string), double.isFinite { return .float(double) }
        default: break
        }
        throw CoercionError("Float cannot represent non numeric value: \(value.inspected)")
    }
}

extension StringCoercion {
    public func parseLiteral(_ literal: Value, variables: GraphQLObject?) throws(CoercionError) -> GraphQLValue {
        guard case .string(let node) = literal else { throw CoercionError(literalError(literal) ?? "") }
        return .string(node.value)
    }

    public func parseValue(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue {
        guard case .string = value else { throw CoercionError("String cannot represent a non string value: \(value.inspected)") }
        return value
    }

    public func serialize(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue {
        switch value {
        case .string: return value
        case .bool(let bool): return .string(bool ? "true" : "false")
        case .int(let int): return .string(String(int))
        case .float(let double) where double.isFinite: return .string(JavaScriptNumber.string(double))
        default: throw CoercionError("String cannot represent value: \(value.inspected)")
        }
    }
}

extension BooleanCoercion {
    public func parseLiteral(_ literal: Value, variables: GraphQLObject?) throws(CoercionError) -> GraphQLValue {
        guard case .boolean(let node) = literal else { throw CoercionError(literalError(literal) ?? "") }
        return .bool(node.value)
    }

    public func parseValue(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue {
        guard case .bool = value else { throw CoercionError("Boolean cannot represent a non boolean value: \(value.inspected)") }
        return value
    }

    public func serialize(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue {
        switch value {
        case .bool: return value
        case .int(let int): return .bool(int != 0)
        case .float(let double) where double.isFinite: return .bool(double != 0)
        default: throw CoercionError("Boolean cannot represent a non boolean value: \(value.inspected)")
        }
    }
}

extension IDCoercion {
    public func parseLiteral(_ literal: Value, variables: GraphQLObject?) throws(CoercionError) -> GraphQLValue {
        switch literal {
        case .string(let node): return .string(node.value)
        case .int(let node): return .string(node.value)
        default: throw CoercionError(literalError(literal) ?? "")
        }
    }

    public func parseValue(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue {
        if case .string = value { return value }
        if let integer = value.integer { return .string(String(integer)) }
        throw CoercionError("ID cannot represent value: \(value.inspected)")
    }

    public func serialize(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue {
        if case .string = value { return value }
        if let integer = value.integer { return .string(String(integer)) }
        throw CoercionError("ID cannot represent value: \(value.inspected)")
    }
}
