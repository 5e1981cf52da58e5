/// A schema default value the way graphql-js shows it (`printSchema`, `__InputValue.defaultValue`):
/// the literal is coerced to the argument's type (`valueFromAST`, the executor's literal coercion)
/// and written back (`astFromValue`), so `[Int] = 1` reads `[1]`, `Float = 1.0` reads `1`,
/// input-object fields follow the type's order with their own defaults filled in, and a default
/// that does not fit its type is not shown.
enum DefaultValue {
    /// The canonical text of `literal` as a default of `type`, or nil when it does not coerce.
    static func print(_ literal: Value, type: GraphQLType, schema: GraphQLSchema) -> String? {
        guard let value = InputCoercion.literalValue(literal, type: type, schema: schema, variables: nil) else { return nil }
        return write(value, type, schema)
    }

    static func write(_ value: GraphQLValue, _ type: GraphQLType, _ schema: GraphQLSchema) -> String? {
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
                    guard let fieldValue = fields[field.name], let text = write(fieldValue, field.type, schema) else { return nil }
                    return field.name + ": " + text
                }
                return "{" + written.joined(separator: ", ") + "}"
            case .enumeration:
                if case .string(let name) = value { return name }
                return nil
            default:
                return writeScalar(value, isID: named.coercion is IDCoercion)
            }
        }
    }

    static func writeScalar(_ value: GraphQLValue, isID: Bool) -> String? {
        switch value {
        case .null: return "null"
        case .bool(let boolean): return boolean ? "true" : "false"
        case .int(let int): return JavaScriptNumber.string(Double(int))
        case .float(let number): return number.isFinite ? JavaScriptNumber.string(number) : nil
        case .string(let string):
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

}
