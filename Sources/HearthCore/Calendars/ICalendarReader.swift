import Foundation

/// One content line of iCalendar (RFC 5545 3.1), unfolded: its name, parameters and raw value,
/// with the line it began on (for errors) and its text as sent (to give back unchanged).
public struct ICalendarProperty: Sendable, Equatable {
    /// Upper-cased, e.g. `DTSTART`.
    public var name: String
    /// Parameter names upper-cased → their values (quotes removed; a list's values joined by commas).
    public var parameters: [String: String]
    /// The value as written (TEXT still escaped).
    public var value: String
    /// The line of the body it began on, from 1.
    public var line: Int
    /// The unfolded line as sent.
    public var text: String

    /// The value read as TEXT (escapes undone).
    public var textValue: String { ICalendarReader.unescape(value) }
    /// The value read as a comma-separated list of TEXT (CATEGORIES).
    public var textValues: [String] { ICalendarReader.splitList(value).map(ICalendarReader.unescape) }
}

/// A component (`BEGIN:X` … `END:X`): its properties and the components inside it.
public struct ICalendarComponent: Sendable, Equatable {
    /// Upper-cased, e.g. `VTODO`.
    public var name: String
    public var properties: [ICalendarProperty]
    public var components: [ICalendarComponent]
    /// The line its BEGIN is on.
    public var line: Int

    public func first(_ name: String) -> ICalendarProperty? { properties.first { $0.name == name } }
    public func all(_ name: String) -> [ICalendarProperty] { properties.filter { $0.name == name } }

    /// The component as content lines, folded, each ended by CRLF (how it was sent, unfolded and folded again).
    public var text: String {
        var lines = "BEGIN:\(name)\r\n"
        for property in properties { lines += ICalendarWriter.fold(property.text) + "\r\n" }
        for component in components { lines += component.text }
        return lines + "END:\(name)\r\n"
    }
}

/// Why a body is not iCalendar, with the line it is on.
public struct ICalendarError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var description: String { "line \(line): \(message)" }
}

/// Reads iCalendar text: unfolds lines (CRLF or LF, then a space or tab), splits each into its
/// name, parameters (quoted values allowed) and value, and nests components by BEGIN/END. Refuses
/// what is not well-formed with the line it is on; has limits on size and nesting.
public enum ICalendarReader {
    public static let maximumBytes = 1 << 20
    public static let maximumLines = 20_000
    static let maximumDepth = 8

    /// The body's VCALENDAR.
    public static func read(_ body: String) throws(ICalendarError) -> ICalendarComponent {
        guard body.utf8.count <= maximumBytes else { throw ICalendarError(line: 1, message: "The calendar is larger than \(maximumBytes >> 20) MiB.") }
        var stack: [ICalendarComponent] = []
        var root: ICalendarComponent?
        for (number, line) in try unfold(body) {
            let property = try contentLine(line, number: number)
            switch property.name {
            case "BEGIN":
                guard root == nil else { throw ICalendarError(line: number, message: "Nothing may follow END:VCALENDAR.") }
                let name = property.value.uppercased()
                guard isName(name) else { throw ICalendarError(line: number, message: "\"\(property.value)\" is not a component name.") }
                guard stack.isEmpty ? name == "VCALENDAR" : true else {
                    throw ICalendarError(line: number, message: "A calendar must begin with BEGIN:VCALENDAR, not BEGIN:\(name).")
                }
                guard stack.count < maximumDepth else { throw ICalendarError(line: number, message: "Components are nested too deeply.") }
                stack.append(ICalendarComponent(name: name, properties: [], components: [], line: number))
            case "END":
                guard let open = stack.popLast() else { throw ICalendarError(line: number, message: "END:\(property.value) has no BEGIN.") }
                guard open.name == property.value.uppercased() else {
                    throw ICalendarError(line: number, message: "END:\(property.value) closes BEGIN:\(open.name) (line \(open.line)).")
                }
                if stack.isEmpty { root = open } else { stack[stack.count - 1].components.append(open) }
            default:
                guard !stack.isEmpty else {
                    throw ICalendarError(line: number, message: root == nil ? "A calendar must begin with BEGIN:VCALENDAR." : "Nothing may follow END:VCALENDAR.")
                }
                stack[stack.count - 1].properties.append(property)
            }
        }
        if let open = stack.last { throw ICalendarError(line: open.line, message: "BEGIN:\(open.name) is never ended.") }
        guard let root else { throw ICalendarError(line: 1, message: "The body is empty; a calendar begins with BEGIN:VCALENDAR.") }
        return root
    }

