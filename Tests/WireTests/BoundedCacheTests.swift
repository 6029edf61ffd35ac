import Testing
import VerticalsWire

/// A table kept per peer input holds at most its capacity, forgetting the least recently used.
struct BoundedCacheTests {
    @Test func seventyDistinctSets_leaveSixtyFour_andTheHonestSetReadInBetweenStays() {
        var cache = BoundedCache<[String], Int>(capacity: 64)
        cache.store(0, for: ["echo.echo"])
        for set in 1...70 {
            cache.store(set, for: (0..<8).map { "echo.unknown\(set)x\($0)" })
            // The honest callers ask about their set on every new connection.
            let honest = cache.value(for: ["echo.echo"])
            #expect(honest == 0, "after set \(set)")
        }
        #expect(cache.count == 64)
        #expect(cache[["echo.unknown1x0", "echo.unknown1x1"]] == nil)
    }

    @Test func store_whenFull_forgetsTheLeastRecentlyUsed_andSaysWhich() {
        var cache = BoundedCache<String, Int>(capacity: 2)
        cache.store(1, for: "a")
        cache.store(2, for: "b")
        _ = cache.value(for: "a")
        let forgotten = cache.store(3, for: "c")
        #expect(forgotten?.key == "b")
        #expect(cache["a"] == 1 && cache["c"] == 3 && cache.count == 2)
    }

    @Test func storeIfRoom_whenFull_refusesANewKey_butUpdatesAHeldOne() {
        var cache = BoundedCache<String, Int>(capacity: 1)
        let first = cache.storeIfRoom(1, for: "a")
        let second = cache.storeIfRoom(1, for: "b")
        let again = cache.storeIfRoom(2, for: "a")
        #expect(first && !second && again)
        #expect(cache["a"] == 2)
        let removed = cache.removeValue(for: "a")
        #expect(removed == 2 && cache.isEmpty)
    }
}
