/// One lexical token: its kind and byte range; string tokens also carry their cooked value.
///
/// Names and numbers keep only their range: the parser reads their text from the source,
/// so lexing allocates nothing for them.
public struct Token: Sendable {
    public var kind: TokenKind
    public var start: Int
    public var end: Int
    /// The value of a `String` or `BlockString` token, escapes and indentation processed.
    public var stringValue: String?

    @inlinable
    init(kind: TokenKind, start: Int, end: Int, stringValue: String? = nil) {
        self.kind = kind
        self.start = start
        self.end = end
        self.stringValue = stringValue
    }

    public var range: SourceRange { SourceRange(start: start, end: end) }
}
