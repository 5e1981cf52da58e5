/// A member's role in a household, from most to least trusted.
public enum HouseholdRole: String, Sendable, CaseIterable, Comparable, Codable {
    case owner = "OWNER"
    case admin = "ADMIN"
    case member = "MEMBER"
    case viewer = "VIEWER"

    /// VIEWER 0 … OWNER 3.
    public var rank: Int {
        switch self {
        case .viewer: 0
        case .member: 1
        case .admin: 2
        case .owner: 3
        }
    }

    public static func < (lhs: HouseholdRole, rhs: HouseholdRole) -> Bool { lhs.rank < rhs.rank }

    /// Reads a role name as the API spells it, naming `field` when it is not one.
    public static func parse(_ name: String, field: String = "role") throws(ServiceError) -> HouseholdRole {
        guard let role = HouseholdRole(rawValue: name) else {
            throw .invalidInput(field: field, message: "\(field) must be one of OWNER, ADMIN, MEMBER, VIEWER.")
        }
        return role
    }
}