    /// The logical lines, each with the physical line it began on.
    static func unfold(_ body: String) throws(ICalendarError) -> [(Int, String)] {
        var lines: [(Int, String)] = []
        var number = 0
        for physical in body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            number += 1
            guard number <= maximumLines else { throw ICalendarError(line: number, message: "The calendar has more than \(maximumLines) lines.") }
            if let first = physical.first, first == " " || first == "\t" {
                guard !lines.isEmpty else { throw ICalendarError(line: number, message: "A continuation line has no line before it.") }
                lines[lines.count - 1].1 += physical.dropFirst()
            } else if !physical.isEmpty {
                lines.append((number, String(physical)))
            }
        }
        return lines
    }

    /// `NAME;PARAM=value;PARAM="quoted":VALUE`.
    static func contentLine(_ line: String, number: Int) throws(ICalendarError) -> ICalendarProperty {
        let scalars = Array(line.unicodeScalars)
        var index = 0
        func word() -> String {
            let start = index
            while index < scalars.count, scalars[index] != ";", scalars[index] != ":" { index += 1 }
            return String(String.UnicodeScalarView(scalars[start..<index]))
        }
        let name = word().uppercased()
        guard isName(name) else {
            throw ICalendarError(line: number, message: "\"\(line.prefix(40))\" is not a content line (NAME:value).")
        }
        var parameters: [String: String] = [:]
        while index < scalars.count, scalars[index] == ";" {
            index += 1
            let start = index
            while index < scalars.count, scalars[index] != "=" { index += 1 }
            let key = String(String.UnicodeScalarView(scalars[start..<index])).uppercased()
            guard index < scalars.count, isName(key) else {
                throw ICalendarError(line: number, message: "A parameter of \(name) is not written NAME=value.")
            }
            index += 1
            var values: [String] = []
            repeat {
                if index < scalars.count, scalars[index] == "," { index += 1 }
                if index < scalars.count, scalars[index] == "\"" {
                    index += 1
                    let open = index
                    while index < scalars.count, scalars[index] != "\"" { index += 1 }
                    guard index < scalars.count else { throw ICalendarError(line: number, message: "A quoted value of \(name)'s \(key) is never closed.") }
                    values.append(String(String.UnicodeScalarView(scalars[open..<index])))
                    index += 1
                } else {
                    let open = index
                    while index < scalars.count, !";:,".unicodeScalars.contains(scalars[index]) { index += 1 }
                    values.append(String(String.UnicodeScalarView(scalars[open..<index])))
                }
            } while index < scalars.count && scalars[index] == ","
            parameters[key] = values.joined(separator: ",")
        }
        guard index < scalars.count, scalars[index] == ":" else {
            throw ICalendarError(line: number, message: "\(name) has no value (a colon and the value after its name).")
        }
        let value = String(String.UnicodeScalarView(scalars[(index + 1)...]))
        return ICalendarProperty(name: name, parameters: parameters, value: value, line: number, text: line)
    }

    /// Letters, digits and dashes (iana-token or x-name).
    static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }

    /// TEXT with its escapes undone: `\\`, `\;`, `\,`, `\n` or `\N`.
    public static func unescape(_ value: String) -> String {
        guard value.contains("\\") else { return value }
        var result = ""
        var escaping = false
        for character in value {
            if escaping {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// A list value split at commas that are not escaped.
    static func splitList(_ value: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaping = false
        for character in value {
            if escaping {
                current.append(character)
                escaping = false
            } else if character == "\\" {
                current.append(character)
                escaping = true
            } else if character == "," {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts.filter { !$0.isEmpty }
    }
}
