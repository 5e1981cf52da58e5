import Foundation

/// Conditions as SQL, agreeing with ``RuleCondition/matches(_:)`` on rows whose NULL columns
/// count as missing fields.
extension RuleCondition {
    func sql(columns: SQLColumns, subjectType: String) throws(PermissionRuleError) -> SQLCondition {
        switch self {
        case .and(let conditions):
            var parts: [SQLCondition] = []
            for condition in conditions { parts.append(try condition.sql(columns: columns, subjectType: subjectType)) }
            return parts.count == 1 ? parts[0] : .and(parts)
        case .field(let path, let test):
            guard let path, let column = columns.columns[path] else {
                throw PermissionRuleError("field \"\(path ?? "$elemMatch")\" of \(subjectType) cannot be queried in SQL")
            }
            return try Self.sql(test, column: column, field: path)
        }
    }

    private static func sql(_ test: FieldTest, column: SQLColumns.Column, field: String) throws(PermissionRuleError) -> SQLCondition {
        let name = column.expression
        switch test {
        case .eq(let value): return equal(column, value)
        case .ne(let value): return .not(equal(column, value))
        case .compare(let comparison, let bound):
            let symbol = switch comparison { case .lt: "<"; case .lte: "<="; case .gt: ">"; case .gte: ">=" }
            switch (column.kind, bound) {
            case (.number, .number(let number)):
                return .predicate([.sql("(\(name) \(symbol) "), .bind(.number(number)), .sql(") IS TRUE")])
            case (.text, .string(let text)), (.uuid, .string(let text)):
                // Code point order, which is JavaScript's UTF-16 order outside the astral planes.
                let subject = column.kind == .uuid ? "\(name)::text" : name
                return .predicate([.sql("(\(subject) COLLATE \"C\" \(symbol) "), .bind(.text(text)), .sql(") IS TRUE")])
            default:
                return .alwaysFalse
            }
        case .in(let items):
            return .or(items.map { equal(column, $0) })
        case .nin(let items):
            return .not(.or(items.map { equal(column, $0) }))
        case .all(let items):
            guard column.kind == .textArray else { return .alwaysFalse }
            return .and([.predicate([.sql("\(name) IS NOT NULL")])] + items.map { equal(column, $0) })
        case .size(let count):
            guard column.kind == .textArray else { return .alwaysFalse }
            return .predicate([.sql("(cardinality(\(name)) = "), .bind(.number(count)), .sql(") IS TRUE")])
        case .regex(let pattern):
            let operation: String
            switch pattern.flags.filter({ !"gyud".contains($0) }) {
            case "": operation = "~"
            case "i": operation = "~*"
            default: throw PermissionRuleError("regular expression flags \"\(pattern.flags)\" on \"\(field)\" cannot be used in SQL")
            }
            switch column.kind {
            case .text, .uuid:
                let subject = column.kind == .uuid ? "\(name)::text" : name
                return .predicate([.sql("(\(subject) \(operation) "), .bind(.text(pattern.source)), .sql(") IS TRUE")])
            case .textArray:
                return .predicate([.sql("EXISTS (SELECT 1 FROM unnest(\(name)) AS element WHERE element \(operation) "),
                                   .bind(.text(pattern.source)), .sql(")")])
            case .number, .boolean:
                return .alwaysFalse
            }
        case .elemMatch:
            throw PermissionRuleError("\"$elemMatch\" on \"\(field)\" cannot be used in SQL")
        case .exists(let flag):
            guard !field.contains(".") else {
                throw PermissionRuleError("\"$exists\" on the dotted field \"\(field)\" cannot be used in SQL")
            }
            return .predicate([.sql("\(name) IS \(flag ? "NOT " : "")NULL")])
        }
    }

    /// CASL's equality on a column: NULL for `null`; a scalar of the column's type; for an array
    /// column, "contains". Values of another type never match.
    private static func equal(_ column: SQLColumns.Column, _ value: JSONValue) -> SQLCondition {
        let name = column.expression
        let bind: SQLBind
        switch (column.kind, value) {
        case (_, .null): return .predicate([.sql("\(name) IS NULL")])
        case (.text, .string(let text)), (.textArray, .string(let text)): bind = .text(text)
        case (.uuid, .string(let text)):
            // Stored UUIDs read back lower-case, so only that spelling can be equal.
            guard let uuid = UUID(uuidString: text), uuid.lowercasedString == text else { return .alwaysFalse }
            bind = .uuid(uuid)
        case (.number, .number(let number)): bind = .number(number)
        case (.boolean, .bool(let flag)): bind = .boolean(flag)
        default: return .alwaysFalse
        }
        if column.kind == .textArray {
            return .predicate([.sql("("), .bind(bind), .sql(" = ANY(\(name))) IS TRUE")])
        }
        return .predicate([.sql("(\(name) = "), .bind(bind), .sql(") IS TRUE")])
    }
}
