/// One lexical token: its kind and byte range.
///
/// Plain data: names and numbers are read from the source by range, and a string's cooked value
/// stays with the lexer, so making, copying and dropping a token costs nothing.
public struct Token: Sendable {
    public var kind: TokenKind
    public var start: Int
    public var end: Int

    @inlinable
    init(kind: TokenKind, start: Int, end: Int) {
        self.kind = kind
        self.start = start
        self.end = end
    }

    public var range: SourceRange { SourceRange(start: start, end: end) }
}
