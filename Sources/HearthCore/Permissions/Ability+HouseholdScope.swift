import Foundation

/// Which households' subjects a caller's rules allow an action on, when the rules decide it by the
/// subject's household alone: what a prepared statement takes as a parameter in place of the
/// rules' SQL (``Ability/sqlCondition(_:subjectType:columns:)``), whose text differs per caller.
public enum HouseholdScope: Sendable, Equatable {
    /// Allowed in every household.
    case everyHousehold
    /// Allowed in these households only (none: nothing is allowed).
    case households(Set<UUID>)
    /// The rules look at more than the household (or deny by it): only their SQL can say.
    case beyondHouseholds

    /// The ids among `ids` this scope allows, in their order; nil for ``beyondHouseholds``.
    public func allowed(_ ids: [UUID]) -> [UUID]? {
        switch self {
        case .everyHousehold: ids
        case .households(let allowed): ids.filter(allowed.contains)
        case .beyondHouseholds: nil
        }
    }

    /// Allowed where both are.
    static func both(_ left: HouseholdScope, _ right: HouseholdScope) -> HouseholdScope {
        switch (left, right) {
        case (.beyondHouseholds, _), (_, .beyondHouseholds): .beyondHouseholds
        case (.everyHousehold, let other), (let other, .everyHousehold): other
        case (.households(let left), .households(let right)): .households(left.intersection(right))
        }
    }

    /// Allowed where either is.
    static func either(_ left: HouseholdScope, _ right: HouseholdScope) -> HouseholdScope {
        switch (left, right) {
        case (.beyondHouseholds, _), (_, .beyondHouseholds): .beyondHouseholds
        case (.everyHousehold, _), (_, .everyHousehold): .everyHousehold
        case (.households(let left), .households(let right)): .households(left.union(right))
        }
    }
}

extension Ability {
    /// The rules for `action` on `subjectType` folded as ``rulesToCondition(_:subjectType:convert:not:and:or:)``
    /// folds them into SQL, each condition reduced to the households it admits: a `householdId`
    /// equal to an id, or in a list of them, spelled as the SQL compares them (a stored UUID reads
    /// back lower-case, so another spelling admits none). An inverted rule, or a condition on
    /// another field or with another operator, makes it ``HouseholdScope/beyondHouseholds``.
    public func householdScope(_ action: String, subjectType: String) -> HouseholdScope {
        let folded = rulesToCondition(
            action, subjectType: subjectType,
            convert: { rule in rule.condition.map(Self.scope(of:)) ?? .everyHousehold },
            not: { _ in .beyondHouseholds },
            and: { $0.reduce(.everyHousehold, HouseholdScope.both) },
            or: { $0.reduce(.households([]), HouseholdScope.either) })
        return folded ?? .households([])
    }

    private static func scope(of condition: RuleCondition) -> HouseholdScope {
        switch condition {
        case .and(let conditions):
            return conditions.map(scope(of:)).reduce(.everyHousehold, HouseholdScope.both)
        case .field(path: "householdId", .eq(let value)):
            return household(value).map { .households($0) } ?? .beyondHouseholds
        case .field(path: "householdId", .in(let values)):
            return values.map { household($0).map { .households($0) } ?? .beyondHouseholds }.reduce(.households([]), HouseholdScope.either)
        case .field:
            return .beyondHouseholds
        }
    }

    /// The households `householdId = value` admits (as ``RuleCondition``'s SQL compares it); nil
    /// for a null, which SQL tests differently.
    private static func household(_ value: JSONValue) -> Set<UUID>? {
        switch value {
        case .null: return nil
        case .string(let text):
            guard let id = UUID(uuidString: text), id.lowercasedString == text else { return [] }
            return [id]
        default: return []
        }
    }
}
