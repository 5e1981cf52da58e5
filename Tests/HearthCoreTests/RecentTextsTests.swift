import Testing

@testable import HearthCore

/// The persisted-query store's memory: bounded, and it keeps what is read.
@Suite struct RecentTextsTests {
    @Test func holdsAtMostItsCapacity() {
        var cache = RecentTexts(capacity: 4)
        for index in 0..<100 { cache.insert("text \(index)", forHash: "h\(index)") }
        #expect(cache.count <= 4)
        #expect(cache.text(forHash: "h99") == "text 99")
        #expect(cache.text(forHash: "h0") == nil)
    }

    @Test func aTextReadStaysWhileUnreadOnesAreDropped() {
        var cache = RecentTexts(capacity: 4)
        cache.insert("a", forHash: "a")
        cache.insert("b", forHash: "b")
        // Reading "a" while newer texts arrive keeps it; "b", never read again, goes.
        for name in ["c", "d", "e", "f", "g", "h"] {
            cache.insert(name, forHash: name)
            #expect(cache.text(forHash: "a") == "a", "after \(name)")
        }
        #expect(cache.text(forHash: "a") == "a")
        #expect(cache.text(forHash: "b") == nil)
        #expect(cache.count <= 4)
    }
}
