import Foundation

extension URL {
    /// `text` when it is an absolute http or https address with a host (what options naming a
    /// server accept), else nil.
    static func httpAddress(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host?.isEmpty == false else { return nil }
        return url
    }
}
