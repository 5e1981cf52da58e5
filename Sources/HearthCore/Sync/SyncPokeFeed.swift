import Foundation

/// Households whose changes committed, on any instance (the log's trigger notifies the event
/// bus), for `syncAvailable` subscribers. A poke carries the household only: it cannot leak.
public typealias SyncPokeFeed = ChangeFeed<UUID>
