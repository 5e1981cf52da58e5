import Foundation

/// Settings of the households service.
public struct HouseholdsConfiguration: Sendable {
    /// How long household, membership and ability lookups stay cached (writes drop them at once).
    public var cacheTTL: TimeInterval
    /// How long an invitation lasts when its creator does not say.
    public var defaultInvitationLifetime: TimeInterval
    /// The longest an invitation may last.
    public var maximumInvitationLifetime: TimeInterval
    /// Household imports one person may make within ``importWindow`` (each may write a hundred
    /// thousand rows), counted made or not, as sign-ups are per address.
    public var importsPerPerson: Int
    public var importWindow: TimeInterval

    public init(cacheTTL: TimeInterval = 300, defaultInvitationLifetime: TimeInterval = 7 * 86_400,
                maximumInvitationLifetime: TimeInterval = 30 * 86_400, importsPerPerson: Int = 10, importWindow: TimeInterval = 3_600) {
        self.cacheTTL = cacheTTL
        self.defaultInvitationLifetime = defaultInvitationLifetime
        self.maximumInvitationLifetime = maximumInvitationLifetime
        self.importsPerPerson = importsPerPerson
        self.importWindow = importWindow
    }
}
