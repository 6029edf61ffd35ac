import Synchronization
import Testing
import VerticalsStorage

/// Storage's read cache: answers from memory once read, and never keeps a row read before a
/// removal that raced the read.
struct ReadCacheTests {
    /// A store stand-in that counts reads and answers what `rows` holds at the time.
    final class Rows: Sendable {
        let rows = Mutex<[String: Int]>([:])
        let reads = Atomic<Int>(0)

        func read(_ key: String) -> Int? {
            reads.add(1, ordering: .relaxed)
            return rows.withLock { $0[key] }
        }
    }

    @Test func load_readsOnceThenAnswersFromMemory() async {
        let cache = ReadCache<String, Int>()
        let rows = Rows()
        rows.rows.withLock { $0["a"] = 1 }

        let first = await cache.load("a") { rows.read("a") }
        let second = await cache.load("a") { rows.read("a") }

        #expect(first == 1 && second == 1)
        #expect(rows.reads.load(ordering: .relaxed) == 1)
    }

    @Test func load_ofAMissingRow_keepsNothing_soARowCreatedLaterIsFound() async {
        let cache = ReadCache<String, Int>()
        let rows = Rows()

        let missing = await cache.load("a") { rows.read("a") }
        rows.rows.withLock { $0["a"] = 7 }
        let found = await cache.load("a") { rows.read("a") }

        #expect(missing == nil && found == 7)
    }

    @Test func remove_afterAWrite_makesTheNextLoadReadTheStore() async {
        let cache = ReadCache<String, Int>()
        let rows = Rows()
        rows.rows.withLock { $0["a"] = 1 }
        _ = await cache.load("a") { rows.read("a") }

        rows.rows.withLock { $0["a"] = 2 }
        cache.remove("a")

        #expect(await cache.load("a") { rows.read("a") } == 2)
    }

    @Test func removeAll_forgetsEveryEntry() async {
        let cache = ReadCache<String, Int>()
        _ = await cache.load("a") { 1 }
        _ = await cache.load("b") { 2 }

        cache.removeAll()

        #expect(cache.count == 0)
        #expect(await cache.load("a") { 3 } == 3)
    }

    @Test func aReadRacingARemoval_isAnsweredButNotKept() async {
        let cache = ReadCache<String, Int>()

        // The read saw the row as it was before a write that committed and removed it meanwhile.
        let raced = await cache.load("a") {
            cache.remove("a")
            return 1
        }

        #expect(raced == 1, "the caller gets what it read, as it would without a cache")
        #expect(cache.cached("a") == nil, "but the old row is not kept for later lookups")
        #expect(await cache.load("a") { 2 } == 2)
    }

    @Test func pastCapacity_itStartsOver() async {
        let cache = ReadCache<String, Int>(capacity: 2)
        _ = await cache.load("a") { 1 }
        _ = await cache.load("b") { 2 }

        _ = await cache.load("c") { 3 }

        #expect(cache.count == 1)
        #expect(cache.cached("c") == 3 && cache.cached("a") == nil)
    }
}
