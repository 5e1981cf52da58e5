import Foundation

/// A refused permission check, told twice: ``message`` is a sentence for the person (their role,
/// the household, what they tried, whom to ask for which role), the rest is CASL's for programs.
public struct PermissionDenial: Sendable, Equatable {
    /// For people: `Viewers can't create tasks in "Elm Street"; ask an admin for the member role.`
    public let message: String
    public let action: String
    public let subjectType: String
    public let field: String?
    /// CASL's message: the deciding rule's `reason`, or `Cannot execute "<action>" on "<Subject>"`.
    public let reason: String
    /// The lowest role that may do it, when the person has a lower one in that household.
    public let neededRole: HouseholdRole?
}

extension Caller {
    /// The denial of `error`, worded for this person in the household `subject` belongs to.
    func denial(_ error: ForbiddenError, subject: AbilitySubject) -> PermissionDenial {
        let household = Self.householdID(of: subject)
        let role = household.flatMap { roles[$0] }
        let name = household.flatMap { householdNames[$0] }
        var needed: HouseholdRole?
        if let household, let role {
            needed = HouseholdRole.allCases.sorted().first { candidate in
                guard candidate > role,
                    let rules = try? permissions.rules(userID: userID, households: [(id: household, role: candidate.rawValue)])
                else { return false }
                return Ability(rules: rules, aliases: ability.aliases).can(error.action, subject, field: error.field)
            }
        }
        let who = role.map(Self.plural) ?? "You"
        var sentence = "\(who) can't \(Self.deed(error.action, subject: subject, field: error.field))"
        if let name { sentence += subject.typeName == "Household" ? " \"\(name)\"" : " in \"\(name)\"" }
        if let needed {
            let asker = needed > .member ? "an owner" : "an admin"
            sentence += "; ask \(asker) for the \(needed.rawValue.lowercased()) role."
        } else {
            sentence += "."
        }
        return PermissionDenial(
            message: sentence, action: error.action, subjectType: error.subjectType, field: error.field, reason: error.message,
            neededRole: needed)
    }

    static func householdID(of subject: AbilitySubject) -> UUID? {
        guard case .instance(let type, let fields) = subject else { return nil }
        let text = fields["householdId"]?.stringValue ?? (type == "Household" ? fields["id"]?.stringValue : nil)
        return text.flatMap(UUID.init(uuidString:))
    }

    static func plural(_ role: HouseholdRole) -> String {
        switch role {
        case .viewer: "Viewers"
        case .member: "Members"
        case .admin: "Admins"
        case .owner: "Owners"
        }
    }

    /// "create tasks", "change the assigneeId of tasks", "add admins", "mark store events read".
    static func deed(_ action: String, subject: AbilitySubject, field: String?) -> String {
        var noun: String
        switch subject.typeName {
        case "Household": noun = ""
        case "Event": noun = "store events"
        case "Activity": noun = "the activity log"
        case "all": noun = "anything"
        case "Member", "Invitation":
            // A member's or invitation's role says who is being added or invited.
            if case .instance(_, let fields) = subject, let role = fields["role"]?.stringValue.flatMap(HouseholdRole.init(rawValue:)) {
                noun = plural(role).lowercased()
                if subject.typeName == "Invitation" { noun = "invitations for " + noun }
            } else {
                noun = subject.typeName == "Member" ? "members" : "invitations"
            }
        default: noun = subject.typeName.lowercased() + "s"
        }
        if let field { noun = "the \(field) of \(noun.isEmpty ? "the household" : noun)" }
        let verb: String
        switch (action, subject.typeName) {
        case ("create", "Member"): verb = "add"
        case ("delete", "Member"): verb = "remove"
        case ("update", "Member"): return "change the role of \(noun)"
        case ("create", "Invitation"): return "create \(noun)"
        case ("markRead", _): return "mark \(noun) read"
        case ("update", "Household"): return field == nil ? "change the settings of" : "change \(noun) of"
        case ("read", _): verb = "see"
        case ("update", _): verb = "change"
        default: verb = action
        }
        return noun.isEmpty ? verb : "\(verb) \(noun)"
    }
}

extension ServiceError {
    /// A permission check refused it: a sentence for the person, CASL's details for programs.
    public static func denied(_ denial: PermissionDenial) -> ServiceError {
        var details = Details()
        details.denial = Denial(action: denial.action, subjectType: denial.subjectType, reason: denial.reason,
                                neededRole: denial.neededRole?.rawValue)
        return ServiceError(.forbidden, denial.message, field: denial.field, details: details)
    }
}
