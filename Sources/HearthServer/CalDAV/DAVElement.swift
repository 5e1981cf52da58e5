import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An element of a WebDAV request body (PROPFIND, REPORT), namespaces resolved: what the
/// handlers read. External entities are never resolved; depth and size are limited.
struct DAVElement: Sendable {
    var namespace: String
    var name: String
    var attributes: [String: String]
    var children: [DAVElement]
    var text: String

    static let maximumDepth = 32
    static let maximumElements = 20_000

    func child(_ namespace: String, _ name: String) -> DAVElement? {
        children.first { $0.namespace == namespace && $0.name == name }
    }

    func children(_ namespace: String, _ name: String) -> [DAVElement] {
        children.filter { $0.namespace == namespace && $0.name == name }
    }

    func `is`(_ namespace: String, _ name: String) -> Bool { self.namespace == namespace && self.name == name }

    /// The property names a `prop` element lists.
    var propertyNames: [DAVProperty] { children.map { DAVProperty(namespace: $0.namespace, name: $0.name) } }

    /// The document element of `data`; nil when it is not well-formed XML (or too large or deep).
    static func parse(_ data: Data) -> DAVElement? {
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        guard parser.parse(), !reader.failed else { return nil }
        return reader.root
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var stack: [DAVElement] = []
        var root: DAVElement?
        var count = 0
        var failed = false

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
            count += 1
            guard stack.count < DAVElement.maximumDepth, count <= DAVElement.maximumElements else {
                failed = true
                parser.abortParsing()
                return
            }
            stack.append(DAVElement(namespace: namespaceURI ?? "", name: name, attributes: attributes, children: [], text: ""))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += string
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            guard var element = stack.popLast() else { return }
            if let first = element.text.utf8.first, let last = element.text.utf8.last, first <= 0x20 || last <= 0x20 {
                element.text = element.text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
        }
    }
}
