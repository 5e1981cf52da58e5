/// Turns a ``Source``'s UTF-8 bytes into tokens on demand, one token ahead of the parser,
/// the way graphql-js's lexer does: so a bad character is reported when the parser reaches
/// the token before it, and errors come in the same order as graphql-js's.
///
/// Tokens are byte offsets only; a string token's value is kept beside it (``content(of:)``).
/// The scanning itself is ``TokenReader``'s.
struct Lexer {
    let reader: TokenReader
    let source: Source
    /// The current token (already lexed).
    private(set) var token: Token
    /// Where the previously current token ended: AST nodes end there.
    private(set) var lastTokenEnd: Int = 0
    /// The next token when ``lookahead()`` has read it (`<SOF>` when it has not).
    private var lookaheadToken = Token(kind: .startOfFile, start: 0, end: 0)
    /// The values of the current and the lookahead token, when they are strings.
    private var tokenValue: StringContent?
    private var lookaheadValue: StringContent?

    init(source: Source, bytes: UnsafeBufferPointer<UInt8>) {
        self.reader = TokenReader(bytes: bytes)
        self.source = source
        self.token = Token(kind: .startOfFile, start: 0, end: 0)
    }

    var bytes: UnsafeBufferPointer<UInt8> { reader.bytes }

    /// Moves to the next token.
    @inline(__always)
    mutating func advance() throws(GraphQLError) {
        lastTokenEnd = token.end
        if token.kind == .endOfFile { return }
        if lookaheadToken.kind != .startOfFile {
            token = lookaheadToken
            lookaheadToken.kind = .startOfFile
            if token.kind.isString { swap(&tokenValue, &lookaheadValue) }
        } else {
            do {
                token = try reader.readToken(from: token.end, value: &tokenValue)
            } catch {
                throw error.located(in: source)
            }
        }
    }

    /// The token after the current one, without moving.
    mutating func lookahead() throws(GraphQLError) -> Token {
        if token.kind == .endOfFile { return token }
        if lookaheadToken.kind == .startOfFile {
            do {
                lookaheadToken = try reader.readToken(from: token.end, value: &lookaheadValue)
            } catch {
                throw error.located(in: source)
            }
        }
        return lookaheadToken
    }

    /// The value of a string or block string token that is current or the lookahead.
    func content(of token: Token) -> StringContent? {
        guard token.kind.isString else { return nil }
        if token.start == self.token.start { return tokenValue }
        if token.start == lookaheadToken.start && lookaheadToken.kind != .startOfFile { return lookaheadValue }
        return nil
    }

    /// The cooked value of a string or block string token that is current or the lookahead.
    func value(of token: Token) -> String? {
        content(of: token)?.string(in: bytes)
    }

    /// Every token of a source, up to and including `<EOF>`, with the cooked value of each
    /// string: for tools and tests.
    static func tokens(of source: Source) throws(GraphQLError) -> [(token: Token, value: String?)] {
        try source.body.withUnsafeBufferPointer { (buffer) throws(GraphQLError) -> [(token: Token, value: String?)] in
            var lexer = Lexer(source: source, bytes: buffer)
            var tokens: [(token: Token, value: String?)] = []
            repeat {
                try lexer.advance()
                tokens.append((lexer.token, lexer.value(of: lexer.token)))
            } while lexer.token.kind != .endOfFile
            return tokens
        }
    }
}
