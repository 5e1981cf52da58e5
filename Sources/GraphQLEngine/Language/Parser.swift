/// Recursive-descent parser for the whole GraphQL grammar (September 2025 specification),
/// reporting errors with graphql-js's wording and positions.
///
/// Works straight on the source's UTF-8 bytes; names and numbers become Strings only when an
/// AST node is made. Nesting is bounded by ``ParseOptions/maxDepth`` before every recursive
/// step, so deep documents fail with a syntax error instead of overflowing the stack.
public struct Parser: ~Copyable {
    var lexer: Lexer
    let options: ParseOptions
    /// Names and numbers are ASCII: their Strings skip decoding.
    let asciiStrings = ShortASCIIStrings()
    /// The document's selections, gathered for its ``SelectionStorage``.
    var selections = SelectionBuilder()
    private var tokenCount = 0
    private var depth = 0

    init(source: Source, bytes: UnsafeBufferPointer<UInt8>, options: ParseOptions) {
        self.lexer = Lexer(source: source, bytes: bytes)
        self.options = options
    }

    /// Parses a document (executable, type system, or both).
    public static func parse(_ source: Source, options: ParseOptions = .request) throws(GraphQLError) -> Document {
        try source.body.withUnsafeBufferPointer { (bytes) throws(GraphQLError) -> Document in
            var parser = Parser(source: source, bytes: bytes, options: options)
            return try parser.parseDocument()
        }
    }

    /// Parses a document given as text.
    public static func parse(_ text: String, options: ParseOptions = .request) throws(GraphQLError) -> Document {
        try parse(Source(text), options: options)
    }

    /// Parses a lone value literal such as `[42, "x"]` (variables allowed unless `constant`).
    public static func parseValue(_ source: Source, constant: Bool = false, options: ParseOptions = .request)
        throws(GraphQLError) -> Value
    {
        try source.body.withUnsafeBufferPointer { (bytes) throws(GraphQLError) -> Value in
            var parser = Parser(source: source, bytes: bytes, options: options)
            _ = try parser.expect(.startOfFile)
            let value = try parser.parseValue(constant: constant)
            _ = try parser.expect(.endOfFile)
            return value
        }
    }

    /// Parses a lone type reference such as `[String!]!`.
    public static func parseType(_ source: Source, options: ParseOptions = .request) throws(GraphQLError) -> TypeReference {
        try source.body.withUnsafeBufferPointer { (bytes) throws(GraphQLError) -> TypeReference in
            var parser = Parser(source: source, bytes: bytes, options: options)
            _ = try parser.expect(.startOfFile)
            let type = try parser.parseTypeReference()
            _ = try parser.expect(.endOfFile)
            return type
        }
    }

    // MARK: - Document

    mutating func parseDocument() throws(GraphQLError) -> Document {
        _ = try expect(.startOfFile)
        var definitions: [Definition] = []
        definitions.reserveCapacity(8)  // one allocation for most documents instead of a doubling per few
        repeat {
            definitions.append(try parseDefinition())
        } while try !expectOptional(.endOfFile)
        finishSelections()
        return Document(
            definitions: definitions,
            source: lexer.source,
            range: SourceRange(start: 0, end: lexer.bytes.count)
        )
    }

    mutating func parseDefinition() throws(GraphQLError) -> Definition {
        if peek(.braceL) {
            return .operation(try parseOperationDefinition())
        }
        // Many definitions begin with a description, which needs one token of lookahead.
        // A description before the `{ … }` shorthand is refused as an unexpected "{".
        let hasDescription = peekDescription()
        let keywordToken = hasDescription ? try lexer.lookahead() : lexer.token
        let keyword = definitionKeyword(keywordToken)
        switch keyword {
        case .schema: return .schema(try parseSchemaDefinition())
        case .scalar: return .type(.scalar(try parseScalarTypeDefinition()))
        case .type: return .type(.object(try parseObjectTypeDefinition()))
        case .interface: return .type(.interface(try parseInterfaceTypeDefinition()))
        case .union: return .type(.union(try parseUnionTypeDefinition()))
        case .enumeration: return .type(.enumeration(try parseEnumTypeDefinition()))
        case .input: return .type(.inputObject(try parseInputObjectTypeDefinition()))
        case .directive: return .directive(try parseDirectiveDefinition())
        case .query, .mutation, .subscription: return .operation(try parseOperationDefinition())
        case .fragment: return .fragment(try parseFragmentDefinition())
        case .extend, nil: break
        }
        if keywordToken.kind == .name {
            // Worded as graphql-js 16 words it, though operations and fragments may now have one.
            if hasDescription {
                throw error(at: lexer.token.start, "Unexpected description, descriptions are supported only on type definitions.")
            }
            if keyword == .extend {
                return try parseTypeSystemExtension()
            }
        }
        throw unexpected(keywordToken)
    }

    /// The words that begin a definition.
    enum DefinitionKeyword {
        case schema, scalar, type, interface, union, enumeration, input, directive, query, mutation, subscription
        case fragment, extend
    }

    /// The definition keyword a token spells, read from its bytes (no string is made).
    func definitionKeyword(_ token: Token) -> DefinitionKeyword? {
        guard token.kind == .name else { return nil }
        switch token.end - token.start {
        case 4: return isKeyword(token, "type") ? .type : isKeyword(token, "enum") ? .enumeration : nil
        case 5:
            return isKeyword(token, "query") ? .query : isKeyword(token, "union") ? .union
                : isKeyword(token, "input") ? .input : nil
        case 6:
            return isKeyword(token, "schema") ? .schema : isKeyword(token, "scalar") ? .scalar
                : isKeyword(token, "extend") ? .extend : nil
        case 8: return isKeyword(token, "fragment") ? .fragment : isKeyword(token, "mutation") ? .mutation : nil
        case 9: return isKeyword(token, "interface") ? .interface : isKeyword(token, "directive") ? .directive : nil
        case 12: return isKeyword(token, "subscription") ? .subscription : nil
        default: return nil
        }
    }

