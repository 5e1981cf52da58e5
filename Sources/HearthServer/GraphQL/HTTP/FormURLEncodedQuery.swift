/// A URL query string read as `application/x-www-form-urlencoded` (what the GraphQL-over-HTTP
/// specification prescribes for GET, and what browsers' `URLSearchParams` and most HTTP libraries
/// send): `name=value` pairs split on `&`, `+` standing for a space, `%XX` escapes decoded as UTF-8.
struct FormURLEncodedQuery: Sendable {
    private var values: [String: [String]] = [:]

    /// Parses `query` (the part after `?`, still encoded). A malformed escape or text that is not
    /// UTF-8 once decoded is refused, naming the parameter.
    init(_ query: String?) throws(GraphQLHTTPError) {
        guard let query, !query.isEmpty else { return }
        for pair in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decode(parts[0], parameter: nil)
            let value = parts.count > 1 ? try Self.decode(parts[1], parameter: name) : ""
            values[name, default: []].append(value)
        }
    }

    /// The parameter's value; one given more than once is refused (which would be meant is unclear).
    func single(_ name: String) throws(GraphQLHTTPError) -> String? {
        guard let given = values[name] else { return nil }
        guard given.count == 1 else {
            throw GraphQLHTTPError(.badRequest, "The URL gives the \"\(name)\" parameter \(given.count) times; give it once.")
        }
        return given[0]
    }

    private static func decode(_ encoded: Substring.UTF8View, parameter: String?) throws(GraphQLHTTPError) -> String {
        let place = parameter.map { "the \"\($0)\" parameter" } ?? "a parameter name"
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.count)
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let byte = encoded[index]
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                let high = encoded.index(after: index)
                guard high < encoded.endIndex, encoded.index(after: high) < encoded.endIndex,
                    let h = hexValue(encoded[high]), let l = hexValue(encoded[encoded.index(after: high)])
                else {
                    throw GraphQLHTTPError(
                        .badRequest, "The URL has a malformed percent-escape in \(place): \"%\" must be followed by two hex digits.")
                }
                bytes.append(h << 4 | l)
                index = encoded.index(after: high)
            default:
                bytes.append(byte)
            }
            index = encoded.index(after: index)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw GraphQLHTTPError(.badRequest, "The URL's \(place) is not UTF-8 text once decoded.")
        }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
