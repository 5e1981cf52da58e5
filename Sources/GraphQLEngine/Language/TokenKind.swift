/// The kinds of lexical token, with the names graphql-js uses in error messages.
public enum TokenKind: UInt8, Sendable, CustomStringConvertible {
    case startOfFile, endOfFile
    case bang, dollar, amp, parenL, parenR, spread, colon, equals, at, bracketL, bracketR, braceL, pipe, braceR
    case name, int, float, string, blockString

    /// `<EOF>`, `!`, `Name`, …: what graphql-js prints for a kind.
    public var description: String {
        switch self {
        case .startOfFile: "<SOF>"
        case .endOfFile: "<EOF>"
        case .bang: "!"
        case .dollar: "$"
        case .amp: "&"
        case .parenL: "("
        case .parenR: ")"
        case .spread: "..."
        case .colon: ":"
        case .equals: "="
        case .at: "@"
        case .bracketL: "["
        case .bracketR: "]"
        case .braceL: "{"
        case .pipe: "|"
        case .braceR: "}"
        case .name: "Name"
        case .int: "Int"
        case .float: "Float"
        case .string: "String"
        case .blockString: "BlockString"
        }
    }

    /// Punctuators are quoted in messages (`Expected ":"`), other kinds are not (`Expected Name`).
    var isPunctuator: Bool {
        switch self {
        case .bang, .dollar, .amp, .parenL, .parenR, .spread, .colon, .equals, .at, .bracketL, .bracketR, .braceL,
            .pipe, .braceR:
            true
        default:
            false
        }
    }

    /// `String` or `BlockString`: the kinds with a cooked value.
    @inline(__always)
    var isString: Bool { self == .string || self == .blockString }

    /// The kind as an error message names it: punctuators in quotes.
    var quotedDescription: String { isPunctuator ? "\"\(description)\"" : description }
}
