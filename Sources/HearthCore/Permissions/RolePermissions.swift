import Foundation
import Logging
import PostgresNIO

/// The role permissions of `role_permissions`: CASL rule templates per role, checked when loaded
/// and filled in with a person's id and household ids when their ability is built.
///
/// A household member gets the rules of their role and of every role below it (VIEWER, MEMBER,
/// ADMIN, OWNER, in that order, so the higher role's rules come later and take precedence);
/// `SIGNED_IN` rules apply to everyone signed in and come first.
public struct RolePermissions: Sendable {
    /// Household roles, lowest first.
    public static let householdRoles = ["VIEWER", "MEMBER", "ADMIN", "OWNER"]
    public static let everyone = "SIGNED_IN"

    /// Role → its own rule templates (JSON objects).
    public let templates: [String: [JSONValue]]

    /// Checks every role's rules by building them for sample ids: an unknown placeholder or a
    /// rule that does not load is an error naming the role and the rule.
    public init(templates: [String: [JSONValue]]) throws(PermissionRuleError) {
        let sampleUser = UUID()
        let sampleHousehold = UUID()
        for (role, rules) in templates {
            guard role == Self.everyone || Self.householdRoles.contains(role) else {
                throw PermissionRuleError("unknown role \"\(role)\" in role_permissions")
            }
            for (index, rule) in rules.enumerated() {
                do {
                    _ = try PermissionRule(json: try Self.fill(rule, user: sampleUser, household: role == Self.everyone ? nil : sampleHousehold))
                } catch {
                    throw PermissionRuleError("role \(role), rule \(index): \(error.message)")
                }
            }
        }
        self.templates = templates
    }

    /// Reads `role_permissions`.
    public static func load(from database: Database, logger: Logger) async throws -> RolePermissions {
        let rows = try await database.client.query("SELECT role, rules FROM role_permissions", logger: logger)
        var templates: [String: [JSONValue]] = [:]
        for (role, json) in try await rows.columns(("role", String.self), ("rules", JSONColumn.self)) {
            guard case .array(let rules)? = JSONValue.parse(json.data) else {
                throw PermissionRuleError("role \(role): rules are not a JSON array")
            }
            templates[role] = rules
        }
        return try RolePermissions(templates: templates)
    }

    /// The rules (as JSON) for a person with these household roles (role names as above).
    public func rules(userID: UUID, households: [(id: UUID, role: String)]) throws(PermissionRuleError) -> [PermissionRule] {
        var rules: [PermissionRule] = []
        for template in templates[Self.everyone] ?? [] {
            rules.append(try PermissionRule(json: try Self.fill(template, user: userID, household: nil)))
        }
        for household in households {
            guard let top = Self.householdRoles.firstIndex(of: household.role) else { continue }
            for role in Self.householdRoles[...top] {
                for template in templates[role] ?? [] {
                    rules.append(try PermissionRule(json: try Self.fill(template, user: userID, household: household.id)))
                }
            }
        }
        return rules
    }

    /// Replaces every string that is exactly `${user.id}` or `${household.id}`; any other
    /// `${…}` is refused, so a typo cannot quietly become a literal that never matches.
    static func fill(_ value: JSONValue, user: UUID, household: UUID?) throws(PermissionRuleError) -> JSONValue {
        switch value {
        case .string(let text) where text.hasPrefix("${"):
            switch text {
            case "${user.id}": return .string(user.lowercasedString)
            case "${household.id}":
                guard let household else { throw PermissionRuleError("${household.id} is only known in household roles") }
                return .string(household.lowercasedString)
            default: throw PermissionRuleError("unknown placeholder \(text) (known: ${user.id}, ${household.id})")
            }
        case .array(let items):
            var filled: [JSONValue] = []
            for item in items { filled.append(try fill(item, user: user, household: household)) }
            return .array(filled)
        case .object(let members):
            var filled: [String: JSONValue] = [:]
            for (key, member) in members { filled[key] = try fill(member, user: user, household: household) }
            return .object(filled)
        default:
            return value
        }
    }
}
