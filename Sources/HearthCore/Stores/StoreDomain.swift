import Foundation

/// A store's domain as Hearth keeps it: lower case, ASCII (IDNA `xn--` labels), without scheme,
/// user, port, path, query or trailing dot — so "HTTPS://Allbirds.com:443/collections/x" and
/// "allbirds.com" are one store.
public struct StoreDomain: Sendable, Hashable, CustomStringConvertible {
    /// The normalised host name, e.g. `allbirds.com` or `xn--bcher-kva.de`.
    public let host: String
    /// The first label as the person typed it (Unicode), "www." skipped: the default store name.
    public let suggestedName: String

    public var description: String { host }

    /// Normalises what a person typed; throws ``ServiceError/invalidInput`` naming `domain`.
    public init(_ input: String) throws(ServiceError) {
        var text = input.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw Self.invalid("domain must not be empty.") }
        guard text.utf8.count <= 2048 else { throw Self.invalid("domain is too long (at most 2048 characters).") }
        if let scheme = text.range(of: "://") { text = String(text[scheme.upperBound...]) }
        if let end = text.firstIndex(where: { "/?#\\".contains($0) }) { text = String(text[..<end]) }
        if let at = text.lastIndex(of: "@") { text = String(text[text.index(after: at)...]) }
        if text.hasPrefix("[") { throw Self.invalid("domain must be a host name, not an IPv6 address.") }
        if let colon = text.lastIndex(of: ":") {
            let port = text[text.index(after: colon)...]
            guard port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber) else {
                throw Self.invalid("domain has a malformed port: \"\(port)\".")
            }
            text = String(text[..<colon])
        }
        // IDNA's full stops (ideographic, full-width, half-width) separate labels too.
        text = String(text.map { "\u{3002}\u{FF0E}\u{FF61}".contains($0) ? "." : $0 })
        if text.hasSuffix(".") { text.removeLast() }
        let unicode = text.precomposedStringWithCanonicalMapping.lowercased()
        let labels = unicode.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard labels.count >= 1, !unicode.isEmpty else { throw Self.invalid("domain must not be empty.") }
        var ascii: [String] = []
        for label in labels {
            guard !label.isEmpty else { throw Self.invalid("domain \"\(unicode)\" has an empty label.") }
            let encoded: String
            if label.unicodeScalars.allSatisfy(\.isASCII) {
                encoded = label
            } else {
                guard label.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "-" }),
                      let punycode = Punycode.encode(label) else {
                    throw Self.invalid("domain label \"\(label)\" holds characters a host name cannot.")
                }
                encoded = "xn--" + punycode
            }
            guard encoded.utf8.count <= 63 else { throw Self.invalid("domain label \"\(label)\" is longer than 63 characters.") }
            guard encoded.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }) else {
                throw Self.invalid("domain \"\(unicode)\" may hold only letters, digits, hyphens and dots.")
            }
            guard !encoded.hasPrefix("-"), !encoded.hasSuffix("-") else {
                throw Self.invalid("domain label \"\(label)\" must not start or end with a hyphen.")
            }
            ascii.append(encoded)
        }
        let host = ascii.joined(separator: ".")
        guard host.utf8.count <= 253 else { throw Self.invalid("domain is longer than 253 characters.") }
        self.host = host
        let named = labels.count > 2 && labels[0] == "www" ? labels.dropFirst() : labels[...]
        self.suggestedName = named.first ?? host
    }

    private static func invalid(_ message: String) -> ServiceError {
        .invalidInput(field: "domain", message: message)
    }
}
