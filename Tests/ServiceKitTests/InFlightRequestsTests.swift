import Testing

import VerticalsClient
@testable import VerticalsObservability
@testable import VerticalsServiceKit

/// ``ServerConnection/InFlightRequests``: a connection's suspended requests by correlation id,
/// the first in a slot of its own and the others in a dictionary, found and removed wherever
/// they sit.
struct InFlightRequestsTests {
    static func entry(deadline: MonotonicInstant? = nil, serial: UInt64 = 1) -> ServerConnection.InFlight {
        ServerConnection.InFlight(
            task: nil, serial: serial, deadline: deadline, started: .now, counts: OperationCounts(name: "test.op"),
            isStream: false)
    }

    @Test func insert_givenOneRequest_findsCountsAndRemovesIt() {
        var requests = ServerConnection.InFlightRequests()
        requests.insert(Self.entry(), id: 7)
        #expect(requests.count == 1)
        #expect(requests.contains(7))
        #expect(!requests.contains(8))
        #expect(requests.removeValue(forKey: 8) == nil)
        #expect(requests.removeValue(forKey: 7) != nil)
        #expect(requests.count == 0)
        #expect(!requests.contains(7))
    }

    @Test func insert_givenThreeRequests_removesEachWhereverItSits() {
        var requests = ServerConnection.InFlightRequests()
        for id: UInt64 in [1, 2, 3] { requests.insert(Self.entry(), id: id) }
        #expect(requests.count == 3)
        // The first one (in the slot) leaves first; a fourth then takes the free slot.
        #expect(requests.removeValue(forKey: 1) != nil)
        requests.insert(Self.entry(), id: 4)
        #expect(requests.count == 3)
        var seen: [UInt64] = []
        requests.forEach { id, _ in seen.append(id) }
        #expect(seen.sorted() == [2, 3, 4])
        for id: UInt64 in [3, 4, 2] { #expect(requests.removeValue(forKey: id) != nil) }
        #expect(requests.count == 0)
        #expect(requests.removeValue(forKey: 2) == nil)
    }

    /// A cancelled request's id used again while its handler still runs: the old handler's late
    /// answer finds the id filed for the new request, and must leave it there.
    @Test func removeValue_ofAnIdNowAnotherRequests_leavesTheNewOneFiled() {
        var requests = ServerConnection.InFlightRequests()
        requests.insert(Self.entry(serial: 2), id: 5)
        requests.insert(Self.entry(serial: 3), id: 6)
        #expect(requests.removeValue(forKey: 5, serial: 1) == nil, "the slot's request is another's")
        #expect(requests.removeValue(forKey: 6, serial: 1) == nil, "the dictionary's request is another's")
        #expect(requests.count == 2)
        #expect(requests.removeValue(forKey: 6, serial: 3)?.serial == 3)
        #expect(requests.removeValue(forKey: 5, serial: 2)?.serial == 2)
        #expect(requests.count == 0)
    }

    @Test func deadlines_givenRequestsWithAndWithoutOne_listsEachRequestOnce() {
        var requests = ServerConnection.InFlightRequests()
        let soon = MonotonicInstant.now + .seconds(5)
        requests.insert(Self.entry(deadline: soon), id: 10)
        requests.insert(Self.entry(), id: 11)
        let deadlines = requests.deadlines.sorted { $0.0 < $1.0 }
        #expect(deadlines.map(\.0) == [10, 11])
        #expect(deadlines[0].1 == soon)
        #expect(deadlines[1].1 == nil)
    }
}
