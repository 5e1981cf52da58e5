/// How a scalar type treats the values written for it.
///
/// Validation asks only whether a literal is acceptable; the executor (next part of the
/// engine) adds parsing of variable values and serialising of results to the same conformance.
public protocol ScalarCoercing: Sendable {
    /// `nil` when `literal` (a value without variables) is acceptable, else the message to report.
    func literalError(_ literal: Value) -> String?
}

/// A scalar defined in SDL without hooks: any literal is accepted, as graphql-js does.
public struct CustomScalarCoercion: ScalarCoercing {
    public init() {}
    public func literalError(_ literal: Value) -> String? { nil }
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
