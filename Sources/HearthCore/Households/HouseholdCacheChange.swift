import Foundation

/// What a committed write made stale in the household caches: applied by the instance that
/// wrote, then sent over the event bus so the other instances drop the same entries.
struct HouseholdCacheChange: Codable, Sendable {
    static let topic = "households"

    /// People whose memberships changed: their cached abilities go.
    var users: [UUID] = []
    /// A household whose row changed or went.
    var household: UUID?
    /// The household is gone: everyone who belonged to it loses their cached ability.
    var deleted = false
}
