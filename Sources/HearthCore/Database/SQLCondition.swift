import Foundation
import PostgresNIO

/// A boolean SQL condition with bound values, built from permission rules. Every predicate is
/// written to be true or false, never NULL, so negating it stays correct.
public indirect enum SQLCondition: Sendable {
    case and([SQLCondition])
    case or([SQLCondition])
    case not(SQLCondition)
    /// SQL text and bound values, in order.
    case predicate([SQLPiece])

    public static let alwaysTrue = SQLCondition.and([])
    public static let alwaysFalse = SQLCondition.or([])
}

public enum SQLPiece: Sendable {
    case sql(String)
    case bind(SQLBind)
}

/// A value bound as a query parameter.
public enum SQLBind: Sendable, Equatable {
    case text(String)
    case integer(Int64)
    case number(Double)
    case boolean(Bool)
    case uuid(UUID)
}

/// The columns a subject type's conditions may name: condition field → SQL expression and kind.
public struct SQLColumns: Sendable {
    public enum Kind: Sendable {
        case text, uuid, number, boolean
        /// A `text[]` column: equality means "contains".
        case textArray
    }

    public struct Column: Sendable {
        public var expression: String
        public var kind: Kind
        public init(_ expression: String, _ kind: Kind) {
            self.expression = expression
            self.kind = kind
        }
    }

    public var columns: [String: Column]

    public init(_ columns: [String: Column]) {
        self.columns = columns
    }
}

extension PostgresQuery.StringInterpolation {
    /// Writes a permission condition into a query, binding its values as parameters.
    public mutating func appendInterpolation(_ condition: SQLCondition) {
        switch condition {
        case .and(let parts), .or(let parts):
            let isAnd = if case .and = condition { true } else { false }
            guard !parts.isEmpty else {
                appendInterpolation(unescaped: isAnd ? "TRUE" : "FALSE")
                return
            }
            appendInterpolation(unescaped: "(")
            for (index, part) in parts.enumerated() {
                if index > 0 { appendInterpolation(unescaped: isAnd ? " AND " : " OR ") }
                appendInterpolation(part)
            }
            appendInterpolation(unescaped: ")")
        case .not(let inner):
            appendInterpolation(unescaped: "(NOT ")
            appendInterpolation(inner)
            appendInterpolation(unescaped: ")")
        case .predicate(let pieces):
            for piece in pieces {
                switch piece {
                case .sql(let text): appendInterpolation(unescaped: text)
                case .bind(.text(let value)): appendInterpolation(value)
                case .bind(.integer(let value)): appendInterpolation(value)
                case .bind(.number(let value)): appendInterpolation(value)
                case .bind(.boolean(let value)): appendInterpolation(value)
                case .bind(.uuid(let value)): appendInterpolation(value)
                }
            }
        }
    }
}
