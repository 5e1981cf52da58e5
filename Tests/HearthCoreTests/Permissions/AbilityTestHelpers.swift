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

    /// Rule sets on `subject` made from `conditions`: each condition alone, allowing and denying,
    /// then 250 more enumerated deterministically (rule r of set k mixes k and r so that actions,
    /// subjects, inversions and conditions combine in many ways).
    static func generatedRuleSets(subject: String, conditions c: [String]) -> [String] {
        var sets: [String] = []
        for condition in c {
            sets.append(#"[{"action": "read", "subject": "\#(subject)", "conditions": \#(condition)}]"#)
            sets.append(#"[{"action": "read", "subject": "\#(subject)"}, {"action": "read", "subject": "\#(subject)", "conditions": \#(condition), "inverted": true}]"#)
        }
        for k in 0..<250 {
            let rules = (0..<(1 + k % 5)).map { r -> String in
                let mix = k &* 31 &+ r &* 17 &+ (k / 5) &* 7
                let action = ["read", "manage", "read", "update"][mix % 4]
                let subject = [subject, subject, "all"][(mix / 4) % 3]
                var rule = #"{"action": "\#(action)", "subject": "\#(subject)""#
                if (mix / 3) % 6 != 0 { rule += #", "conditions": \#(c[(mix &* 13 &+ r) % c.count])"# }
                if (mix / 2) % 3 == 0 { rule += #", "inverted": true"# }
                return rule + "}"
            }
            sets.append("[" + rules.joined(separator: ", ") + "]")
        }
        return sets
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
