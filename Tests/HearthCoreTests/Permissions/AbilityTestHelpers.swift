import Foundation
import HearthCore
import Testing

/// Builds abilities and subjects from JSON text, as CASL's documentation writes them.
enum AbilityJSON {
    static func value(_ text: String) -> JSONValue {
        guard let value = JSONValue.parse(Data(text.utf8)) else {
            Issue.record("not JSON: \(text)")
            return .null
        }
        return value
    }

    static func ability(_ rules: String, aliases: String? = nil) throws -> Ability {
        let aliases = try aliases.map { try ActionAliases(json: value($0)) } ?? .none
        return try Ability(json: value(rules), aliases: aliases)
    }

    /// An instance: `subject("Post", #"{"authorId": 1}"#)`.
    static func subject(_ type: String, _ fields: String) -> AbilitySubject {
        .instance(type: type, fields: value(fields).objectValue ?? [:])
    }

    /// The error loading `rules` gives, or nil when they load.
    static func loadError(_ rules: String, aliases: String? = nil) -> String? {
        do {
            _ = try ability(rules, aliases: aliases)
            return nil
        } catch let error as PermissionRuleError {
            return error.description
        } catch {
            return "\(error)"
        }
    }
}
