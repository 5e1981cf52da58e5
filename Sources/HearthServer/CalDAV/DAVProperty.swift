import Foundation

/// A WebDAV property's name: its XML namespace and local name, e.g. `DAV:` `displayname`.
struct DAVProperty: Hashable, Sendable {
    var namespace: String
    var name: String

    static let dav = "DAV:"
    static let caldav = "urn:ietf:params:xml:ns:caldav"
    static let calendarServer = "http://calendarserver.org/ns/"
    static let apple = "http://apple.com/ns/ical/"
    /// Hearth's own elements (an error's message).
    static let hearth = "http://hearth.invalid/ns/"

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

/// What a PROPFIND or REPORT asks for: named properties, or all of them (`allprop`, or no body at all).
enum PropfindRequest: Equatable {
    case all
    case names([DAVProperty])

    /// Reads a PROPFIND body; nil when it is not well-formed XML (answered 400).
    static func parse(_ body: Data) -> PropfindRequest? {
        guard !body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return .all }
        guard let root = DAVElement.parse(body) else { return nil }
        return PropfindRequest(root)
    }

    /// What the request element (`propfind`, or a REPORT's) asks for: its `prop`, else everything.
    init(_ request: DAVElement) {
        if let prop = request.child(DAVProperty.dav, "prop"), request.child(DAVProperty.dav, "allprop") == nil {
            self = .names(prop.propertyNames)
        } else {
            self = .all
        }
    }

    /// Whether `property` is asked for by name.
    func names(_ property: DAVProperty) -> Bool {
        if case .names(let names) = self { names.contains(property) } else { false }
    }
}
