import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A WebDAV property's name: its XML namespace and local name, e.g. `DAV:` `displayname`.
struct DAVProperty: Hashable, Sendable {
    var namespace: String
    var name: String

    static let dav = "DAV:"
    static let caldav = "urn:ietf:params:xml:ns:caldav"
    static let calendarServer = "http://calendarserver.org/ns/"
    static let apple = "http://apple.com/ns/ical/"

    static func dav(_ name: String) -> DAVProperty { DAVProperty(namespace: dav, name: name) }
    static func caldav(_ name: String) -> DAVProperty { DAVProperty(namespace: caldav, name: name) }

    /// The prefix a response writes it with (declared on the multistatus element).
    var prefix: String {
        switch namespace {
        case Self.dav: "d"
        case Self.caldav: "c"
        case Self.calendarServer: "cs"
        case Self.apple: "ical"
        default: "x"
        }
    }
}

/// What a PROPFIND asks for: named properties, or all of them (`allprop`, or no body at all).
enum PropfindRequest: Equatable {
    case all
    case names([DAVProperty])

    /// Reads a PROPFIND body; nil when it is not well-formed XML (answered 400).
    static func parse(_ body: Data) -> PropfindRequest? {
        guard !body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return .all }
        let reader = Reader()
        let parser = XMLParser(data: body)
        parser.shouldProcessNamespaces = true
        parser.delegate = reader
        guard parser.parse() else { return nil }
        return reader.all || reader.names.isEmpty && !reader.sawProp ? .all : .names(reader.names)
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var names: [DAVProperty] = []
        var all = false
        var sawProp = false
        private var depthInProp: Int?
        private var depth = 0

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
            depth += 1
            if let start = depthInProp {
                if depth == start + 1 { names.append(DAVProperty(namespace: namespaceURI ?? "", name: name)) }
            } else if namespaceURI == DAVProperty.dav && name == "prop" {
                depthInProp = depth
                sawProp = true
            } else if namespaceURI == DAVProperty.dav && name == "allprop" {
                all = true
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if depthInProp == depth { depthInProp = nil }
            depth -= 1
        }
    }
}
