/// The bytes of a ``Source`` a token or AST node spans: `start..<end`.
///
/// Stored as two 32-bit offsets to keep AST nodes small; documents are far below 4 GiB.
public struct SourceRange: Sendable, Hashable, BitwiseCopyable, CustomStringConvertible {
    private let startOffset: UInt32
    private let endOffset: UInt32

    public init(start: Int, end: Int) {
        self.startOffset = UInt32(truncatingIfNeeded: start)
        self.endOffset = UInt32(truncatingIfNeeded: end)
    }

    public var start: Int { Int(startOffset) }
    public var end: Int { Int(endOffset) }

    public var description: String { "\(start)..<\(end)" }
}
