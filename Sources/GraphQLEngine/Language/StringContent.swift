/// A string token's value as the reader finds it: the bytes of the source it spans, when the value
/// is those bytes as they are (a string without escapes, a block string whose value is one line),
/// or a value cooked from them (escapes, a block string's dedented lines). The first is most
/// descriptions, and costs no copy while the parse goes on (``StringValue`` borrows it).
enum StringContent: Sendable {
    case bytes(SourceRange)
    case cooked(String)

    /// The value as a String, made from `bytes` (the source's) when it spans them.
    func string(in bytes: UnsafeBufferPointer<UInt8>) -> String {
        switch self {
        case .bytes(let range): String(decoding: UnsafeBufferPointer(rebasing: bytes[range.start..<range.end]), as: UTF8.self)
        case .cooked(let value): value
        }
    }
}
