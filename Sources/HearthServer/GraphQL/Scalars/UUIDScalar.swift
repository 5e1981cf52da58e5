import Foundation
import GraphQLEngine

/// `UUID`: an RFC 9562 UUID in its 36-character form; sent back in lower case.
public struct UUIDScalar: StringScalar {
    static let name = "UUID"
    static let expectation = "a UUID such as \"0f8fad5b-d9cb-469f-a165-70867728950e\""

    public init() {}

    static func normalized(_ text: String) -> String? {
        guard text.utf8.count == 36, let uuid = UUID(uuidString: text) else { return nil }
        return uuid.lowercasedString
    }
}
