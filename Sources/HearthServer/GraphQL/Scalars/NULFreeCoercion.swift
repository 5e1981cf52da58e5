import GraphQLEngine

/// A scalar's coercion that also refuses the NUL character (U+0000) anywhere in a value (in
/// strings, and in a JSON value's keys): PostgreSQL cannot store it in text, so such input is
/// refused at the API with a message saying so, instead of failing in the database.
struct NULFreeCoercion: ScalarCoercing {
    let name: String
    let base: any ScalarCoercing

    var message: String { "\(name) cannot represent text containing the NUL character (U+0000)." }

    func literalError(_ literal: Value) -> String? {
        if let error = base.literalError(literal) { return error }
        return Self.containsNUL(literal) ? message : nil
    }

    func parseLiteral(_ literal: Value, variables: GraphQLObject?) throws(CoercionError) -> GraphQLValue {
        try checked(try base.parseLiteral(literal, variables: variables))
    }

    func parseValue(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue {
        try checked(try base.parseValue(value))
    }

    func serialize(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue { try base.serialize(value) }

    private func checked(_ value: GraphQLValue) throws(CoercionError) -> GraphQLValue {
        if Self.containsNUL(value) { throw CoercionError(message) }
        return value
    }

    static func containsNUL(_ text: String) -> Bool { text.utf8.contains(0) }

    static func containsNUL(_ literal: Value) -> Bool {
        switch literal {
        case .string(let node): containsNUL(node.value)
        case .list(let list): list.values.contains(where: containsNUL)
        case .object(let object): object.fields.contains { containsNUL($0.name.value) || containsNUL($0.value) }
        default: false
        }
    }

    static func containsNUL(_ value: GraphQLValue) -> Bool {
        switch value {
        case .string(let text): containsNUL(text)
        case .list(let items): items.contains(where: containsNUL)
        case .object(let object): object.contains { containsNUL($0.key) || containsNUL($0.value) }
        default: false
        }
    }
}