    // MARK: - Token helpers

    @inline(__always)
    func peek(_ kind: TokenKind) -> Bool { lexer.token.kind == kind }

    @inline(__always)
    func peekDescription() -> Bool { lexer.token.kind == .string || lexer.token.kind == .blockString }

    /// Moves to the next token, counting it against ``ParseOptions/maxTokens``.
    @inline(__always)
    mutating func advance() throws(GraphQLError) {
        try lexer.advance()
        if let maxTokens = options.maxTokens, lexer.token.kind != .endOfFile {
            tokenCount += 1
            if tokenCount > maxTokens {
                throw error(at: lexer.token.start, "Document contains more than \(maxTokens) tokens. Parsing aborted.")
            }
        }
    }

    /// Consumes a token of `kind` or fails with `Expected <kind>, found <token>.`
    @inline(__always)
    @discardableResult
    mutating func expect(_ kind: TokenKind) throws(GraphQLError) -> Token {
        let token = lexer.token
        guard token.kind == kind else {
            throw error(at: token.start, "Expected \(kind.quotedDescription), found \(describe(token)).")
        }
        try advance()
        return token
    }

    /// Consumes a token of `kind` if it is next.
    @inline(__always)
    mutating func expectOptional(_ kind: TokenKind) throws(GraphQLError) -> Bool {
        guard lexer.token.kind == kind else { return false }
        try advance()
        return true
    }

    /// Consumes the name `keyword` or fails with `Expected "keyword", found <token>.`
    mutating func expectKeyword(_ keyword: StaticString) throws(GraphQLError) {
        let token = lexer.token
        guard isKeyword(token, keyword) else {
            throw error(at: token.start, "Expected \"\(keyword)\", found \(describe(token)).")
        }
        try advance()
    }

    /// Consumes the name `keyword` if it is next.
    @inline(__always)
    mutating func expectOptionalKeyword(_ keyword: StaticString) throws(GraphQLError) -> Bool {
        guard isKeyword(lexer.token, keyword) else { return false }
        try advance()
        return true
    }

    /// Whether a token is the name `keyword`, compared byte by byte.
    @inline(__always)
    func isKeyword(_ token: Token, _ keyword: StaticString) -> Bool {
        guard token.kind == .name, token.end - token.start == keyword.utf8CodeUnitCount else { return false }
        let bytes = lexer.bytes
        let expected = keyword.utf8Start
        for offset in 0..<keyword.utf8CodeUnitCount where bytes[token.start + offset] != expected[offset] {
            return false
        }
        return true
    }

    /// Whether a token's value (a name's text or a string's value) is `text`, as graphql-js
    /// compares `token.value` for reserved words.
    func hasValue(_ token: Token, _ text: StaticString) -> Bool {
        switch token.kind {
        case .name: isKeyword(token, text)
        case .string, .blockString: lexer.value(of: token) == text.description
        default: false
        }
    }

    /// The source text of a name or number token (ASCII: the lexer takes no other bytes into them).
    @inline(__always)
    func text(of token: Token) -> String {
        asciiStrings.string(lexer.bytes, from: token.start, to: token.end)
    }

    /// A token as messages name it: `"{"`, `Name "foo"`, `String "bar"`, `<EOF>`.
    func describe(_ token: Token) -> String {
        switch token.kind {
        case .name, .int, .float: "\(token.kind) \"\(text(of: token))\""
        case .string, .blockString: "\(token.kind) \"\(lexer.value(of: token) ?? "")\""
        default: token.kind.quotedDescription
        }
    }

    /// `Unexpected <token>.` at that token (the current one by default).
    func unexpected(_ token: Token? = nil) -> GraphQLError {
        let token = token ?? lexer.token
        return error(at: token.start, "Unexpected \(describe(token)).")
    }

    func error(at position: Int, _ description: String) -> GraphQLError {
        GraphQLError.syntax(lexer.source, at: position, description)
    }

    /// The range from `start` to the end of the last consumed token.
    @inline(__always)
    func range(from start: Int) -> SourceRange {
        SourceRange(start: start, end: lexer.lastTokenEnd)
    }

    /// Enters one level of nesting, failing at the current token when that is too deep.
    @inline(__always)
    mutating func enterNesting() throws(GraphQLError) {
        depth += 1
        if depth > options.maxDepth {
            throw error(
                at: lexer.token.start,
                "Document nesting is deeper than \(options.maxDepth) levels. Parsing aborted."
            )
        }
    }

    @inline(__always)
    mutating func leaveNesting() { depth -= 1 }

    // MARK: - Shared productions

    /// Name
    @inline(__always)
    mutating func parseName() throws(GraphQLError) -> Name {
        let token = try expect(.name)
        return Name(text(of: token), range: token.range)
    }

    /// Description : StringValue
    mutating func parseDescription() throws(GraphQLError) -> StringValue? {
        peekDescription() ? try parseStringLiteral() : nil
    }

    mutating func parseStringLiteral() throws(GraphQLError) -> StringValue {
        let token = lexer.token
        let content = lexer.content(of: token)
        try advance()
        let block = token.kind == .blockString
        switch content {
        case .bytes(let bytes): return StringValue(source: lexer.source.body, bytes: bytes, block: block, range: token.range)
        case .cooked(let value): return StringValue(value: value, block: block, range: token.range)
        case nil: return StringValue(value: "", block: block, range: token.range)
        }
    }
}
