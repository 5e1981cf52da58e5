import Foundation

/// A private calendar feed: a secret URL (`/feeds/<token>.ics`) a calendar app subscribes to,
/// read-only, showing its owner's tasks with deadlines and events in some of their households.
public struct CalendarFeed: Sendable, Equatable {
    public var id: UUID
    public var userID: UUID
    public var name: String
    /// The households it shows (those its owner still belongs to when it is read); nil: all of theirs.
    public var householdIDs: [UUID]?
    /// Tasks (with deadlines), events, or both.
    public var kinds: [TaskKind]
    public var createdAt: Date
    /// When a calendar app last read it.
    public var lastFetchedAt: Date?
}

/// `createCalendarFeed`'s answer: the feed's secret address, shown this once, and its record.
public struct CreatedCalendarFeed: Sendable {
    /// The feed's address: `/feeds/<token>.ics`, which the server makes absolute.
    public var path: String
    public var feed: CalendarFeed
}

/// A feed as a calendar app reads it: the iCalendar text and its entity tag.
public struct RenderedCalendarFeed: Sendable {
    public var body: String
    /// A strong ETag of the body: the same items give the same tag, so a client's `If-None-Match` gets 304.
    public var etag: String
}
