import Synchronization
import Testing
@testable import VerticalsEventLoop

/// The startup gate's arithmetic, OpenSSH's `MaxStartups` (start:rate:full) and a cap per
/// address, and that a place is given back exactly once.
struct StartupGateTests {
    @Test func passes_belowStart_always_pastFull_never_andBetween_atARisingRate() {
        let limits = StartupGate.Limits(start: 10, rate: 30, full: 20, perAddress: 100)
        #expect((0..<100).allSatisfy { StartupGate.passes(waiting: 9, roll: $0, limits) })
        #expect(!(0..<100).contains { StartupGate.passes(waiting: 20, roll: $0, limits) })
        // At start, 30 % dropped; halfway to full, 65 %.
        #expect((0..<100).filter { StartupGate.passes(waiting: 10, roll: $0, limits) }.count == 70)
        #expect((0..<100).filter { StartupGate.passes(waiting: 15, roll: $0, limits) }.count == 35)
    }

    @Test func limits_whenOutOfOrder_areMadeConsistent() {
        let limits = StartupGate.Limits(start: 50, rate: 250, full: 10, perAddress: 0)
        #expect(limits.full == 50)
        #expect(limits.rate == 100)
        #expect(limits.perAddress == 1)
        #expect(limits.description == "50:100:50")
    }

    @Test func enter_pastTheAddressCap_dropsThatAddressOnly_untilAPlaceIsGivenBack() throws {
        let gate = StartupGate(StartupGate.Limits(start: 100, rate: 30, full: 100, perAddress: 2))
        var tickets = [gate.enter(address: "192.0.2.1"), gate.enter(address: "192.0.2.1")]
        #expect(tickets.allSatisfy { $0 != nil })
        #expect(gate.enter(address: "192.0.2.1") == nil)
        #expect(gate.enter(address: "192.0.2.2") != nil, "another address is not held back")
        #expect(gate.counts.dropped == 1)
        tickets[0]?.release()
        tickets[0]?.release() // once only
        #expect(gate.counts.waiting == 1)
        tickets.removeAll() // the last reference gives the other back
        #expect(gate.counts.waiting == 0)
        #expect(gate.enter(address: "192.0.2.1") != nil)
    }

    @Test func enter_atFull_dropsEveryAddress_andCountsEachDrop() {
        let dropped = Mutex(0)
        let gate = StartupGate(StartupGate.Limits(start: 3, rate: 100, full: 3, perAddress: 10)) {
            dropped.withLock { $0 += 1 }
        }
        let held = (0..<3).compactMap { gate.enter(address: "198.51.100.\($0)") }
        #expect(held.count == 3)
        #expect(gate.enter(address: "198.51.100.9") == nil)
        #expect(gate.enter(address: nil) == nil)
        #expect(gate.counts == StartupGate.Counts(waiting: 3, dropped: 2))
        #expect(dropped.withLock { $0 } == 2)
    }
}
