@testable import GraphQLEngine

/// The first syntax error of a document as "message @ line:column", or nil if it parses.
func syntaxError(_ text: String, options: ParseOptions = .trusted) -> String? {
    do {
        _ = try Parser.parse(Source(text), options: options)
        return nil
    } catch {
        let location = error.locations.first.map { "\($0.line):\($0.column)" } ?? "-"
        return "\(error.message) @ \(location)"
    }
}

/// Parses a document that must be valid.
func parsed(_ text: String, options: ParseOptions = .trusted) throws -> Document {
    try Parser.parse(Source(text), options: options)
}

/// Lexes a whole source into (kind, text) pairs, `<EOF>` excluded.
func lexed(_ text: String) throws -> [(TokenKind, String)] {
    let source = Source(text)
    return try Lexer.tokens(of: source).dropLast().map { (token, value) in
        (token.kind, value ?? String(decoding: source.body[token.start..<token.end], as: UTF8.self))
    }
}

/// The value of the single string argument in `{ a(x: <literal>) }`.
func stringValue(_ literal: String) throws -> String? {
    let document = try parsed("{ a(x: \(literal)) }")
    guard case .operation(let operation) = document.definitions.first,
        case .field(let field) = operation.selectionSet.selections.first,
        case .string(let string) = field.arguments.first?.value
    else { return nil }
    return string.value
}
