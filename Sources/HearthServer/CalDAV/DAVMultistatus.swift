import Foundation

/// A WebDAV `207 Multi-Status` body: per resource, the properties found (200) and those asked
/// for that it does not have (404).
struct DAVMultistatus {
    /// One property's value as XML already written (escaped); empty for an empty element.
    typealias Values = [DAVProperty: String]

    private var responses = ""
    /// The token a sync-collection answer ends with.
    var syncToken: String?

    /// Adds a resource at `href` with `values`, answering `requested` (or every value for allprop).
    mutating func add(href: String, values: Values, requested: PropfindRequest) {
        let wanted: [DAVProperty] = switch requested {
        case .all: values.keys.sorted { ($0.namespace, $0.name) < ($1.namespace, $1.name) }
        case .names(let names): names
        }
        var found = "", missing = ""
        for property in wanted {
            if let value = values[property] {
                found += Self.element(property, value)
            } else {
                missing += Self.element(property, "")
            }
        }
        responses += "<d:response><d:href>\(Self.escape(href))</d:href>"
        if !found.isEmpty { responses += "<d:propstat><d:prop>\(found)</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>" }
        if !missing.isEmpty { responses += "<d:propstat><d:prop>\(missing)</d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>" }
        responses += "</d:response>"
    }

    /// A resource answered by a status alone: a deleted item in a sync (404), a truncated answer (507).
    mutating func add(href: String, status: String) {
        responses += "<d:response><d:href>\(Self.escape(href))</d:href><d:status>HTTP/1.1 \(status)</d:status></d:response>"
    }

    /// A PROPPATCH answer refusing every property named (403): Hearth keeps no dead properties.
    mutating func refuse(href: String, properties: [DAVProperty]) {
        let refused = properties.map { Self.element($0, "") }.joined()
        responses += "<d:response><d:href>\(Self.escape(href))</d:href><d:propstat><d:prop>\(refused)</d:prop>"
            + "<d:status>HTTP/1.1 403 Forbidden</d:status></d:propstat></d:response>"
    }

    var xml: String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <d:multistatus xmlns:d="DAV:" xmlns:c="\(DAVProperty.caldav)" xmlns:cs="\(DAVProperty.calendarServer)" xmlns:ical="\(DAVProperty.apple)">\
        \(responses)\(syncToken.map { "<d:sync-token>\(Self.escape($0))</d:sync-token>" } ?? "")</d:multistatus>
        """
    }

    /// `<prefix:name>value</prefix:name>`; a property of an unknown namespace declares it on itself.
    static func element(_ property: DAVProperty, _ value: String) -> String {
        let tag = "\(property.prefix):\(property.name)"
        let declaration = property.prefix == "x" ? " xmlns:x=\"\(escape(property.namespace))\"" : ""
        return value.isEmpty ? "<\(tag)\(declaration)/>" : "<\(tag)\(declaration)>\(value)</\(tag)>"
    }

    /// `<d:href>…</d:href>`.
    static func href(_ path: String) -> String { "<d:href>\(escape(path))</d:href>" }

    /// XML text and attribute escaping (`&`, `<`, `>`, `"`), in one pass over the bytes.
    static func escape(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 }) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count + 64)
        for byte in utf8 {
            switch byte {
            case 0x26: bytes.append(contentsOf: "&amp;".utf8)
            case 0x3C: bytes.append(contentsOf: "&lt;".utf8)
            case 0x3E: bytes.append(contentsOf: "&gt;".utf8)
            case 0x22: bytes.append(contentsOf: "&quot;".utf8)
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
