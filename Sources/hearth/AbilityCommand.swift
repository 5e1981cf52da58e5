import ArgumentParser
import Foundation
import HearthCore

/// `hearth ability …`: tools for permission rules.
struct AbilityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ability",
        abstract: "Check CASL permission rules with Hearth's ability engine.",
        subcommands: [Eval.self])
}

extension AbilityCommand {
    /// `hearth ability eval`: one permission check per line of standard input.
    struct Eval: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Evaluate permission checks given as JSON lines on standard input.",
            discussion: """
                Each line is {"rules": [...], "options": {"aliases": {...}}, "action": "...", \
                "subject": "Type" | {"__caslSubjectType__": "Type", ...} | null, "field": "..."} \
                ("options" and "field" may be left out). Each line gets one line of output: \
                {"allowed": true|false}, or {"error": "..."} when the line or its rules are not valid \
                (Hearth refuses unsupported operators where CASL would quietly never match). \
                Blank lines are skipped.
                """)

        /// Lines longer than this are answered with an error instead of being evaluated.
        static let maximumLineLength = 4 << 20

        func run() throws {
            while let line = readLine(strippingNewline: true) {
                if line.allSatisfy(\.isWhitespace) { continue }
                let answer = Self.evaluate(line)
                FileHandle.standardOutput.write(Data((answer.jsonText + "\n").utf8))
            }
        }

        static func evaluate(_ line: String) -> JSONValue {
            guard line.utf8.count <= maximumLineLength else {
                return .object(["error": .string("the line is longer than \(maximumLineLength) bytes")])
            }
            guard let request = JSONValue.parse(Data(line.utf8))?.objectValue else {
                return .object(["error": .string("the line is not a JSON object")])
            }
            do {
                let allowed = try check(request)
                return .object(["allowed": .bool(allowed)])
            } catch {
                return .object(["error": .string(error.description)])
            }
        }

        static func check(_ request: [String: JSONValue]) throws(PermissionRuleError) -> Bool {
            let known: Set<String> = ["rules", "options", "action", "subject", "field"]
            if let unknown = request.keys.sorted().first(where: { !known.contains($0) }) {
                throw PermissionRuleError("unknown key \"\(unknown)\" (a line has \(known.sorted().joined(separator: ", ")))")
            }
            guard let action = request["action"]?.stringValue else { throw PermissionRuleError("\"action\" must be a string") }
            var field: String?
            switch request["field"] {
            case nil, .null?: field = nil
            case .string(let text)?: field = text
            case let other?: throw PermissionRuleError("\"field\" must be a string; got \(other.jsonText)")
            }
            var aliases = ActionAliases.none
            if let options = request["options"], options != .null {
                guard let members = options.objectValue else { throw PermissionRuleError("\"options\" must be an object") }
                if let unknown = members.keys.sorted().first(where: { $0 != "aliases" }) {
                    throw PermissionRuleError("unknown option \"\(unknown)\" (options has aliases)")
                }
                if let json = members["aliases"] { aliases = try ActionAliases(json: json) }
            }
            let ability = try Ability(json: request["rules"] ?? .null, aliases: aliases)
            return ability.can(action, try AbilitySubject(json: request["subject"]), field: field)
        }
    }
}
