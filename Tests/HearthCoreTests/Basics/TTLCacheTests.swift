import Foundation
import HearthCore
import Testing

/// The cache's read/invalidate race, step by step: a read that began before an invalidation must
/// not store what it read (a removed member would otherwise keep their ability for a whole TTL).
@Suite struct TTLCacheTests {
    @Test func aReadOverlappingAnInvalidationIsNotStored() {
        let cache = TTLCache<String, String>(ttl: 300, clock: ManualClock(Date(timeIntervalSince1970: 0)))
        // A reader misses and begins its query …
        #expect(cache.value(for: "ada") == nil)
        let ticket = cache.beginRead()
        // … a write commits and invalidates the key while the query runs …
        cache.remove("ada")
        // … and the reader, with its pre-write answer, stores it: refused.
        cache.store("member of Home", for: "ada", readSince: ticket)
        #expect(cache.value(for: "ada") == nil, "the stale read was cached after the invalidation")

        // The next read begins after the invalidation: it is kept.
        let fresh = cache.beginRead()
        cache.store("no household", for: "ada", readSince: fresh)
        #expect(cache.value(for: "ada") == "no household")
    }

    @Test func everyKindOfInvalidationEndsTheReadsBeforeIt() {
        let cache = TTLCache<String, Int>(ttl: 300, clock: ManualClock(Date(timeIntervalSince1970: 0)))
        let invalidations: [(String, (TTLCache<String, Int>) -> Void)] = [
            ("another key removed", { $0.remove("other") }),
            ("removed by predicate", { $0.removeAll { $0 == 7 } }),
            ("everything removed", { $0.removeAll() }),
        ]
        for (name, invalidate) in invalidations {
            let ticket = cache.beginRead()
            invalidate(cache)
            cache.store(1, for: "key", readSince: ticket)
            #expect(cache.value(for: "key") == nil, "\(name)")
        }
        // Without an invalidation in between, a read is stored and expires with the TTL.
        let clock = ManualClock(Date(timeIntervalSince1970: 0))
        let timed = TTLCache<String, Int>(ttl: 300, clock: clock)
        timed.store(2, for: "key", readSince: timed.beginRead())
        #expect(timed.value(for: "key") == 2)
        clock.advance(by: 301)
        #expect(timed.value(for: "key") == nil)
    }
}
