import Foundation

/// Settings of the households service.
public struct HouseholdsConfiguration: Sendable {
    /// How long household, membership and ability lookups stay cached (writes drop them at once).
    public var cacheTTL: TimeInterval
    /// How long an invitation lasts when its creator does not say.
    public var defaultInvitationLifetime: TimeInterval
    /// The longest an invitation may last.
    public var maximumInvitationLifetime: TimeInterval

    public init(cacheTTL: TimeInterval = 300, defaultInvitationLifetime: TimeInterval = 7 * 86_400,
                maximumInvitationLifetime: TimeInterval = 30 * 86_400) {
        self.cacheTTL = cacheTTL
        self.defaultInvitationLifetime = defaultInvitationLifetime
        self.maximumInvitationLifetime = maximumInvitationLifetime
    }
}
