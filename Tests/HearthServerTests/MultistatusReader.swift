import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A WebDAV multistatus read as a client reads it: per response its href, its own status (a
/// deleted item, a truncated sync) and each property's status and text; and the sync token.
struct MultistatusReader {
    struct Response {
        var href = ""
        var status: Int?
        /// "namespace name" → (status, inner text, the names of its child elements).
        var properties: [String: (status: Int, text: String, children: [String])] = [:]

        func status(of property: String) -> Int? { properties[property]?.status }
        func text(of property: String) -> String? { properties[property].flatMap { $0.status == 200 ? $0.text : nil } }
        func children(of property: String) -> [String] { properties[property]?.children ?? [] }
    }

    var responses: [Response] = []
    var syncToken: String?

    func response(_ href: String) -> Response? { responses.first { $0.href == href } }

    init?(_ body: String) {
        let reader = Reader()
        let parser = XMLParser(data: Data(body.utf8))
        parser.shouldProcessNamespaces = true
        parser.delegate = reader
        guard parser.parse() else { return nil }
        responses = reader.responses
        syncToken = reader.syncToken
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var responses: [Response] = []
        var syncToken: String?
        private var path: [String] = []
        private var response: Response?
        private var propstat: [(String, String, [String])] = []
        private var propertyStack: (name: String, text: String, children: [String])?
        private var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
            let full = (namespaceURI ?? "") + " " + name
            if full == "DAV: response" { response = Response() }
            if full == "DAV: propstat" { propstat = [] }
            if path.last == "DAV: prop", response != nil {
                propertyStack = (full, "", [])
            } else if path.count >= 2, path[path.count - 2] == "DAV: prop", propertyStack != nil {
                propertyStack?.children.append(full)
            }
            path.append(full)
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
            if propertyStack != nil { propertyStack?.text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let full = path.removeLast()
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            switch full {
            case "DAV: href" where path.last == "DAV: response": response?.href = value
            case "DAV: status" where path.last == "DAV: response": response?.status = Self.code(value)
            case "DAV: status" where path.last == "DAV: propstat":
                for (property, content, children) in propstat { response?.properties[property] = (Self.code(value) ?? 0, content, children) }
            case "DAV: sync-token" where path.last == "DAV: multistatus": syncToken = value
            case "DAV: response":
                if let response { responses.append(response) }
                response = nil
            default:
                if path.last == "DAV: prop", let property = propertyStack, property.name == full {
                    propstat.append((property.name, property.text.trimmingCharacters(in: .whitespacesAndNewlines), property.children))
                    propertyStack = nil
                }
            }
        }

        static func code(_ status: String) -> Int? { status.split(separator: " ").dropFirst().first.flatMap { Int($0) } }
    }
}
