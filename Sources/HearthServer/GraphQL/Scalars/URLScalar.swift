import Foundation
import GraphQLEngine

/// `URL`: an absolute `http` or `https` URL with a host, at most 2 048 characters.
public struct URLScalar: StringScalar {
    static let name = "URL"
    static let expectation = "an absolute http or https URL, such as \"https://example.com/shop\""

    public init() {}

    static func normalized(_ text: String) -> String? {
        guard !text.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }), let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else { return nil }
        return text
    }
}
