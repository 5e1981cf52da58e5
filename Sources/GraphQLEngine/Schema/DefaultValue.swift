/// A schema default value the way graphql-js shows it (`printSchema`, `__InputValue.defaultValue`):
/// the literal is coerced to the argument's type (`valueFromAST`) and written back (`astFromValue`),
/// so `[Int] = 1` reads `[1]`, `Float = 1.0` reads `1`, input-object fields follow the type's order
/// with their own defaults filled in, and a default that does not fit its type is not shown.
enum DefaultValue {
    /// A coerced input value, as graphql-js holds it in JavaScript.
    indirect enum Coerced {
        case null
        case number(Double)
        case string(String)
        case boolean(Bool)
        case enumName(String)
        case list([Coerced])
        case object([(String, Coerced)])
    }

    /// The canonical text of `literal` as a default of `type`, or nil when it does not coerce.
    static func print(_ literal: Value, type: GraphQLType, schema: GraphQLSchema) -> String? {
        guard let coerced = coerce(literal, type, schema, depth: 0) else { return nil }
        return write(coerced, type, schema)
    }

    static func coerce(_ literal: Value, _ type: GraphQLType, _ schema: GraphQLSchema, depth: Int) -> Coerced? {
        guard depth < 64 else { return nil }
        switch type {
        case .nonNull(let inner):
            if case .null = literal { return nil }
            return coerce(literal, inner, schema, depth: depth + 1)
        case .list(let item):
            if case .null = literal { return .null }
            if case .list(let list) = literal {
                var items: [Coerced] = []
                for value in list.values {
                    guard let coerced = coerce(value, item, schema, depth: depth + 1) else { return nil }
                    items.append(coerced)
                }
                return .list(items)
            }
            return coerce(literal, item, schema, depth: depth + 1).map { .list([$0]) }
        case .named(let id):
            if case .null = literal { return .null }
            if case .variable = literal { return nil }
            let named = schema[id]
            switch named.kind {
            case .inputObject:
                guard case .object(let object) = literal else { return nil }
                var fields: [(String, Coerced)] = []
                for field in named.inputFields {
                    guard let node = object.fields.first(where: { $0.name.value == field.name }) else {
                        if let fieldDefault = field.defaultValue {
                            guard let coerced = coerce(fieldDefault, field.type, schema, depth: depth + 1) else {
                                continue
                            }
                            fields.append((field.name, coerced))
                        } else if field.type.isNonNull {
                            return nil
                        }
                        continue
                    }
                    guard let coerced = coerce(node.value, field.type, schema, depth: depth + 1) else { return nil }
                    fields.append((field.name, coerced))
                }
                if named.isOneOf {
                    guard fields.count == 1 else { return nil }
                    if case .null = fields[0].1 { return nil }
                }
                return .object(fields)
            case .enumeration:
                guard case .enumValue(let value) = literal, named.enumValue(named: value.value) != nil else { return nil }
                return .enumName(value.value)
            case .scalar:
                return coerceScalar(literal, named)
            default:
                return nil
            }
        }
    }

    static func coerceScalar(_ literal: Value, _ scalar: GraphQLNamedType) -> Coerced? {
        switch scalar.coercion {
        case is IntCoercion, is FloatCoercion, is StringCoercion, is BooleanCoercion, is IDCoercion:
            if scalar.coercion.literalError(literal) != nil { return nil }
            switch literal {
            case .int(let int):
                return scalar.coercion is IDCoercion ? .string(int.value) : .number(Double(int.value) ?? 0)
            case .float(let float): return .number(Double(float.value) ?? 0)
            case .string(let string): return .string(string.value)
            case .boolean(let boolean): return .boolean(boolean.value)
            default: return nil
            }
        default:
            return untyped(literal)
        }
    }

