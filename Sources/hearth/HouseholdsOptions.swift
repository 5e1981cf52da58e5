import ArgumentParser
import HearthCore

/// `hearth serve`'s household settings: each an option or an environment variable.
struct HouseholdsOptions: ParsableArguments {
    @Option(name: .customLong("household-cache-ttl"),
            help: "Seconds household, membership and permission lookups stay cached (env HEARTH_HOUSEHOLD_CACHE_TTL; default 300).")
    var cacheTTL: Int?

    @Option(name: .customLong("invitation-days"),
            help: "Days an invitation lasts unless its creator says otherwise (env HEARTH_INVITATION_DAYS; default 7, at most 30).")
    var invitationDays: Int?

    func resolve(_ env: EnvironmentValue) throws -> HouseholdsConfiguration {
        HouseholdsConfiguration(
            cacheTTL: Double(try env.integer(cacheTTL, "HEARTH_HOUSEHOLD_CACHE_TTL", range: 0...86_400) ?? 300),
            defaultInvitationLifetime: Double(try env.integer(invitationDays, "HEARTH_INVITATION_DAYS", range: 1...30) ?? 7) * 86_400)
    }
}
