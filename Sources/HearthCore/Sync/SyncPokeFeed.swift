import Foundation

/// A commit of changes to a household's records, heard on any instance (the log's trigger
/// notifies the event bus), for `syncAvailable` subscribers: the household, and the sync client
/// whose push made it (nil when anything else did).
public struct SyncCommit: Sendable, Equatable {
    public var householdID: UUID
    public var clientID: UUID?

    public init(householdID: UUID, clientID: UUID?) {
        self.householdID = householdID
        self.clientID = clientID
    }

    /// The trigger's message: `{"topic":"sync","origin":…,"body":household,"client":id-or-null}`.
    struct Message: Decodable {
        var body: UUID
        var client: UUID?
    }
}

/// Commits for `syncAvailable` subscribers. What reaches a subscriber is only the household and
/// whether its own client made the change: a poke cannot leak.
public typealias SyncPokeFeed = ChangeFeed<SyncCommit>