    /// graphql-js's `valueFromASTUntyped`: a custom scalar's literal as plain data.
    static func untyped(_ literal: Value) -> Coerced? {
        switch literal {
        case .null: .null
        case .int(let int): .number(Double(int.value) ?? 0)
        case .float(let float): .number(Double(float.value) ?? 0)
        case .string(let string): .string(string.value)
        case .boolean(let boolean): .boolean(boolean.value)
        case .enumValue(let value): .string(value.value)
        case .list(let list): .list(list.values.compactMap(untyped))
        case .object(let object): .object(object.fields.compactMap { field in untyped(field.value).map { (field.name.value, $0) } })
        case .variable: nil
        }
    }

    static func write(_ value: Coerced, _ type: GraphQLType, _ schema: GraphQLSchema) -> String? {
        switch type {
        case .nonNull(let inner):
            let written = write(value, inner, schema)
            return written == "null" ? nil : written
        case .list(let item):
            if case .null = value { return "null" }
            if case .list(let items) = value {
                return "[" + items.compactMap { write($0, item, schema) }.joined(separator: ", ") + "]"
            }
            return write(value, item, schema)
        case .named(let id):
            if case .null = value { return "null" }
            let named = schema[id]
            switch named.kind {
            case .inputObject:
                guard case .object(let fields) = value else { return nil }
                let written = named.inputFields.compactMap { field -> String? in
                    guard let fieldValue = fields.first(where: { $0.0 == field.name })?.1,
                        let text = write(fieldValue, field.type, schema)
                    else { return nil }
                    return field.name + ": " + text
                }
                return "{" + written.joined(separator: ", ") + "}"
            case .enumeration:
                if case .enumName(let name) = value { return name }
                return nil
            default:
                return writeScalar(value, isID: named.coercion is IDCoercion)
            }
        }
    }

    static func writeScalar(_ value: Coerced, isID: Bool) -> String? {
        switch value {
        case .null: return "null"
        case .boolean(let boolean): return boolean ? "true" : "false"
        case .number(let number): return number.isFinite ? javaScriptString(number) : nil
        case .string(let string), .enumName(let string):
            if isID && isIntegerString(string) { return string }
            return Printer.printString(string)
        case .list(let items):
            return "[" + items.compactMap { writeScalar($0, isID: false) }.joined(separator: ", ") + "]"
        case .object(let fields):
            return "{" + fields.compactMap { name, value in writeScalar(value, isID: false).map { name + ": " + $0 } }
                .joined(separator: ", ") + "}"
        }
    }

    static func isIntegerString(_ string: String) -> Bool {
        var bytes = Substring(string).utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        guard let first = bytes.first, (48...57).contains(first) else { return false }
        if first == 48 { return bytes.count == 1 }
        return bytes.allSatisfy { (48...57).contains($0) }
    }

    /// `String(number)` in JavaScript: the shortest round-trip digits, in positional notation
    /// for exponents from -7 to 20, else `1e+21` style.
    static func javaScriptString(_ number: Double) -> String {
        if number == 0 { return "0" }
        let negative = number < 0
        // Swift's description is also the shortest round-trip form; take its digits and exponent.
        var text = "\(abs(number))"
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = String(text[..<e])
        }
        var digits = text
        var pointPosition = digits.count
        if let point = digits.firstIndex(of: ".") {
            pointPosition = digits.distance(from: digits.startIndex, to: point)
            digits.remove(at: point)
        }
        // Strip leading zeros (moving the point) and trailing zeros.
        while digits.count > 1 && digits.first == "0" {
            digits.removeFirst()
            pointPosition -= 1
        }
        while digits.count > 1 && digits.last == "0" { digits.removeLast() }
        let k = digits.count
        let n = pointPosition + exponent
        var result: String
        if k <= n && n <= 21 {
            result = digits + String(repeating: "0", count: n - k)
        } else if 0 < n && n <= 21 {
            result = String(digits.prefix(n)) + "." + String(digits.dropFirst(n))
        } else if -6 < n && n <= 0 {
            result = "0." + String(repeating: "0", count: -n) + digits
        } else {
            let e = n - 1
            result = String(digits.prefix(1)) + (k > 1 ? "." + String(digits.dropFirst()) : "") + "e"
                + (e >= 0 ? "+" : "-") + String(abs(e))
        }
        return negative ? "-" + result : result
    }
}
