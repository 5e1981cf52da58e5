import Foundation
import GraphQLEngine

/// `UUID`: an RFC 9562 UUID in its 36-character form; sent back in lower case.
public struct UUIDScalar: StringScalar {
    static let name = "UUID"
    static let expectation = "a UUID such as \"0f8fad5b-d9cb-469f-a165-70867728950e\""

    public init() {}

    /// Checked by hand (Foundation parses a UUID with `sscanf`, a visible cost when every id a
    /// response carries is checked): 8-4-4-4-12 hex digits, sent back in lower case.
    static func normalized(_ text: String) -> String? {
        let bytes = text.utf8
        guard bytes.count == 36 else { return nil }
        var upper = false
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
            } else {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): break
                case UInt8(ascii: "A")...UInt8(ascii: "F"): upper = true
                default: return nil
                }
            }
        }
        return upper ? text.lowercased() : text
    }
}
